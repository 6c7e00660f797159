package org.sparkmc.core.smc;

/**
 * Sequential importance sampling arithmetic on log-weights: the incremental update log r_n = log r_{n−1} +
 * log α_n, log-sum-exp, normalised weights W^i = r^i / Σ_j r^j and the effective sample size 1 / Σ (W^i)²
 * (Kong, Liu &amp; Wong 1994). All on plain arrays, for callers that do not need blocks.
 */
public final class LogWeights {
    private LogWeights() {
    }

    /** log r_n^i = log r_{n−1}^i + log α_n^i for every i, in place. */
    public static void update(double[] logWeights, double[] logIncrements) {
        if (logWeights.length != logIncrements.length) {
            throw new IllegalArgumentException("log-weights and increments differ in length: "
                    + logWeights.length + " vs " + logIncrements.length);
        }
        for (int i = 0; i < logWeights.length; i++) {
            logWeights[i] += logIncrements[i];
        }
    }

    /** log Σ exp(v_i) without overflow; −∞ when every v_i is −∞ or the array is empty. */
    public static double logSumExp(double[] v) {
        return logSumExp(v, v.length);
    }

    /** log Σ exp(v_i) over the first n values, without overflow; −∞ when each is −∞ or n = 0; NaN or +∞ throw. */
    public static double logSumExp(double[] v, int n) {
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            if (Double.isNaN(v[i])) {
                throw new IllegalArgumentException("NaN log-weight");
            }
            max = Math.max(max, v[i]);
        }
        if (max == Double.NEGATIVE_INFINITY) {
            return max;
        }
        if (max == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("+∞ log-weight");
        }
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += Math.exp(v[i] - max);
        }
        return max + Math.log(sum);
    }

    /**
     * The normalised weights W^i = exp(v_i − logSumExp(v)).
     *
     * @throws IllegalArgumentException if there are none, every one is −∞, or one is NaN or +∞
     */
    public static double[] normalise(double[] logWeights) {
        if (logWeights.length == 0) {
            throw new IllegalArgumentException("no log-weights: an empty array cannot be normalised");
        }
        double lse = logSumExp(logWeights);
        if (lse == Double.NEGATIVE_INFINITY) {
            throw new IllegalArgumentException("every log-weight is −∞: the weights cannot be normalised");
        }
        double[] w = new double[logWeights.length];
        for (int i = 0; i < w.length; i++) {
            w[i] = Math.exp(logWeights[i] - lse);
        }
        return w;
    }

    /**
     * ESS = (Σ r^i)² / Σ (r^i)² = 1 / Σ (W^i)², from unnormalised log-weights.
     *
     * @throws IllegalArgumentException as {@link #normalise}: for no log-weights, or ones that normalise to nothing
     */
    public static double effectiveSampleSize(double[] logWeights) {
        double[] w = normalise(logWeights);
        double sumSq = 0;
        for (double x : w) {
            sumSq += x * x;
        }
        return 1 / sumSq;
    }
}
