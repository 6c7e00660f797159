package org.sparkmc.core.model;

import java.io.Serializable;

/**
 * A Gaussian approximation N(mode, H⁻¹) of a posterior at its mode, with H the negative Hessian of the log density
 * there (Laplace's method; Tierney &amp; Kadane 1986). Matrices are row-major d × d.
 *
 * @param mode        the posterior mode
 * @param precision   H
 * @param covariance  H⁻¹
 * @param choleskyCov the lower Cholesky factor of H⁻¹
 */
public record LaplaceApproximation(double[] mode, double[] precision, double[] covariance, double[] choleskyCov)
        implements Serializable {

    /** Builds the approximation from the mode and H. */
    public static LaplaceApproximation of(double[] mode, double[] precision) {
        int d = mode.length;
        double[] cov = Matrices.inverse(Matrices.cholesky(precision, d), d);
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < i; j++) {
                double s = 0.5 * (cov[i * d + j] + cov[j * d + i]);
                cov[i * d + j] = s;
                cov[j * d + i] = s;
            }
        }
        return new LaplaceApproximation(mode.clone(), precision.clone(), cov, Matrices.cholesky(cov, d));
    }

    public int dimension() {
        return mode.length;
    }

    /** Marginal standard deviations sqrt(diag H⁻¹). */
    public double[] marginalSd() {
        int d = mode.length;
        double[] sd = new double[d];
        for (int i = 0; i < d; i++) {
            sd[i] = Math.sqrt(covariance[i * d + i]);
        }
        return sd;
    }

    /** A target that can give its Laplace approximation (for independence and preconditioned proposals). */
    public interface Source extends Target {
        LaplaceApproximation laplace();
    }
}
