package org.sparkmc.core.importance;

/** ln Σ exp(a_i), computed stably by factoring out the largest term. */
public final class LogSumExp {
    private LogSumExp() {
    }

    /** ln Σ exp(a_i); −∞ for an empty array or when every a_i is −∞; NaN if any a_i is NaN. */
    public static double of(double[] a) {
        double max = Double.NEGATIVE_INFINITY;
        for (double x : a) {
            if (Double.isNaN(x)) {
                return Double.NaN;
            }
            max = Math.max(max, x);
        }
        if (max == Double.NEGATIVE_INFINITY || max == Double.POSITIVE_INFINITY) {
            return max;
        }
        double sum = 0;
        for (double x : a) {
            sum += Math.exp(x - max);
        }
        return max + Math.log(sum);
    }
}
