package org.sparkmc.core.mcmc;

import java.util.Arrays;
import org.sparkmc.core.model.GradientTarget;
import org.sparkmc.core.random.Rng;

/**
 * One NUTS trajectory, as Stan's {@code base_nuts::transition} and {@code build_tree} build it, on a chain's
 * preallocated {@link Workspace}: leapfrog steps under a diagonal metric, doubling, the generalised U-turn checks
 * and the multinomial choice of the next state (see {@link Nuts} for the algorithm and its sources). Stateless: the
 * kernel supplies the step size, the metric and the random stream.
 */
final class NutsTrajectory {
    private NutsTrajectory() {
    }

    /** One NUTS transition from x; the sample ends in {@code w.sample}. Returns whether it differs from x. */
    static boolean transition(GradientTarget g, double[] x, double eps, Workspace w, Rng rng, boolean alwaysNewest) {
        w.start(g, x, rng);
        int d = w.d;
        w.fwd.copyFrom(w.z);
        w.bck.copyFrom(w.z);
        w.sample.copyState(w.z);
        w.sharp(w.z.p, w.pSharpFwdFwd);
        for (double[] v : new double[][] {w.pSharpFwdBck, w.pSharpBckFwd, w.pSharpBckBck}) {
            System.arraycopy(w.pSharpFwdFwd, 0, v, 0, d);
        }
        for (double[] v : new double[][] {w.pFwdFwd, w.pFwdBck, w.pBckFwd, w.pBckBck, w.rho}) {
            System.arraycopy(w.z.p, 0, v, 0, d);
        }
        double logSumWeight = 0;
        double h0 = w.energy(w.z);
        w.leapfrogs = 0;
        w.sumMetroProb = 0;
        w.depth = 0;
        w.divergent = false;
        boolean moved = false;
        while (w.depth < Nuts.MAX_DEPTH) {
            Arrays.fill(w.rhoFwd, 0);
            Arrays.fill(w.rhoBck, 0);
            boolean valid;
            if (rng.uniform() > 0.5) {
                // forward: the old trajectory becomes the backward part, its forward end adjacent to the new subtree
                System.arraycopy(w.rho, 0, w.rhoBck, 0, d);
                System.arraycopy(w.pFwdFwd, 0, w.pBckFwd, 0, d);
                System.arraycopy(w.pSharpFwdFwd, 0, w.pSharpBckFwd, 0, d);
                w.z.copyFrom(w.fwd);
                valid = buildTree(w.depth, w.propose, w.pSharpFwdBck, w.pSharpFwdFwd, w.rhoFwd, w.pFwdBck, w.pFwdFwd,
                        h0, eps, g, w, rng);
                w.fwd.copyFrom(w.z);
            } else {
                System.arraycopy(w.rho, 0, w.rhoFwd, 0, d);
                System.arraycopy(w.pBckBck, 0, w.pFwdBck, 0, d);
                System.arraycopy(w.pSharpBckBck, 0, w.pSharpFwdBck, 0, d);
                w.z.copyFrom(w.bck);
                valid = buildTree(w.depth, w.propose, w.pSharpBckFwd, w.pSharpBckBck, w.rhoBck, w.pBckFwd, w.pBckBck,
                        h0, -eps, g, w, rng);
                w.bck.copyFrom(w.z);
            }
            if (!valid) {
                break;
            }
            w.depth++;
            double subtree = w.subtreeLogWeight;
            if (alwaysNewest || subtree > logSumWeight
                    || rng.uniform() < Math.exp(subtree - logSumWeight)) {
                w.sample.copyState(w.propose);
                moved = true;
            }
            logSumWeight = logSumExp(logSumWeight, subtree);
            add(w.rhoBck, w.rhoFwd, w.rho);
            boolean persist = uTurnFree(w.pSharpBckBck, w.pSharpFwdFwd, w.rho);
            add(w.rhoBck, w.pFwdBck, w.rhoExtended);
            persist &= uTurnFree(w.pSharpBckBck, w.pSharpFwdBck, w.rhoExtended);
            add(w.rhoFwd, w.pBckFwd, w.rhoExtended);
            persist &= uTurnFree(w.pSharpBckFwd, w.pSharpFwdFwd, w.rhoExtended);
            if (!persist) {
                break;
            }
        }
        return moved;
    }

    /**
     * Stan's {@code build_tree}: 2^depth leapfrog steps of size {@code eps} (its sign the direction) from
     * {@code w.z}, a proposal drawn from them by weights e^−H into {@code propose}, their summed momenta added to
     * {@code rho}, the momenta and sharp momenta M⁻¹p of the subtree's first and last points written, and the subtree's
     * log total weight left in {@code w.subtreeLogWeight}. Returns false for a divergence or a U-turn inside.
     */
    private static boolean buildTree(int depth, Point propose, double[] pSharpBeg, double[] pSharpEnd, double[] rho,
            double[] pBeg, double[] pEnd, double h0, double eps, GradientTarget g, Workspace w, Rng rng) {
        int d = w.d;
        if (depth == 0) {
            double h = w.leapfrog(g, w.z, eps);
            w.leapfrogs++;
            if (Double.isNaN(h)) {
                h = Double.POSITIVE_INFINITY;
            }
            if (h - h0 > Nuts.MAX_DELTA_H) {
                w.divergent = true;
            }
            w.subtreeLogWeight = h0 - h;
            w.sumMetroProb += h0 - h > 0 ? 1 : Math.exp(h0 - h);
            propose.copyState(w.z);
            double[] p = w.z.p;
            for (int i = 0; i < d; i++) {
                double sharp = w.inverseMetric[i] * p[i];
                pSharpBeg[i] = sharp;
                pSharpEnd[i] = sharp;
                rho[i] += p[i];
                pBeg[i] = p[i];
                pEnd[i] = p[i];
            }
            return !w.divergent;
        }
        Level l = w.levels[depth];
        Arrays.fill(l.rhoInit, 0);
        if (!buildTree(depth - 1, propose, pSharpBeg, l.pSharpInitEnd, l.rhoInit, pBeg, l.pInitEnd, h0, eps, g, w,
                rng)) {
            return false;
        }
        double init = w.subtreeLogWeight;
        Arrays.fill(l.rhoFinal, 0);
        if (!buildTree(depth - 1, l.proposeFinal, l.pSharpFinalBeg, pSharpEnd, l.rhoFinal, l.pFinalBeg, pEnd, h0, eps,
                g, w, rng)) {
            return false;
        }
        double fin = w.subtreeLogWeight;
        double subtree = logSumExp(init, fin);
        if (fin > subtree || rng.uniform() < Math.exp(fin - subtree)) {
            propose.copyState(l.proposeFinal);
        }
        w.subtreeLogWeight = subtree;
        add(l.rhoInit, l.rhoFinal, l.rhoSubtree);
        for (int i = 0; i < d; i++) {
            rho[i] += l.rhoSubtree[i];
        }
        boolean persist = uTurnFree(pSharpBeg, pSharpEnd, l.rhoSubtree);
        add(l.rhoInit, l.pFinalBeg, l.rhoSubtree);
        persist &= uTurnFree(pSharpBeg, l.pSharpFinalBeg, l.rhoSubtree);
        add(l.rhoFinal, l.pInitEnd, l.rhoSubtree);
        persist &= uTurnFree(l.pSharpInitEnd, pSharpEnd, l.rhoSubtree);
        return persist;
    }

    /** The generalised no-U-turn criterion: both ends' sharp momenta still point along ρ. */
    private static boolean uTurnFree(double[] pSharpMinus, double[] pSharpPlus, double[] rho) {
        double plus = 0;
        double minus = 0;
        for (int i = 0; i < rho.length; i++) {
            plus += pSharpPlus[i] * rho[i];
            minus += pSharpMinus[i] * rho[i];
        }
        return plus > 0 && minus > 0;
    }

    private static void add(double[] a, double[] b, double[] out) {
        for (int i = 0; i < out.length; i++) {
            out[i] = a[i] + b[i];
        }
    }

    private static double logSumExp(double a, double b) {
        if (a == Double.NEGATIVE_INFINITY) {
            return b;
        }
        if (b == Double.NEGATIVE_INFINITY) {
            return a;
        }
        double max = Math.max(a, b);
        return max + Math.log1p(Math.exp(-Math.abs(a - b)));
    }

    /** A point in phase space: position, momentum, gradient of log p and log p. */
    static final class Point {
        final double[] q;
        final double[] p;
        final double[] grad;
        double logDensity;

        Point(int d) {
            q = new double[d];
            p = new double[d];
            grad = new double[d];
        }

        /** Position, momentum and log density: all a proposal needs (it never continues a trajectory). */
        void copyState(Point o) {
            System.arraycopy(o.q, 0, q, 0, q.length);
            System.arraycopy(o.p, 0, p, 0, p.length);
            logDensity = o.logDensity;
        }

        void copyFrom(Point o) {
            System.arraycopy(o.q, 0, q, 0, q.length);
            System.arraycopy(o.p, 0, p, 0, p.length);
            System.arraycopy(o.grad, 0, grad, 0, grad.length);
            logDensity = o.logDensity;
        }
    }

    /** The scratch arrays of one depth of the tree recursion (a depth is never re-entered while in use). */
    private static final class Level {
        final double[] pInitEnd;
        final double[] pSharpInitEnd;
        final double[] rhoInit;
        final double[] pFinalBeg;
        final double[] pSharpFinalBeg;
        final double[] rhoFinal;
        final double[] rhoSubtree;
        final Point proposeFinal;

        Level(int d) {
            pInitEnd = new double[d];
            pSharpInitEnd = new double[d];
            rhoInit = new double[d];
            pFinalBeg = new double[d];
            pSharpFinalBeg = new double[d];
            rhoFinal = new double[d];
            rhoSubtree = new double[d];
            proposeFinal = new Point(d);
        }
    }

    /** A chain's scratch space for transitions (not part of its state: rebuilt after shipping). */
    static final class Workspace {
        final int d;
        double[] inverseMetric;
        final Point z;
        final Point fwd;
        final Point bck;
        final Point sample;
        final Point propose;
        final double[] pFwdFwd;
        final double[] pSharpFwdFwd;
        final double[] pFwdBck;
        final double[] pSharpFwdBck;
        final double[] pBckFwd;
        final double[] pSharpBckFwd;
        final double[] pBckBck;
        final double[] pSharpBckBck;
        final double[] rho;
        final double[] rhoFwd;
        final double[] rhoBck;
        final double[] rhoExtended;
        final Level[] levels;
        int leapfrogs;
        double sumMetroProb;
        int depth;
        boolean divergent;
        double subtreeLogWeight;

        Workspace(int d) {
            this.d = d;
            z = new Point(d);
            fwd = new Point(d);
            bck = new Point(d);
            sample = new Point(d);
            propose = new Point(d);
            pFwdFwd = new double[d];
            pSharpFwdFwd = new double[d];
            pFwdBck = new double[d];
            pSharpFwdBck = new double[d];
            pBckFwd = new double[d];
            pSharpBckFwd = new double[d];
            pBckBck = new double[d];
            pSharpBckBck = new double[d];
            rho = new double[d];
            rhoFwd = new double[d];
            rhoBck = new double[d];
            rhoExtended = new double[d];
            levels = new Level[Nuts.MAX_DEPTH + 1];
            for (int i = 0; i < levels.length; i++) {
                levels[i] = new Level(d);
            }
        }

        /** z = (x, p) with p ~ N(0, M), its gradient and log density evaluated. */
        void start(GradientTarget g, double[] x, Rng rng) {
            System.arraycopy(x, 0, z.q, 0, d);
            z.logDensity = g.logDensityGradient(z.q, z.grad);
            for (int i = 0; i < d; i++) {
                z.p[i] = rng.normal() / Math.sqrt(inverseMetric[i]);
            }
        }

        /** One leapfrog step of size eps (negative: backwards in time); returns the new energy H. */
        double leapfrog(GradientTarget g, Point point, double eps) {
            double half = 0.5 * eps;
            for (int i = 0; i < d; i++) {
                point.p[i] += half * point.grad[i];
                point.q[i] += eps * inverseMetric[i] * point.p[i];
            }
            point.logDensity = g.logDensityGradient(point.q, point.grad);
            double kinetic = 0;
            for (int i = 0; i < d; i++) {
                point.p[i] += half * point.grad[i];
                kinetic += inverseMetric[i] * point.p[i] * point.p[i];
            }
            return 0.5 * kinetic - point.logDensity;
        }

        /** H = ½pᵀM⁻¹p − log p(q). */
        double energy(Point point) {
            double kinetic = 0;
            for (int i = 0; i < d; i++) {
                kinetic += inverseMetric[i] * point.p[i] * point.p[i];
            }
            return 0.5 * kinetic - point.logDensity;
        }

        void sharp(double[] p, double[] out) {
            for (int i = 0; i < d; i++) {
                out[i] = inverseMetric[i] * p[i];
            }
        }
    }
}
