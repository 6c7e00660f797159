package org.sparkmc.spark.bn;

/**
 * The answer for one query variable: per state the estimated posterior probability and its standard error, the
 * effective sample size behind it, R-hat (Gibbs only, else null) and the exact probability (null when not
 * computed).
 */
public record QueryResult(String variable, String[] states, double[] probabilities, double[] standardErrors,
        double[] ess, double[] rhat, double[] exact) {

    /** State s's standard error in {@code format}, or NA where it is undefined (an estimate of 0 or 1). */
    public String standardError(int s, String format) {
        return org.sparkmc.spark.diagnose.SummaryFiles.formatted(standardErrors[s], format);
    }

    /** How many standard errors the estimate of state s is from the exact value (NaN if either is missing). */
    public double errorInSe(int s) {
        if (exact == null || !(standardErrors[s] > 0)) {
            return Double.NaN;
        }
        return (probabilities[s] - exact[s]) / standardErrors[s];
    }
}
