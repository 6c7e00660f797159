package org.sparkmc.core.diagnostics;

import org.apache.commons.statistics.distribution.BetaDistribution;

/**
 * Monte Carlo standard errors of posterior summaries, as R's {@code posterior} defines them (Vehtari, Gelman,
 * Simpson, Carpenter and Bürkner 2021, "Rank-normalization, folding, and localization: An improved R-hat for
 * assessing convergence of MCMC", <i>Bayesian Analysis</i> 16(2)): the standard deviation of an estimate across
 * hypothetical reruns of the chains, from the draws and an effective sample size.
 *
 * <p>Returns NaN where the ESS it needs is NaN (too few, constant or non-finite draws). Draws beyond 2^±200 in
 * magnitude are measured as the summaries measure them ({@link FullParameterSummary#of}): scaled by a power of two
 * and the MCSE scaled back, exactly, so that their fourth powers do not overflow.
 */
public final class MonteCarloStandardError {
    /** Φ(−1) and Φ(1) as posterior writes them: the ±1 sd probabilities of the quantile interval. */
    private static final double LOWER = 0.1586553;
    private static final double UPPER = 0.8413447;

    private MonteCarloStandardError() {
    }

    /** MCSE of the mean: sd(x) / sqrt(ESS for the mean) (posterior's {@code mcse_mean}). */
    public static double mean(double[][] draws) {
        return Draws.statisticAtSafeScale(draws,
                d -> Math.sqrt(Draws.variance(d)) / Math.sqrt(GeyerEss.ess(Draws.split(d))), Draws.STANDARD_ERROR);
    }

    /**
     * MCSE of the standard deviation (posterior's {@code mcse_sd}, 1.4 and later): with c = x − mean(x) and
     * ESS = ESS of split c² (= {@link EffectiveSampleSize#sd}), Var(var̂) ≈ (mean(c⁴) − mean(c²)²)/ESS (Kenney and
     * Keeping 1951, p. 141, no normality assumed) and, to first order, Var(sd̂) = Var(var̂)/(4 mean(c²)).
     */
    public static double sd(double[][] draws) {
        return Draws.statisticAtSafeScale(draws, d -> {
            double[][] squared = Draws.squaredDeviations(d, Draws.mean(d));
            return sdOfSquared(squared, EffectiveSampleSize.sdOfSquared(squared));
        }, Draws.STANDARD_ERROR);
    }

    /**
     * The MCSE of the sd from the squared deviations from the pooled mean, {@code (x − mean)²}, and their ESS
     * ({@link EffectiveSampleSize#sd}).
     */
    static double sdOfSquared(double[][] squared, double ess) {
        double m2 = Draws.mean(squared);
        double m4 = Draws.mean(Draws.squaredDeviations(squared, 0.0)); // the squares: v − 0 is v
        double varVar = (m4 - m2 * m2) / ess;
        return Math.sqrt(varVar / m2 / 4);
    }

    /**
     * MCSE of the p-quantile (posterior's {@code mcse_quantile}): with E the quantile ESS and a₁, a₂ the
     * 0.1586553 and 0.8413447 quantiles of Beta(E·p + 1, E·(1−p) + 1), half the distance between the order
     * statistics x_(max(⌊a₁S⌋, 1)) and x_(min(⌈a₂S⌉, S)) of all S draws. Being a difference of two draws, it
     * carries the draws' printed precision.
     *
     * @throws IllegalArgumentException if p is outside [0, 1]
     */
    public static double quantile(double[][] draws, double p) {
        Draws.validateProbability(p);
        return Draws.statisticAtSafeScale(draws, d -> quantile(PooledDraws.of(d), p), Draws.STANDARD_ERROR);
    }

    static double quantile(PooledDraws pooled, double p) {
        return quantile(pooled, p, EffectiveSampleSize.quantile(pooled, p));
    }

    /** {@link #quantile(double[][], double)} given the quantile ESS. */
    static double quantile(PooledDraws pooled, double p, double ess) {
        if (Double.isNaN(ess)) {
            return Double.NaN;
        }
        BetaDistribution beta = BetaDistribution.of(ess * p + 1, ess * (1 - p) + 1);
        double a1 = beta.inverseCumulativeProbability(LOWER);
        double a2 = beta.inverseCumulativeProbability(UPPER);
        int s = pooled.size;
        int lower = (int) Math.max(Math.floor(a1 * s), 1);
        int upper = (int) Math.min(Math.ceil(a2 * s), s);
        return (pooled.orderStatistic(upper) - pooled.orderStatistic(lower)) / 2;
    }

    /** MCSE of the median: {@link #quantile} at 0.5 (posterior's {@code mcse_median}). */
    public static double median(double[][] draws) {
        return quantile(draws, 0.5);
    }
}
