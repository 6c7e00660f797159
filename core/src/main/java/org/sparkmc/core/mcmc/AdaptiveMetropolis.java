package org.sparkmc.core.mcmc;

import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.Rng;

/**
 * Adaptive Metropolis (Haario, Saksman &amp; Tamminen 2001, Bernoulli 7(2)): a Gaussian random walk
 * x' = x + λ·(2.38/√d)·L·z, z ~ N(0, I), whose covariance L·Lᵀ = Σ̂ + εI is the running covariance of the chain's
 * own warm-up positions, scaled by Roberts &amp; Rosenthal's (2001) 2.38²/d, optimal for Gaussian-like targets.
 *
 * <p>For the first {@code t0 = max(100, 10·d)} warm-up iterations L is {@code initialScale}·I. A global factor λ
 * is also adapted by a Robbins–Monro step γ_t(accepted − a*) on log λ, γ_t = t^−0.6 (Andrieu &amp; Thoms 2008,
 * Algorithm 4), toward a* (0.44 in 1-d, 0.234 otherwise); λ restarts at 1 when the empirical covariance takes over.
 * Both Σ̂ and λ change only in warm-up (L is refreshed every 10 warm-up iterations) and are frozen after, so the kept
 * draws come from one fixed random-walk Metropolis kernel. The state lives in {@link ChainState#tuning()}:
 * [log λ, covariance region of {@link CovarianceAdaptation}].
 */
public final class AdaptiveMetropolis implements Kernel {
    private static final long serialVersionUID = 1L;
    private static final int REFRESH_EVERY = 10;

    private final double initialScale;
    private final boolean adapt;
    private final double targetAcceptance;

    private AdaptiveMetropolis(double initialScale, boolean adapt, double targetAcceptance) {
        this.initialScale = initialScale;
        this.adapt = adapt;
        this.targetAcceptance = targetAcceptance;
    }

    /**
     * @param initialScale     sd of each coordinate's step before the empirical covariance is used (&gt; 0)
     * @param adapt            adapt during warm-up; false keeps the initial isotropic random walk
     * @param targetAcceptance the rate λ aims at; NaN picks 0.44 in 1-d and 0.234 otherwise
     */
    public static AdaptiveMetropolis of(double initialScale, boolean adapt, double targetAcceptance) {
        if (!(initialScale > 0) || Double.isInfinite(initialScale)) {
            throw new IllegalArgumentException("initial scale must be positive and finite, is " + initialScale);
        }
        return new AdaptiveMetropolis(initialScale, adapt, ScaleAdaptation.checkTarget(targetAcceptance));
    }

    static int warmStart(int d) {
        return Math.max(100, 10 * d);
    }

    @Override
    public double[] initialTuning(int dimension) {
        double[] t = new double[1 + CovarianceAdaptation.size(dimension)];
        CovarianceAdaptation.initialise(t, 1, dimension, initialScale);
        return t;
    }

    /** The proposal covariance a chain uses now (λ²·2.38²/d·L·Lᵀ, or λ²·s²·I before the switch), row-major. */
    public static double[] proposalCovariance(ChainState state) {
        double[] t = state.tuning();
        int d = state.position().length;
        double factor = Math.exp(t[0]) * (usesEmpirical(t, d) ? 2.38 / Math.sqrt(d) : 1);
        int l = CovarianceAdaptation.choleskyOffset(1, d);
        double[] cov = new double[d * d];
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                double s = 0;
                for (int k = 0; k <= Math.min(i, j); k++) {
                    s += t[l + i * d + k] * t[l + j * d + k];
                }
                cov[i * d + j] = factor * factor * s;
            }
        }
        return cov;
    }

    private static boolean usesEmpirical(double[] tuning, int d) {
        return CovarianceAdaptation.count(tuning, 1) >= warmStart(d);
    }

    @Override
    public boolean step(Target target, ChainState state, Rng rng, boolean warmup) {
        double[] t = state.tuning();
        double[] x = state.position();
        int d = x.length;
        boolean empirical = usesEmpirical(t, d);
        double factor = Math.exp(t[0]) * (empirical ? 2.38 / Math.sqrt(d) : 1);
        double[] z = new double[d];
        for (int i = 0; i < d; i++) {
            z[i] = rng.normal();
        }
        double[] step = new double[d];
        CovarianceAdaptation.choleskyTimes(t, 1, d, z, step);
        double[] proposed = new double[d];
        for (int i = 0; i < d; i++) {
            proposed[i] = x[i] + factor * step[i];
        }
        double logDensity = target.logDensity(proposed);
        double logAccept = logDensity - state.logDensity();
        boolean accepted = !Double.isNaN(logAccept) && Math.log(rng.uniform()) < logAccept;
        if (accepted) {
            state.moveTo(proposed, logDensity);
        }
        if (warmup && adapt) {
            t[0] += ScaleAdaptation.logScaleStep(state, accepted, targetAcceptance, d);
            CovarianceAdaptation.update(t, 1, state.position());
            double n = CovarianceAdaptation.count(t, 1);
            if (n >= warmStart(d) && ((long) n - warmStart(d)) % REFRESH_EVERY == 0) {
                CovarianceAdaptation.refresh(t, 1, d);
                if (!empirical) {
                    t[0] = 0;
                }
            }
        }
        return accepted;
    }
}
