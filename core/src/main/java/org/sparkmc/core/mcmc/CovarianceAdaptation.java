package org.sparkmc.core.mcmc;

import org.sparkmc.core.model.Matrices;

/**
 * The running mean and covariance of a chain's warm-up positions (Welford's update) and the Cholesky factor of the
 * regularised covariance Σ̂ + εI, kept in a region of {@link ChainState#tuning()} so they survive rounds and
 * shipping. Used by adaptive Metropolis (Haario, Saksman &amp; Tamminen 2001) and the covariance-aligned slice
 * sampler.
 *
 * <p>Layout from {@code offset}: [n, mean (d), M2 (d·d, sum of outer products of deviations), L (d·d, row-major
 * lower Cholesky factor)]: {@link #size(int)} = 1 + d + 2d² numbers. Before the first refresh L is
 * {@code initialScale}·I.
 */
final class CovarianceAdaptation {
    private CovarianceAdaptation() {
    }

    static int size(int d) {
        return 1 + d + 2 * d * d;
    }

    /** Writes the initial region (n = 0, L = initialScale·I) into {@code tuning} at {@code offset}. */
    static void initialise(double[] tuning, int offset, int d, double initialScale) {
        int l = choleskyOffset(offset, d);
        for (int i = 0; i < d; i++) {
            tuning[l + i * d + i] = initialScale;
        }
    }

    static double count(double[] tuning, int offset) {
        return tuning[offset];
    }

    static int choleskyOffset(int offset, int d) {
        return offset + 1 + d + d * d;
    }

    /** Adds a position to the running mean and sum of squared deviations (Welford 1962). */
    static void update(double[] tuning, int offset, double[] x) {
        int d = x.length;
        double n = tuning[offset] + 1;
        tuning[offset] = n;
        int mean = offset + 1;
        int m2 = mean + d;
        double[] delta = new double[d];
        for (int i = 0; i < d; i++) {
            delta[i] = x[i] - tuning[mean + i];
            tuning[mean + i] += delta[i] / n;
        }
        for (int i = 0; i < d; i++) {
            double after = x[i] - tuning[mean + i];
            for (int j = 0; j < d; j++) {
                tuning[m2 + i * d + j] += delta[j] * after;
            }
        }
    }

    /**
     * Replaces L by the Cholesky factor of Σ̂ + εI, Σ̂ = M2/(n − 1), ε = 1e-6·(mean diagonal of Σ̂) + 1e-12 (Haario
     * et al.'s εI keeps the proposal non-degenerate); leaves L unchanged if that fails or n &lt; 2.
     */
    static void refresh(double[] tuning, int offset, int d) {
        double n = tuning[offset];
        if (n < 2) {
            return;
        }
        int m2 = offset + 1 + d;
        double[] cov = new double[d * d];
        double trace = 0;
        for (int i = 0; i < d * d; i++) {
            cov[i] = tuning[m2 + i] / (n - 1);
        }
        for (int i = 0; i < d; i++) {
            cov[i * d + i] = 0.5 * (cov[i * d + i] + cov[i * d + i]);
            trace += cov[i * d + i];
        }
        double eps = 1e-6 * trace / d + 1e-12;
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < i; j++) {
                double sym = 0.5 * (cov[i * d + j] + cov[j * d + i]);
                cov[i * d + j] = sym;
                cov[j * d + i] = sym;
            }
            cov[i * d + i] += eps;
        }
        double[] l = new double[d * d];
        if (Matrices.tryCholesky(cov, d, l)) {
            System.arraycopy(l, 0, tuning, choleskyOffset(offset, d), d * d);
        }
    }

    /** out = L·z with L the region's current Cholesky factor. */
    static void choleskyTimes(double[] tuning, int offset, int d, double[] z, double[] out) {
        int l = choleskyOffset(offset, d);
        for (int i = 0; i < d; i++) {
            double s = 0;
            for (int k = 0; k <= i; k++) {
                s += tuning[l + i * d + k] * z[k];
            }
            out[i] = s;
        }
    }

    /** Column j of L (a direction for the covariance-aligned slice sampler). */
    static void choleskyColumn(double[] tuning, int offset, int d, int j, double[] out) {
        int l = choleskyOffset(offset, d);
        for (int i = 0; i < d; i++) {
            out[i] = i >= j ? tuning[l + i * d + j] : 0;
        }
    }
}
