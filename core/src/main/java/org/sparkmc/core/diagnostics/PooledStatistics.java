package org.sparkmc.core.diagnostics;

/**
 * Plain summaries of all draws pooled across chains, as R computes them: the mean, the standard deviation (n − 1
 * denominator), quantiles of R's default type 7 (posterior's {@code quantile2}: with h = 1 + (S−1)p, linear
 * interpolation between the order statistics around h), the median and the MAD. NaN draws give NaN. Draws beyond
 * 2^±200 in magnitude are summarised as the summaries do ({@link FullParameterSummary#of}): scaled by a power of two
 * and scaled back, exactly, so that their squares neither overflow nor underflow.
 */
public final class PooledStatistics {
    /** R's {@code mad} constant 1/Φ⁻¹(3/4) rounded as R writes it. */
    private static final double MAD_CONSTANT = 1.4826;

    private PooledStatistics() {
    }

    /** Mean of all draws. */
    public static double mean(double[][] draws) {
        return Draws.statisticAtSafeScale(draws, Draws::mean, Draws.LINEAR);
    }

    /** Standard deviation of all draws (n − 1 denominator); NaN for a single draw. */
    public static double sd(double[][] draws) {
        return Draws.statisticAtSafeScale(draws, d -> Math.sqrt(Draws.variance(d)), Draws.LINEAR);
    }

    /**
     * Type-7 quantile of all draws.
     *
     * @throws IllegalArgumentException if p is outside [0, 1]
     */
    public static double quantile(double[][] draws, double p) {
        Draws.validateProbability(p);
        return Draws.statisticAtSafeScale(draws, d -> PooledDraws.of(d).quantile(p), Draws.LINEAR);
    }

    /** Type-7 quantiles of all draws at several probabilities, sorting once. */
    public static double[] quantiles(double[][] draws, double... p) {
        Draws.validate(draws);
        return Draws.atSafeScale(draws, d -> {
            PooledDraws pooled = PooledDraws.of(d);
            double[] out = new double[p.length];
            for (int i = 0; i < p.length; i++) {
                out[i] = pooled.quantile(p[i]);
            }
            return out;
        }, (scaled, exponent, own) -> java.util.Arrays.stream(scaled).map(q -> Math.scalb(q, exponent)).toArray());
    }

    /** Median of all draws (R's {@code median}). */
    public static double median(double[][] draws) {
        return Draws.statisticAtSafeScale(draws, d -> PooledDraws.of(d).median(), Draws.LINEAR);
    }

    /** Median absolute deviation about the median times 1.4826 (R's {@code mad}, posterior's summary column). */
    public static double mad(double[][] draws) {
        return Draws.statisticAtSafeScale(draws, d -> mad(PooledDraws.of(d)), Draws.LINEAR);
    }

    static double mad(PooledDraws pooled) {
        double median = pooled.median();
        if (Double.isNaN(median)) {
            return Double.NaN;
        }
        if (Double.isInfinite(median)) {
            return Double.NaN; // every deviation of the infinite draws is NaN, and R's median of them is NA
        }
        // the deviations in ascending order, without sorting them, up to the middle one (or two)
        int n = pooled.size;
        int last = n / 2; // 0-based index of the upper middle deviation
        double[] middle = new double[2]; // the deviations at indices last − 1 and last
        int[] k = {0};
        pooled.inFoldedOrder(median, j -> {
            middle[0] = middle[1];
            middle[1] = Math.abs(pooled.sorted[j] - median);
            return k[0]++ < last;
        });
        return MAD_CONSTANT * (n % 2 == 1 ? middle[1] : (middle[0] + middle[1]) / 2.0);
    }
}
