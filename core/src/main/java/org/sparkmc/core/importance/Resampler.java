package org.sparkmc.core.importance;

import org.apache.commons.rng.UniformRandomProvider;

/**
 * Minimal multinomial and systematic resampling for {@link Sir}: indices j drawn with probability proportional
 * to normalised weights. Package-private on purpose: the SMC package owns the general resamplers.
 */
final class Resampler {
    private Resampler() {
    }

    static int[] resample(UniformRandomProvider rng, double[] weights, int m, SirResampling scheme) {
        double[] cumulative = new double[weights.length];
        double total = 0;
        for (int i = 0; i < weights.length; i++) {
            total += weights[i];
            cumulative[i] = total;
        }
        int[] out = new int[m];
        if (scheme == SirResampling.SYSTEMATIC) {
            double u = rng.nextDouble() / m;
            int j = 0;
            for (int i = 0; i < m; i++) {
                double target = (u + (double) i / m) * total;
                while (j < cumulative.length - 1 && cumulative[j] <= target) {
                    j++;
                }
                out[i] = j;
            }
        } else {
            for (int i = 0; i < m; i++) {
                double target = rng.nextDouble() * total;
                int lo = 0;
                int hi = cumulative.length - 1;
                while (lo < hi) {
                    int mid = (lo + hi) >>> 1;
                    if (cumulative[mid] <= target) {
                        lo = mid + 1;
                    } else {
                        hi = mid;
                    }
                }
                out[i] = lo;
            }
        }
        return out;
    }
}
