package org.sparkmc.core.smc;

/**
 * What one time step produced: the filtering mean and variance of each state component (weighted, before any
 * resampling), the ESS, whether the step resampled, the log-likelihood increment log Σ_i W_{n−1}^i α_n^i, and
 * whether the step had an observation (false: a skipped missing observation, weights unchanged).
 */
public record StepSummary(int step, double[] mean, double[] variance, double ess, boolean resampled,
        double logLikelihoodIncrement, boolean observed) {
}
