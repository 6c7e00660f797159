package org.sparkmc.core.diagnostics;

/**
 * What {@link GeyerEss} reads of a set of equal-length chains: each chain's mean, and the mean over chains of each
 * chain's biased autocovariance (1/N) Σ_{i<N−t} (x_i − x̄)(x_{i+t} − x̄) at lag t, asked for in increasing lags.
 */
interface ChainAutocovariance {
    /** Chain {@code c}'s mean. */
    double mean(int c);

    /** The mean over chains of the biased autocovariance at {@code lag} (0 ≤ lag &lt; N). */
    double at(int lag);
}
