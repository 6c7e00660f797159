package org.sparkmc.spark.lda;

import java.io.Serializable;
import org.sparkmc.core.lda.TopicWordSlice;

/**
 * What the model-parallel {@code lda} keeps cached on the executors between sub-steps, besides the documents: every
 * block's topic assignment ({@link BlockTopics}, which never leaves its partition) and every word slice of the
 * topic–word counts ({@link SliceCounts}, which moves to the neighbouring partition before each sub-step). Each
 * sub-step makes new objects and never changes these, so Spark may recompute a lost partition and get the same
 * numbers.
 */
public sealed interface ModelParallelState extends Serializable {
    /** The figures the driver collects after a sub-step. */
    Figures figures();

    /**
     * A block's topics after a sub-step.
     */
    final class BlockTopics implements ModelParallelState {
        private static final long serialVersionUID = 1L;
        private final int block;
        private final char[] topics;
        private final int[] totals;
        private final boolean reportTotals;
        private final double documentTerm;
        private final double samplingSeconds;
        private final int partition;

        /**
         * @param totals the block's view of the topic totals after its last sub-step
         * @param reportTotals whether the driver synchronises the totals after this sub-step (it then collects them)
         * @param documentTerm the block's term of log p(w, z), or NaN when not computed (inside a sweep)
         * @param samplingSeconds the time its last sub-step took
         * @param partition the Spark partition that holds it (for timing only)
         */
        BlockTopics(int block, char[] topics, int[] totals, boolean reportTotals, double documentTerm,
                double samplingSeconds, int partition) {
            this.block = block;
            this.topics = topics;
            this.totals = totals;
            this.reportTotals = reportTotals;
            this.documentTerm = documentTerm;
            this.samplingSeconds = samplingSeconds;
            this.partition = partition;
        }

        int block() {
            return block;
        }

        /** The topics (shared; do not modify). */
        char[] topics() {
            return topics;
        }

        int[] totals() {
            return totals;
        }

        @Override
        public Figures figures() {
            return new Figures(block, -1, reportTotals ? totals : null, documentTerm, samplingSeconds, partition, 0);
        }
    }

    /** A word slice's counts after a sub-step, with its cells' term of log p(w, z) at the end of a sweep. */
    final class SliceCounts implements ModelParallelState {
        private static final long serialVersionUID = 1L;
        private final TopicWordSlice counts;
        private final double cellTerm;

        /** @param cellTerm the slice's cells' term of log p(w | z), or NaN when not computed (inside a sweep) */
        SliceCounts(TopicWordSlice counts, double cellTerm) {
            this.counts = counts;
            this.cellTerm = cellTerm;
        }

        TopicWordSlice counts() {
            return counts;
        }

        @Override
        public Figures figures() {
            return new Figures(-1, counts.slice(), null, cellTerm, 0, -1, counts.payloadBytes());
        }
    }

    /**
     * A state's figures after a sub-step: a block's ({@code slice} −1) or a slice's ({@code block} −1).
     *
     * @param totals a block's view of the topic totals, at a synchronisation; else null
     * @param term a block's document term or a slice's cell term of log p(w, z) at the end of a sweep; else NaN
     * @param samplingSeconds a block's sampling time in the sub-step
     * @param partition a block's partition
     * @param bytes a slice's payload, which moves to the next partition before the next sub-step
     */
    record Figures(int block, int slice, int[] totals, double term, double samplingSeconds, int partition,
            long bytes) implements Serializable {
    }
}
