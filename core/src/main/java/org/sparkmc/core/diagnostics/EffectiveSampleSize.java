package org.sparkmc.core.diagnostics;

/**
 * Effective sample sizes as R's {@code posterior} defines them (Vehtari, Gelman, Simpson, Carpenter and Bürkner
 * 2021, "Rank-normalization, folding, and localization: An improved R-hat for assessing convergence of MCMC",
 * <i>Bayesian Analysis</i> 16(2)).
 *
 * <p>The ESS of a quantity is the number of independent draws that would estimate it as precisely as the chains
 * do: MN/τ̂ with τ̂ the integrated autocorrelation time from the chains' autocovariances (summed lag by lag or
 * by FFT, see {@link Autocovariance}; for a quantile's 0/1 indicator counted from bits) truncated by Geyer's
 * initial positive and monotone sequences, τ̂ ≥ 1/log10(MN). The variants differ in which
 * transformed draws they feed to that estimator: raw draws ({@link #basic}, {@link #mean}), rank-normalised split
 * chains ({@link #bulk}), quantile indicators ({@link #quantile}, {@link #tail}, {@link #median}) or squared
 * deviations ({@link #sd}).
 *
 * <p>Returns NaN where posterior returns NA: fewer than 3 draws per (split) chain, constant draws, or non-finite
 * draws (for the rank-based {@link #bulk} only NaN draws, as in posterior), or an autocorrelation that is NaN.
 *
 * <p>Draws beyond 2^±200 in magnitude are measured as the summaries measure them ({@link FullParameterSummary#of}):
 * scaled by a power of two, which leaves the ESS alone and keeps their squares and fourth powers finite; tiny draws
 * keep posterior's verdict on the draws as given (a range below 2^−52 is constant).
 */
public final class EffectiveSampleSize {
    private EffectiveSampleSize() {
    }

    /** Basic ESS of the raw draws (posterior's {@code ess_basic}), on split chains when {@code split} is true. */
    public static double basic(double[][] draws, boolean split) {
        return Draws.statisticAtSafeScale(draws, d -> GeyerEss.ess(split ? Draws.split(d) : d), Draws.INVARIANT);
    }

    /** Bulk ESS: the ESS of the rank-normalised split chains (posterior's {@code ess_bulk}). */
    public static double bulk(double[][] draws) {
        return Draws.statisticAtSafeScale(draws, d -> bulk(PooledDraws.of(d)), Draws.INVARIANT);
    }

    static double bulk(PooledDraws pooled) {
        double[][] z = pooled.rankNormalizedSplit();
        return z == null ? Double.NaN : GeyerEss.essOfChecked(z);
    }

    /** Tail ESS: the smaller of the quantile ESS at 0.05 and at 0.95 (posterior's {@code ess_tail}). */
    public static double tail(double[][] draws) {
        return Draws.statisticAtSafeScale(draws, d -> tail(PooledDraws.of(d)), Draws.INVARIANT);
    }

    static double tail(PooledDraws pooled) {
        return Math.min(quantile(pooled, 0.05), quantile(pooled, 0.95));
    }

    /**
     * ESS for the p-quantile (posterior's {@code ess_quantile}): the ESS of the split chains of the indicator
     * {@code x <= q_p}, where q_p is the type-7 quantile of all draws; p = 1 is replaced by (S − 1/2)/S.
     *
     * @throws IllegalArgumentException if p is outside [0, 1]
     */
    public static double quantile(double[][] draws, double p) {
        Draws.validateProbability(p);
        return Draws.statisticAtSafeScale(draws, d -> quantile(PooledDraws.of(d), p), Draws.INVARIANT);
    }

    static double quantile(PooledDraws pooled, double p) {
        Draws.validateProbability(p);
        if (pooled.shouldReturnNaN()) {
            return Double.NaN;
        }
        double prob = p == 1.0 ? (pooled.size - 0.5) / pooled.size : p;
        double q = PooledDraws.quantileOfSorted(pooled.sorted, prob);
        return pooled.splitAllOnOneSide(q) ? Double.NaN : GeyerEss.essOfIndicator(pooled.draws, q);
    }

    /** ESS for the median: {@link #quantile} at 0.5 (posterior's {@code ess_median}). */
    public static double median(double[][] draws) {
        return quantile(draws, 0.5);
    }

    /** ESS for the mean: the basic ESS of the split chains (posterior's {@code ess_mean}). */
    public static double mean(double[][] draws) {
        return basic(draws, true);
    }

    /**
     * ESS for the standard deviation, as posterior ≥ 1.7 defines {@code ess_sd} and as the summaries use: the ESS
     * of the split chains of the squared deviations (x − mean(x))², mean over all draws.
     */
    public static double sd(double[][] draws) {
        return Draws.statisticAtSafeScale(draws, d -> sdOfSquared(Draws.squaredDeviations(d, Draws.mean(d))),
                Draws.INVARIANT);
    }

    /** {@link #sd} from the squared deviations from the pooled mean ({@link Draws#squaredDeviations}). */
    static double sdOfSquared(double[][] squared) {
        return GeyerEss.ess(Draws.split(squared));
    }

    /**
     * ESS for the standard deviation as posterior 1.4 defined {@code ess_sd}: the ESS of the split chains of the
     * absolute deviations |x − mean(x)|. Kept for comparison with results of posterior 1.4; prefer {@link #sd}.
     */
    public static double sdAbsoluteDeviation(double[][] draws) {
        return Draws.statisticAtSafeScale(draws, d -> {
            double mean = Draws.mean(d);
            return GeyerEss.ess(Draws.split(Draws.map(d, v -> Math.abs(v - mean))));
        }, Draws.INVARIANT);
    }
}
