package org.sparkmc.core.model;

import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.random.Rng;

/**
 * A target's Laplace approximation found numerically: damped Newton ascent from a starting point, with the target's
 * own gradient and Hessian where it gives them ({@link SecondOrderTarget}, such as a GLM shard) and central finite
 * differences otherwise. The view samples the wrapped
 * target's density on its unconstrained scale and reports the position itself (names {@code x[1..d]}); it exists so
 * that the kernels that need a Laplace approximation ({@code laplace-rwm}, {@code independence}) and a sensible
 * starting point can run on any smooth, unimodal-enough target (a shard of a GLM).
 *
 * <p>Cost: each Newton step takes one pass of the target's own derivatives, or 2d² + 1 densities by finite
 * differences (d the dimension); a few steps usually suffice from
 * a start within a few posterior sds' worth of curvature of the mode, and the steps are halved until the density
 * increases, so a far start costs more steps, not a wrong answer. The approximation only shapes proposals and
 * starting points: the kernels' Metropolis–Hastings corrections keep the draws exact whatever its error.
 *
 * <p>Starting points ({@link #initialPosition}) are overdispersed: mode + 2·L·z with L the Cholesky factor of the
 * approximate covariance and z standard normal, so that R-hat can see chains that have not forgotten their start.
 */
public final class NumericalLaplace implements LaplaceApproximation.Source {
    private static final long serialVersionUID = 1L;
    private static final int MAX_STEPS = 100;
    /** Relative finite-difference step (times max(1, |x_j|)). */
    private static final double STEP = 1e-4;
    /** Stop when the Newton decrement gᵀH⁻¹g / 2, the predicted gain in log density, falls below this. */
    private static final double TOLERANCE = 1e-8;
    private static final double OVERDISPERSION = 2;

    private final Target target;
    private final LaplaceApproximation laplace;

    private NumericalLaplace(Target target, LaplaceApproximation laplace) {
        this.target = target;
        this.laplace = laplace;
    }

    /**
     * Finds the mode of {@code target} from {@code start} and the negative Hessian there.
     *
     * @throws InvalidInputException when the density is not finite at the start or has no maximum the steps can
     *     reach (a Hessian that is not negative definite at the end)
     */
    public static NumericalLaplace of(Target target, double[] start) {
        int d = target.dimension();
        if (start.length != d) {
            throw new IllegalArgumentException(start.length + " starting values for dimension " + d);
        }
        double[] x = start.clone();
        double fx = target.logDensity(x);
        if (!Double.isFinite(fx)) {
            throw new InvalidInputException("the log density is " + fx + " at the Laplace approximation's start");
        }
        double[] g = new double[d];
        double[] h = new double[d * d];
        double[] l = new double[d * d];
        for (int step = 0; step < MAX_STEPS; step++) {
            derivatives(target, x, fx, g, h);
            double[] ridged = h.clone();
            double ridge = 0;
            while (!Matrices.tryCholesky(ridged, d, l)) {
                // not concave here: Levenberg–Marquardt's ridge until the step is an ascent direction
                ridge = ridge == 0 ? 1e-6 * (1 + maxDiagonal(h, d)) : ridge * 10;
                if (!Double.isFinite(ridge)) {
                    throw new InvalidInputException("no mode found: the log density's curvature is not finite");
                }
                for (int j = 0; j < d; j++) {
                    ridged[j * d + j] = h[j * d + j] + ridge;
                }
            }
            double[] direction = Matrices.solve(l, d, g);
            double decrement = 0;
            for (int j = 0; j < d; j++) {
                decrement += g[j] * direction[j];
            }
            if (ridge == 0 && decrement / 2 < TOLERANCE) {
                break;
            }
            double alpha = 1;
            double[] next = new double[d];
            double fNext = Double.NEGATIVE_INFINITY;
            for (int halvings = 0; halvings < 60; halvings++, alpha /= 2) {
                for (int j = 0; j < d; j++) {
                    next[j] = x[j] + alpha * direction[j];
                }
                fNext = target.logDensity(next);
                if (fNext >= fx) {
                    break;
                }
            }
            if (!(fNext >= fx)) {
                break; // no ascent left at the finite differences' resolution: x is the mode as far as they can tell
            }
            boolean tiny = fNext - fx < TOLERANCE && ridge == 0;
            x = next;
            fx = fNext;
            if (tiny) {
                break;
            }
        }
        derivatives(target, x, fx, g, h);
        if (!Matrices.tryCholesky(h, d, l)) {
            throw new InvalidInputException("no mode found: the log density's Hessian is not negative definite at the"
                    + " best point reached; the target may be improper or multimodal");
        }
        return new NumericalLaplace(target, LaplaceApproximation.of(x, h));
    }

    /** g = ∇f(x) and h = −∇²f(x): the target's own, else by central differences (f(x) = fx given). */
    private static void derivatives(Target target, double[] x, double fx, double[] g, double[] h) {
        if (target instanceof SecondOrderTarget second && second.derivatives(x, g, h)) {
            requireFinite(g, x);
            return;
        }
        int d = x.length;
        double[] step = new double[d];
        double[] plus = new double[d];
        double[] minus = new double[d];
        double[] y = x.clone();
        for (int i = 0; i < d; i++) {
            step[i] = STEP * Math.max(1, Math.abs(x[i]));
            y[i] = x[i] + step[i];
            plus[i] = target.logDensity(y);
            y[i] = x[i] - step[i];
            minus[i] = target.logDensity(y);
            y[i] = x[i];
            g[i] = (plus[i] - minus[i]) / (2 * step[i]);
            h[i * d + i] = -(plus[i] - 2 * fx + minus[i]) / (step[i] * step[i]);
        }
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < i; j++) {
                double sum = 0;
                for (int si = -1; si <= 1; si += 2) {
                    for (int sj = -1; sj <= 1; sj += 2) {
                        y[i] = x[i] + si * step[i];
                        y[j] = x[j] + sj * step[j];
                        sum += si * sj * target.logDensity(y);
                    }
                }
                y[i] = x[i];
                y[j] = x[j];
                double v = -sum / (4 * step[i] * step[j]);
                h[i * d + j] = v;
                h[j * d + i] = v;
            }
        }
        requireFinite(g, x);
    }

    private static void requireFinite(double[] g, double[] x) {
        for (double v : g) {
            if (!Double.isFinite(v)) {
                throw new InvalidInputException("the log density is not finite near " + java.util.Arrays.toString(x)
                        + " (needed for its Laplace approximation)");
            }
        }
    }

    private static double maxDiagonal(double[] h, int d) {
        double m = 0;
        for (int j = 0; j < d; j++) {
            m = Math.max(m, Math.abs(h[j * d + j]));
        }
        return m;
    }

    @Override
    public LaplaceApproximation laplace() {
        return laplace;
    }

    @Override
    public int dimension() {
        return target.dimension();
    }

    @Override
    public double logDensity(double[] position) {
        return target.logDensity(position);
    }

    /** mode + 2·L·z, z standard normal: overdispersed relative to the approximation. */
    @Override
    public double[] initialPosition(Rng rng) {
        int d = dimension();
        double[] z = new double[d];
        for (int j = 0; j < d; j++) {
            z[j] = rng.normal();
        }
        double[] lz = new double[d];
        Matrices.lowerTimes(laplace.choleskyCov(), d, z, lz);
        double[] x = laplace.mode().clone();
        for (int j = 0; j < d; j++) {
            x[j] += OVERDISPERSION * lz[j];
        }
        return x;
    }
}
