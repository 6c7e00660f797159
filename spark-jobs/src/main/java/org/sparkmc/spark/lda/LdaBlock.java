package org.sparkmc.spark.lda;

import java.io.Serializable;
import org.apache.spark.TaskContext;
import org.sparkmc.core.lda.AdLda;
import org.sparkmc.core.lda.BlockSweeper;
import org.sparkmc.core.lda.BlockUpdate;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.core.lda.DeltaSum;
import org.sparkmc.core.lda.LdaLogLikelihood;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.TopicWordCounts;
import org.sparkmc.core.lda.TopicWordDelta;
import org.sparkmc.core.random.RandomStreams;

/**
 * One AD-LDA document block as the {@code lda} job keeps it cached on an executor: its documents, their current
 * topics, and what its last sweep reported to the driver (the count changes, its term of log p(w, z), its sampling
 * time). In the relay mode ({@link #sweepInto}) the count changes go into the task's sum instead, and the block keeps
 * none (null), as a block of {@link #ofTopics} does. Each step returns a new block and never changes this one, so
 * Spark may recompute a lost block from its parent and get the same topics bit for bit.
 */
public final class LdaBlock implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int id;
    private final Corpus docs;
    private final char[] topics;
    private final TopicWordDelta delta;
    private final double documentTerm;
    private final double samplingSeconds;

    private LdaBlock(int id, Corpus docs, char[] topics, TopicWordDelta delta, double documentTerm,
            double samplingSeconds) {
        this.id = id;
        this.docs = docs;
        this.topics = topics;
        this.delta = delta;
        this.documentTerm = documentTerm;
        this.samplingSeconds = samplingSeconds;
    }

    /** Block {@code id} with random initial topics from its stream ("lda-init", id); its delta is its whole counts. */
    static LdaBlock initial(int id, Corpus docs, LdaPriors priors, RandomStreams streams) {
        long t0 = System.nanoTime();
        BlockUpdate u = AdLda.initializeBlock(docs, id, priors, streams);
        return new LdaBlock(id, docs, u.topics(), u.delta(), LdaLogLikelihood.documentTerm(docs, u.topics(), priors),
                (System.nanoTime() - t0) / 1e9);
    }

    /** Block {@code id} with saved topics (a resumed run); its delta is its whole counts. */
    static LdaBlock restored(int id, Corpus docs, char[] topics, LdaPriors priors) {
        if (topics.length != docs.numTokens()) {
            throw new IllegalArgumentException("block " + id + ": " + topics.length + " saved topics for "
                    + docs.numTokens() + " tokens");
        }
        return new LdaBlock(id, docs, topics, AdLda.blockCounts(docs, topics, priors),
                LdaLogLikelihood.documentTerm(docs, topics, priors), 0);
    }

    /**
     * Block {@code id} with its topics as another sampler keeps them (model-parallel: no count change or terms to
     * report), for the outputs and checkpoints.
     */
    static LdaBlock ofTopics(int id, Corpus docs, char[] topics) {
        if (topics == null || topics.length != docs.numTokens()) {
            throw new IllegalArgumentException("block " + id + ": no topics for its " + docs.numTokens() + " tokens");
        }
        return new LdaBlock(id, docs, topics, null, Double.NaN, 0);
    }

    /**
     * The block after {@code numSweeps} sweeps from sweep {@code firstSweep} against the global counts, with the
     * partition's sweeper (its blocks run in turn).
     */
    LdaBlock sweep(BlockSweeper sweeper, TopicWordCounts global, RandomStreams streams, int firstSweep,
            int numSweeps) {
        long t0 = System.nanoTime();
        BlockUpdate u = sweeper.sweep(docs, topics, global, streams, firstSweep, numSweeps, id);
        return swept(u.topics(), u.delta(), sweeper, t0);
    }

    /**
     * As {@link #sweep}, but the block's count changes go into {@code sum}, with those of the partition's other
     * blocks, and not into its report (the relay mode sends one sum a task).
     */
    LdaBlock sweepInto(DeltaSum sum, BlockSweeper sweeper, TopicWordCounts global, RandomStreams streams,
            int firstSweep, int numSweeps) {
        long t0 = System.nanoTime();
        char[] z = sweeper.sweepInto(sum, docs, topics, global, streams, firstSweep, numSweeps, id);
        return swept(z, null, sweeper, t0);
    }

    /**
     * This block with its new topics, count changes and document term (the sweeper's), its sweeps timed from
     * {@code startNanos}.
     */
    private LdaBlock swept(char[] newTopics, TopicWordDelta newDelta, BlockSweeper sweeper, long startNanos) {
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        return new LdaBlock(id, docs, newTopics, newDelta, sweeper.documentTerm(newTopics), seconds);
    }

    /**
     * What the driver collects after a step: a few numbers and the sparse count changes (null after
     * {@link #sweepInto}).
     */
    BlockReport report() {
        return new BlockReport(id, delta, documentTerm, samplingSeconds, partition());
    }

    /** Its figures after a step, without count changes (what the relay mode sends of a block). */
    BlockFigures figures() {
        return report().figures();
    }

    /** The Spark partition of the task running now (0 outside a task). */
    private static int partition() {
        TaskContext task = TaskContext.get();
        return task == null ? 0 : task.partitionId();
    }

    int id() {
        return id;
    }

    Corpus docs() {
        return docs;
    }

    /** The topics (shared; do not modify). */
    char[] topics() {
        return topics;
    }

    /**
     * What a block tells the driver after a step.
     *
     * @param block the block id
     * @param delta its count changes (null for a block swept into its task's sum)
     * @param documentTerm its documents' term of log p(w, z)
     * @param samplingSeconds the time its sweeps took
     * @param partition the Spark partition that holds it (for timing only: blocks of one partition run in turn)
     */
    public record BlockReport(int block, TopicWordDelta delta, double documentTerm, double samplingSeconds,
            int partition)
            implements Serializable {
        /** The report without its count changes. */
        public BlockFigures figures() {
            return new BlockFigures(block, documentTerm, samplingSeconds, partition);
        }
    }

    /**
     * A block's figures after a step, without its count changes: what the driver needs in relay mode, where the
     * tasks keep the counts.
     *
     * @param block the block id
     * @param documentTerm its documents' term of log p(w, z)
     * @param samplingSeconds the time its sweeps took
     * @param partition the Spark partition that holds it
     */
    public record BlockFigures(int block, double documentTerm, double samplingSeconds, int partition) {
    }
}
