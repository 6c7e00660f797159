package org.sparkmc.core.consensus;

import org.sparkmc.core.model.Matrices;
import org.sparkmc.core.random.Rng;

/** Exact multivariate normal draws and the check of draws against a known normal distribution. */
final class GaussianDraws {
    private GaussianDraws() {
    }

    /** n independent draws of N(mean, cov), cov row-major. */
    static double[][] draw(double[] mean, double[] cov, int n, Rng rng) {
        int d = mean.length;
        double[] l = Matrices.cholesky(cov, d);
        double[] z = new double[d];
        double[][] out = new double[n][d];
        for (int t = 0; t < n; t++) {
            for (int j = 0; j < d; j++) {
                z[j] = rng.normal();
            }
            Matrices.lowerTimes(l, d, z, out[t]);
            for (int j = 0; j < d; j++) {
                out[t][j] += mean[j];
            }
        }
        return out;
    }

    /**
     * How far draws are from N(mean, cov), in the coordinates w = L⁻¹(x − mean) (cov = LLᵀ) where the exact answer
     * is N(0, I): the largest |w̄_j|·√n, and the largest |Ĉ_jk − δ_jk|/√(2/n) of their sample covariance Ĉ. For n
     * independent exact draws both are (up to the maximum) about |N(0, 1)| or less.
     *
     * @param n the (effective) number of independent draws
     */
    static double[] standardisedErrors(double[][] draws, double[] mean, double[] cov, double n) {
        int d = mean.length;
        double[] l = Matrices.cholesky(cov, d);
        double[][] w = new double[draws.length][];
        for (int t = 0; t < draws.length; t++) {
            w[t] = new double[d];
            for (int j = 0; j < d; j++) {
                w[t][j] = draws[t][j] - mean[j];
            }
            Matrices.forwardSolve(l, d, w[t]);
        }
        double[] m = ShardDraws.mean(w, d);
        double[] c = ShardDraws.covariance(w, m, d);
        double meanError = 0;
        double covError = 0;
        for (int j = 0; j < d; j++) {
            meanError = Math.max(meanError, Math.abs(m[j]) * Math.sqrt(n));
            for (int k = 0; k < d; k++) {
                covError = Math.max(covError, Math.abs(c[j * d + k] - (j == k ? 1 : 0)) / Math.sqrt(2 / n));
            }
        }
        return new double[] {meanError, covError};
    }
}
