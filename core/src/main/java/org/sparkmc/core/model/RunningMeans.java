package org.sparkmc.core.model;

/**
 * A target with a summary too large to record per draw — a posterior mean image of 10^6 pixels — averaged over the
 * sampling iterations inside each chain's state instead (see {@code org.sparkmc.core.mcmc.RunningMeanObserver}).
 * The per-draw {@link #parameters} then hold a few scalar summaries only.
 */
public interface RunningMeans extends Target {

    /** Length of the averaged vector. */
    int runningMeanSize();

    /**
     * Adds this position's contribution (e.g. Rao–Blackwellised E[x_i | neighbours]) to
     * {@code sums[offset … offset + runningMeanSize())}.
     */
    void addToRunningMean(double[] position, double[] sums, int offset);

    /**
     * Files a job writes from the running mean pooled over chains (name → content), e.g. a posterior mean image as
     * PNG; none by default.
     */
    default java.util.Map<String, byte[]> runningMeanFiles(double[] pooledMean) {
        return java.util.Map.of();
    }
}
