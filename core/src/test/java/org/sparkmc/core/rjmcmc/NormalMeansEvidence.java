package org.sparkmc.core.rjmcmc;

/**
 * The exact posterior over K of the reversible-jump tests' normal-means models, in closed form and by enumeration,
 * independent of the models' own code: y_i ~ (1/K) Σ_k N(c_k, σ²) with centres c_k ~ N(m₀, ν) independently.
 * Summing over the Kⁿ allocations of the points to the centres, p(y | K) = K⁻ⁿ Σ_z ∏_k m(y_{z = k}), where a group's
 * marginal m is the normal N(m₀·1, σ²I + ν·11ᵀ) (the determinant lemma and Sherman–Morrison give its log in terms of
 * the group's size, sum and sum of squares; an empty group contributes 1).
 */
final class NormalMeansEvidence {
    private NormalMeansEvidence() {
    }

    /** p(K | y) for K = 1..logPriorK.length, from log p(K) (unnormalised) and σ², m₀, ν. */
    static double[] posterior(double[] y, double[] logPriorK, double sigma2, double m0, double nu) {
        double[] log = new double[logPriorK.length];
        double max = Double.NEGATIVE_INFINITY;
        for (int k = 1; k <= log.length; k++) {
            log[k - 1] = logPriorK[k - 1] + logEvidence(y, k, sigma2, m0, nu);
            max = Math.max(max, log[k - 1]);
        }
        double sum = 0;
        for (int k = 0; k < log.length; k++) {
            log[k] = Math.exp(log[k] - max);
            sum += log[k];
        }
        for (int k = 0; k < log.length; k++) {
            log[k] /= sum;
        }
        return log;
    }

    /** log p(y | K), by enumerating the Kⁿ allocations. */
    static double logEvidence(double[] y, int k, double sigma2, double m0, double nu) {
        Groups groups = new Groups(k, sigma2, m0, nu);
        groups.allocate(y, 0);
        return groups.logSum - y.length * Math.log(k);
    }

    /** The running sizes, sums and sums of squares of K groups, and the log-sum over complete allocations. */
    private static final class Groups {
        final int[] size;
        final double[] sum;
        final double[] squares;
        final double sigma2;
        final double m0;
        final double nu;
        double logSum = Double.NEGATIVE_INFINITY;

        Groups(int k, double sigma2, double m0, double nu) {
            size = new int[k];
            sum = new double[k];
            squares = new double[k];
            this.sigma2 = sigma2;
            this.m0 = m0;
            this.nu = nu;
        }

        void allocate(double[] y, int i) {
            if (i == y.length) {
                double log = 0;
                for (int g = 0; g < size.length; g++) {
                    log += logMarginal(size[g], sum[g], squares[g]);
                }
                double max = Math.max(logSum, log);
                logSum = max + Math.log(Math.exp(logSum - max) + Math.exp(log - max));
                return;
            }
            double d = y[i] - m0;
            for (int g = 0; g < size.length; g++) {
                size[g]++;
                sum[g] += d;
                squares[g] += d * d;
                allocate(y, i + 1);
                size[g]--;
                sum[g] -= d;
                squares[g] -= d * d;
            }
        }

        /** log N(y_g; m₀·1, σ²I + ν·11ᵀ) from n, Σ(y − m₀) and Σ(y − m₀)². */
        double logMarginal(int n, double s, double ss) {
            if (n == 0) {
                return 0;
            }
            return -0.5 * n * Math.log(2 * Math.PI * sigma2) - 0.5 * Math.log1p(n * nu / sigma2)
                    - (ss - nu * s * s / (sigma2 + n * nu)) / (2 * sigma2);
        }
    }
}
