package org.sparkmc.core.random;

/**
 * Draws an index from a finite distribution given by unnormalised weights (or log weights), by inversion of one
 * uniform: u·Σw minus the weights in order until it goes negative. A u that rounding carries past the sum returns the
 * last index of positive weight, never a zero-weight one.
 *
 * <p>Weights whose sum is not positive and finite (all zero, a NaN or infinite weight, a negative sum) are refused;
 * log weights all −∞, or one NaN or +∞, likewise. The weights are not checked one by one (the samplers draw from
 * here in their innermost loops and build the weights as exponentials): a negative weight with a positive sum is the
 * caller's error.
 */
public final class Categorical {
    private Categorical() {
    }

    /**
     * An index j &lt; k drawn with probability w_j / Σ_{i&lt;k} w_i, by inversion of u ∈ [0, 1).
     *
     * @throws IllegalArgumentException if the first k weights do not have a positive, finite sum
     */
    public static int draw(double[] weights, int k, double u) {
        double total = 0;
        for (int j = 0; j < k; j++) {
            total += weights[j];
        }
        if (!(total > 0 && total < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("the weights of indices 0 to " + (k - 1) + " must have a positive,"
                + " finite sum (a zero weight is never drawn, a NaN one never meant), they sum to " + total);
        }
        double target = u * total;
        for (int j = 0; j < k - 1; j++) {
            target -= weights[j];
            if (target < 0) {
                return j;
            }
        }
        int last = k - 1;
        while (last > 0 && weights[last] == 0) {
            last--;
        }
        return last;
    }

    /**
     * The first index j &lt; k whose cumulative weight exceeds {@code target}, by binary search in the non-decreasing
     * prefix sums {@code cumulative[0..k)}; k − 1 if none does. With target = u·cumulative[k−1] it draws j with
     * probability ∝ its weight, a zero weight never.
     */
    public static int firstAbove(double[] cumulative, int k, double target) {
        int lo = 0;
        int hi = k - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (cumulative[mid] > target) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    /**
     * An index j drawn with probability ∝ exp(logWeights[j]), exponentiated after subtracting the largest.
     *
     * @throws IllegalArgumentException if every log weight is −∞ (or there are none), or one is NaN or +∞
     */
    public static int drawLog(double[] logWeights, double u) {
        double max = Double.NEGATIVE_INFINITY;
        for (double v : logWeights) {
            max = Math.max(max, v); // NaN once any is NaN
        }
        if (!(max > Double.NEGATIVE_INFINITY && max < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException(max == Double.NEGATIVE_INFINITY
                ? "every log weight is -Infinity (of " + logWeights.length + "): no index can be drawn"
                : "a log weight is " + (Double.isNaN(max) ? "NaN" : "+Infinity") + ": no distribution to draw from");
        }
        double[] w = new double[logWeights.length];
        for (int j = 0; j < w.length; j++) {
            w[j] = Math.exp(logWeights[j] - max);
        }
        return draw(w, w.length, u);
    }
}
