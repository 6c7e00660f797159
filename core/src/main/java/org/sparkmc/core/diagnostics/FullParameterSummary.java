package org.sparkmc.core.diagnostics;

/**
 * Every column of R's {@code posterior::summarise_draws} for one parameter — its default summaries plus all
 * convergence diagnostics with their default arguments (split chains, quantiles 5% and 95%) — with the definitions
 * of Vehtari, Gelman, Simpson, Carpenter and Bürkner (2021), "Rank-normalization, folding, and localization: An
 * improved R-hat for assessing convergence of MCMC", <i>Bayesian Analysis</i> 16(2).
 *
 * @param name parameter name
 * @param mean mean of all draws
 * @param median median of all draws
 * @param sd standard deviation (n − 1)
 * @param mad median absolute deviation × 1.4826
 * @param q5 5% quantile (R type 7)
 * @param q95 95% quantile (R type 7)
 * @param rhat {@link Rhat#rhat}
 * @param rhatBasic {@link Rhat#basic} on split chains
 * @param essBulk {@link EffectiveSampleSize#bulk}
 * @param essTail {@link EffectiveSampleSize#tail}
 * @param essBasic {@link EffectiveSampleSize#basic} on split chains
 * @param essMean {@link EffectiveSampleSize#mean}
 * @param essSd {@link EffectiveSampleSize#sd} (posterior ≥ 1.7 definition, squared deviations)
 * @param essQ5 {@link EffectiveSampleSize#quantile} at 0.05
 * @param essQ95 {@link EffectiveSampleSize#quantile} at 0.95
 * @param essMedian {@link EffectiveSampleSize#median}
 * @param mcseMean {@link MonteCarloStandardError#mean}
 * @param mcseSd {@link MonteCarloStandardError#sd}
 * @param mcseQ5 {@link MonteCarloStandardError#quantile} at 0.05
 * @param mcseQ95 {@link MonteCarloStandardError#quantile} at 0.95
 * @param mcseMedian {@link MonteCarloStandardError#median}
 */
public record FullParameterSummary(String name, double mean, double median, double sd, double mad, double q5,
        double q95, double rhat, double rhatBasic, double essBulk, double essTail, double essBasic, double essMean,
        double essSd, double essQ5, double essQ95, double essMedian, double mcseMean, double mcseSd, double mcseQ5,
        double mcseQ95, double mcseMedian) implements java.io.Serializable {

    /**
     * Summarises one parameter's draws {@code [chain][iteration]}, sorting the pooled draws once: the parts of
     * {@link SummaryTasks#full}, run one after the other on this thread.
     *
     * @throws IllegalArgumentException if the draws are not a non-empty rectangular array
     */
    public static FullParameterSummary of(String name, double[][] draws) {
        return SummaryTasks.now(SummaryTasks.full(name, draws, Runnable::run));
    }

    /**
     * This summary, of draws that were scaled by 2^−{@code exponent}, as the summary of the draws themselves: the
     * locations, spreads and MCSEs times 2^{@code exponent}; R-hat and ESS, which scaling leaves alone, and MCSEs that
     * are undefined, as {@code diagnostics} has them.
     */
    FullParameterSummary rescaled(int exponent, FullParameterSummary diagnostics) {
        FullParameterSummary d = diagnostics;
        int e = exponent;
        return new FullParameterSummary(name, Math.scalb(mean, e), Math.scalb(median, e), Math.scalb(sd, e),
                Math.scalb(mad, e), Math.scalb(q5, e), Math.scalb(q95, e), d.rhat, d.rhatBasic, d.essBulk, d.essTail,
                d.essBasic, d.essMean, d.essSd, d.essQ5, d.essQ95, d.essMedian, mcse(mcseMean, d.mcseMean, e),
                mcse(mcseSd, d.mcseSd, e), mcse(mcseQ5, d.mcseQ5, e), mcse(mcseQ95, d.mcseQ95, e),
                mcse(mcseMedian, d.mcseMedian, e));
    }

    /** The scaled MCSE {@code v} scaled back by 2^{@code exponent}, or NaN where the draws' own is undefined. */
    static double mcse(double v, double own, int exponent) {
        return Double.isNaN(own) ? Double.NaN : Math.scalb(v, exponent);
    }

    /** The per-round summary these numbers contain: the same values {@link ParameterSummary#of} gives. */
    public ParameterSummary brief() {
        return new ParameterSummary(name, mean, sd, q5, median, q95, rhat, essBulk, essTail, mcseMean);
    }
}
