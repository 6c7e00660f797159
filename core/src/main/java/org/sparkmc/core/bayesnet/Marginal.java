package org.sparkmc.core.bayesnet;

/**
 * An estimated (or exact) posterior marginal P(X | evidence): per state the probability and its standard
 * error (0 for exact inference), with the effective sample size behind it and the number of samples drawn.
 */
public record Marginal(String variable, String[] states, double[] probabilities, double[] standardErrors,
        double ess, long samples) {
}
