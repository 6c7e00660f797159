package org.sparkmc.core.diagnostics;

import org.apache.commons.statistics.distribution.NormalDistribution;

/**
 * Blom's normal scores used by posterior's rank normalisation: a draw of rank r among S becomes
 * Φ⁻¹((r − 3/8)/(S − 3/4 + 1)). The scores of the integer ranks 1 … S are one table per S, kept for the next caller:
 * every parameter of a round, and the bulk and folded statistics of each, share the same S.
 */
final class NormalScores {
    private static final NormalDistribution STANDARD_NORMAL = NormalDistribution.of(0.0, 1.0);
    /** Blom's fractional offset. */
    private static final double RANK_OFFSET = 3.0 / 8.0;
    private static double[] last = new double[0];

    private NormalScores() {
    }

    /** The score of a (possibly average, fractional) rank among {@code total}. */
    static double score(double rank, int total) {
        return STANDARD_NORMAL.inverseCumulativeProbability((rank - RANK_OFFSET) / (total - 2 * RANK_OFFSET + 1));
    }

    /** The scores of ranks 1 … total (element r − 1 for rank r); callers must not change it. */
    static synchronized double[] of(int total) {
        if (last.length != total) {
            double[] table = new double[total];
            for (int r = 1; r <= total; r++) {
                table[r - 1] = score(r, total);
            }
            last = table;
        }
        return last;
    }
}
