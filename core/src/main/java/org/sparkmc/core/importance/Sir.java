package org.sparkmc.core.importance;

import java.util.Objects;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * Sampling importance resampling (Rubin 1987, 1988): resample m of the n weighted draws of an importance sample
 * with probabilities proportional to their weights; as n → ∞ the resampled draws are distributed as p. The
 * resampled draws are dependent (duplicates), and SIR adds resampling noise to the self-normalised estimate.
 */
public final class Sir {
    private Sir() {
    }

    /** The indices of the resampled draws (into the sample's draws), by the given scheme. */
    public static int[] resampleIndices(UniformRandomProvider rng, ImportanceSample sample, int m,
            SirResampling scheme) {
        Objects.requireNonNull(rng, "rng");
        Objects.requireNonNull(scheme, "scheme");
        if (m < 1) {
            throw new IllegalArgumentException("resample size must be positive, is " + m);
        }
        return Resampler.resample(rng, sample.normalisedWeights(), m, scheme);
    }

    /**
     * m draws resampled from 1-d draws x_i with their log weights.
     *
     * @param draws x_i
     * @param logWeights ln w_i, same length
     */
    public static double[] resample(UniformRandomProvider rng, double[] draws, double[] logWeights, int m,
            SirResampling scheme) {
        ImportanceSample sample = ImportanceSample.of(logWeights, draws);
        int[] idx = resampleIndices(rng, sample, m, scheme);
        double[] out = new double[m];
        for (int i = 0; i < m; i++) {
            out[i] = draws[idx[i]];
        }
        return out;
    }
}
