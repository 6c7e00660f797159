package org.sparkmc.spark.chains;

import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparkmc.core.mcmc.RoundResult;

/**
 * Counts the sampling transitions a kernel flagged as divergent (its {@code divergent__} statistic, as Stan names
 * it), and warns as Stan does: "N of M transitions after warm-up ended with a divergence".
 */
final class Divergences {
    private static final Logger LOG = LoggerFactory.getLogger(Divergences.class);
    static final String COLUMN = "divergent__";

    private Divergences() {
    }

    /** The number of divergent sampling transitions over all chains, or null when the kernel reports none. */
    static Long count(JavaRDD<RoundResult> rounds, List<String> names) {
        int column = names.indexOf(COLUMN);
        if (column < 0) {
            return null;
        }
        long[] counts = rounds.map(r -> {
            double[] flags = r.draws()[column];
            long n = 0;
            for (double f : flags) {
                n += f > 0 ? 1 : 0;
            }
            return new long[] {n, flags.length};
        }).reduce((a, b) -> new long[] {a[0] + b[0], a[1] + b[1]});
        if (counts[0] > 0) {
            LOG.warn("chains: {} of {} transitions after warm-up ended with a divergence ({}%); the draws may be "
                    + "biased: raise the target acceptance (--target-accept) or reparameterise the model",
                    counts[0], counts[1], String.format(java.util.Locale.ROOT, "%.2f", 100.0 * counts[0] / counts[1]));
        }
        return counts[0];
    }
}
