package org.sparkmc.core.diagnostics;

/**
 * The per-parameter summary the chains job reports after every round, with the definitions of R's
 * {@code posterior::summarise_draws} (Vehtari, Gelman, Simpson, Carpenter and Bürkner 2021, "Rank-normalization,
 * folding, and localization: An improved R-hat for assessing convergence of MCMC", <i>Bayesian Analysis</i> 16(2)).
 *
 * @param name parameter name
 * @param mean mean of all draws
 * @param sd standard deviation of all draws (n − 1)
 * @param q5 5% quantile (R type 7)
 * @param q50 median
 * @param q95 95% quantile (R type 7)
 * @param rhat rank-normalised split R-hat, max of bulk and tail ({@link Rhat#rhat})
 * @param essBulk bulk ESS ({@link EffectiveSampleSize#bulk})
 * @param essTail tail ESS ({@link EffectiveSampleSize#tail})
 * @param mcseMean Monte Carlo standard error of the mean ({@link MonteCarloStandardError#mean})
 */
public record ParameterSummary(String name, double mean, double sd, double q5, double q50, double q95, double rhat,
        double essBulk, double essTail, double mcseMean) implements java.io.Serializable {

    /**
     * Summarises one parameter's draws {@code [chain][iteration]}. The pooled draws are sorted once and that sort
     * serves the quantiles, the median, the ranks of the bulk and tail statistics and the quantile indicators. These
     * are the parts of {@link SummaryTasks#brief}, run one after the other on this thread.
     *
     * @throws IllegalArgumentException if the draws are not a non-empty rectangular array
     */
    public static ParameterSummary of(String name, double[][] draws) {
        return SummaryTasks.now(SummaryTasks.brief(name, draws, Runnable::run));
    }

    /** As {@link FullParameterSummary#rescaled}: this summary of scaled draws, as the draws' own. */
    ParameterSummary rescaled(int exponent, ParameterSummary diagnostics) {
        int e = exponent;
        return new ParameterSummary(name, Math.scalb(mean, e), Math.scalb(sd, e), Math.scalb(q5, e),
                Math.scalb(q50, e), Math.scalb(q95, e), diagnostics.rhat, diagnostics.essBulk, diagnostics.essTail,
                FullParameterSummary.mcse(mcseMean, diagnostics.mcseMean, e));
    }
}
