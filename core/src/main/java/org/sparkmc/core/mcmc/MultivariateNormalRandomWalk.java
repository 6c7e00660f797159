package org.sparkmc.core.mcmc;

import org.sparkmc.core.model.Matrices;
import org.sparkmc.core.random.Rng;

/**
 * The symmetric random-walk proposal x' = x + s·L·z, z ~ N(0, I), i.e. N(x, s²·Σ) with Σ = L·Lᵀ fixed (Hastings
 * ratio 1). With Σ = 2.38²/d · H⁻¹, H the negative Hessian of the log posterior at its mode, and s = 1, it is the
 * lectures' proposal for Bayesian logistic regression (Roberts, Gelman &amp; Gilks 1997 scaling).
 */
public final class MultivariateNormalRandomWalk implements Proposal {
    private static final long serialVersionUID = 1L;

    private final double[] cholesky;
    private final int d;

    private MultivariateNormalRandomWalk(double[] cholesky, int d) {
        this.cholesky = cholesky;
        this.d = d;
    }

    /** @param covariance Σ, row-major d × d, symmetric positive definite */
    public static MultivariateNormalRandomWalk of(double[] covariance, int d) {
        if (covariance.length != d * d) {
            throw new IllegalArgumentException("covariance must be " + d + "×" + d + ", has " + covariance.length
                    + " entries");
        }
        return new MultivariateNormalRandomWalk(Matrices.cholesky(covariance, d), d);
    }

    @Override
    public double propose(double[] from, double[] to, double scale, Rng rng) {
        double[] step = correlatedNormal(cholesky, d, from.length, rng);
        for (int i = 0; i < d; i++) {
            to[i] = from[i] + scale * step[i];
        }
        return 0;
    }

    /** L·z with z standard normal, for a proposal of dimension d asked to move a position of {@code length}. */
    static double[] correlatedNormal(double[] cholesky, int d, int length, Rng rng) {
        if (length != d) {
            throw new IllegalArgumentException("proposal is " + d + "-dimensional, position has " + length);
        }
        double[] z = new double[d];
        for (int i = 0; i < d; i++) {
            z[i] = rng.normal();
        }
        double[] step = new double[d];
        Matrices.lowerTimes(cholesky, d, z, step);
        return step;
    }
}
