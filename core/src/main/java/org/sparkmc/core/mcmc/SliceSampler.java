package org.sparkmc.core.mcmc;

import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.Rng;

/**
 * Slice sampling (Neal 2003, "Slice sampling", Annals of Statistics 31(3)), coordinate-wise: each step updates the
 * coordinates of x in turn by a univariate slice update along that coordinate (a 1-d target is the univariate
 * sampler). Each update draws the slice level log y = log p(x) − Exp(1), finds an interval around x by
 * {@link Method#STEPPING_OUT stepping out} (Neal's Fig. 3, at most m = 32 steps of width w) or by
 * {@link Method#DOUBLING doubling} (Fig. 4, at most p = 12 doublings), then samples from it by shrinkage (Fig. 5),
 * with the doubling procedure's acceptance test (Fig. 6) that makes doubling reversible.
 *
 * <p>Width adaptation: during warm-up each coordinate's width becomes w_i = 2·mean|x_i' − x_i| over the warm-up
 * updates so far (the distance a well-tuned update typically moves); after warm-up the widths are frozen. Any fixed
 * widths give a valid kernel, so the kept draws come from a fixed kernel. A chain's state is its {@link Widths}.
 */
public final class SliceSampler implements Kernel<SliceSampler.Widths> {
    private static final long serialVersionUID = 1L;
    static final int MAX_STEPS_OUT = 32;
    static final int MAX_DOUBLINGS = 12;

    /** How the interval around the current point is found. */
    public enum Method {
        /** Neal's stepping-out procedure. */
        STEPPING_OUT,
        /** Neal's doubling procedure, with its acceptance check during shrinkage. */
        DOUBLING
    }

    /** A chain's slice widths w_i and what adapts them: Σ|Δx_i| and n over the warm-up updates. */
    public static final class Widths implements java.io.Serializable {
        private static final long serialVersionUID = 1L;
        private final double[] width;
        private final double[] travelled;
        private double updates;

        Widths(double[] width, double[] travelled, double updates) {
            this.width = width;
            this.travelled = travelled;
            this.updates = updates;
        }

        /** The current width of coordinate i. */
        public double width(int i) {
            return width[i];
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Widths w && java.util.Arrays.equals(width, w.width)
                    && java.util.Arrays.equals(travelled, w.travelled) && Double.compare(updates, w.updates) == 0;
        }

        @Override
        public int hashCode() {
            return java.util.Arrays.hashCode(width);
        }
    }

    private static final StateCodec<Widths> CODEC = new StateCodec<>() {
        private static final long serialVersionUID = 1L;

        @Override
        public double[] encode(Widths w) {
            return Packed.writer().put(w.width).put(w.travelled).put(w.updates).toArray();
        }

        @Override
        public Widths decode(double[] data, int dimension) {
            Packed in = Packed.reader(data);
            Widths w = new Widths(in.next(dimension), in.next(dimension), in.next());
            in.end();
            return w;
        }
    };

    private final Method method;
    private final double initialWidth;
    private final boolean adapt;
    private final boolean checkDoubling;

    private SliceSampler(Method method, double initialWidth, boolean adapt, boolean checkDoubling) {
        this.method = method;
        this.initialWidth = initialWidth;
        this.adapt = adapt;
        this.checkDoubling = checkDoubling;
    }

    /**
     * @param initialWidth the initial interval width w of every coordinate (&gt; 0)
     * @param adapt        adapt the widths during warm-up
     */
    public static SliceSampler of(Method method, double initialWidth, boolean adapt) {
        if (!(initialWidth > 0) || Double.isInfinite(initialWidth)) {
            throw new IllegalArgumentException("slice width must be positive and finite, is " + initialWidth);
        }
        return new SliceSampler(method, initialWidth, adapt, true);
    }

    /**
     * A deliberately wrong doubling sampler that skips Neal's acceptance check: it does not leave the target
     * invariant. For tests that must be able to fail.
     */
    static SliceSampler doublingWithoutAcceptanceCheck(double width) {
        return new SliceSampler(Method.DOUBLING, width, false, false);
    }

    @Override
    public Widths initialState(int dimension) {
        double[] w = new double[dimension];
        java.util.Arrays.fill(w, initialWidth);
        return new Widths(w, new double[dimension], 0);
    }

    @Override
    public StateCodec<Widths> codec() {
        return CODEC;
    }

    /** The current width of coordinate i. */
    public static double width(ChainState state, int i) {
        return ((Widths) state.kernelState()).width(i);
    }

    @Override
    public Transition step(Target target, ChainState state, Widths widths, Rng rng, boolean warmup) {
        double[] x = state.position().clone();
        double[] w = widths.width;
        double[] travelled = widths.travelled;
        int d = x.length;
        double logDensity = state.logDensity();
        for (int i = 0; i < d; i++) {
            double x0 = x[i];
            Line f = new Line(target, x, i);
            double[] result = method == Method.STEPPING_OUT
                    ? steppingOut(f, x0, logDensity, w[i], rng)
                    : doubling(f, x0, logDensity, w[i], rng, checkDoubling);
            x[i] = result[0];
            logDensity = result[1];
            if (warmup && adapt) {
                travelled[i] += Math.abs(x[i] - x0);
            }
        }
        state.moveTo(x, logDensity);
        if (warmup && adapt) {
            double n = ++widths.updates;
            for (int i = 0; i < d; i++) {
                double wi = 2 * travelled[i] / n;
                if (wi > 0 && Double.isFinite(wi)) {
                    w[i] = wi;
                }
            }
        }
        return Transition.GIBBS;
    }

    /** log p along coordinate i of x, the other coordinates fixed. */
    static final class Line {
        private final Target target;
        private final double[] x;
        private final int i;

        Line(Target target, double[] x, int i) {
            this.target = target;
            this.x = x;
            this.i = i;
        }

        double at(double v) {
            double old = x[i];
            x[i] = v;
            double lp = target.logDensity(x);
            x[i] = old;
            return Double.isNaN(lp) ? Double.NEGATIVE_INFINITY : lp;
        }
    }

    /** Stepping out then shrinkage; returns {new value, its log density}. */
    static double[] steppingOut(Line f, double x0, double logDensity0, double w, Rng rng) {
        double logY = logDensity0 - exponential(rng);
        double left = x0 - w * rng.uniform();
        double right = left + w;
        int j = (int) Math.floor(MAX_STEPS_OUT * rng.uniform());
        int k = MAX_STEPS_OUT - 1 - j;
        while (j > 0 && logY < f.at(left)) {
            left -= w;
            j--;
        }
        while (k > 0 && logY < f.at(right)) {
            right += w;
            k--;
        }
        return shrink(f, x0, logY, left, right, w, rng, false);
    }

    /** Doubling then shrinkage with (optionally) the acceptance check; returns {new value, its log density}. */
    static double[] doubling(Line f, double x0, double logDensity0, double w, Rng rng, boolean check) {
        double logY = logDensity0 - exponential(rng);
        double left = x0 - w * rng.uniform();
        double right = left + w;
        double fLeft = f.at(left);
        double fRight = f.at(right);
        for (int k = MAX_DOUBLINGS; k > 0 && (logY < fLeft || logY < fRight); k--) {
            if (rng.uniform() < 0.5) {
                left -= right - left;
                fLeft = f.at(left);
            } else {
                right += right - left;
                fRight = f.at(right);
            }
        }
        return shrink(f, x0, logY, left, right, w, rng, check);
    }

    private static double[] shrink(Line f, double x0, double logY, double left, double right, double w, Rng rng,
            boolean check) {
        double lo = left;
        double hi = right;
        while (true) {
            double x1 = lo + rng.uniform() * (hi - lo);
            double fx1 = f.at(x1);
            if (logY < fx1 && (!check || acceptable(f, x0, x1, logY, left, right, w))) {
                return new double[] {x1, fx1};
            }
            if (x1 < x0) {
                lo = x1;
            } else {
                hi = x1;
            }
            if (hi - lo < 1e-300 * Math.max(1, Math.abs(x0))) {
                // Shrunk onto x0 (the slice around x0 is numerically a point): stay.
                return new double[] {x0, f.at(x0)};
            }
        }
    }

    /**
     * Neal's Fig. 6: could the doubling procedure have produced the same interval from x1? If not, x1 must be
     * rejected (and the interval shrunk) for the update to be reversible.
     */
    static boolean acceptable(Line f, double x0, double x1, double logY, double left, double right, double w) {
        double lo = left;
        double hi = right;
        boolean differ = false;
        while (hi - lo > 1.1 * w) {
            double mid = 0.5 * (lo + hi);
            if ((x0 < mid && x1 >= mid) || (x0 >= mid && x1 < mid)) {
                differ = true;
            }
            if (x1 < mid) {
                hi = mid;
            } else {
                lo = mid;
            }
            if (differ && logY >= f.at(lo) && logY >= f.at(hi)) {
                return false;
            }
        }
        return true;
    }

    private static double exponential(Rng rng) {
        return -Math.log(1 - rng.uniform());
    }
}
