package org.sparkmc.core.lda;

import org.sparkmc.core.random.RandomStreams;

/**
 * AD-LDA sweeps of several blocks in turn, each against its own copy of the same global counts, with one sampler
 * (one per thread or task): after a block it puts the sampler's rows back ({@link LdaSampler#restore}) instead of
 * copying the whole topic–word table again, so each block samples exactly as {@link AdLda#sweepBlock}'s fresh sampler
 * would, bit for bit. A new sampler is made when the global counts change (the next sync step) or when the kernel
 * cannot restore. Not thread-safe.
 */
public final class BlockSweeper {
    private final LdaPriors priors;
    private final LdaKernel kernel;
    private TopicWordCounts global;
    private LdaSampler sampler;
    private Corpus lastBlock;

    public BlockSweeper(LdaPriors priors, LdaKernel kernel) {
        this.priors = priors;
        this.kernel = kernel;
    }

    /**
     * Sweeps {@code block} {@code numSweeps} times from sweep {@code firstSweep} against {@code global}, with the
     * stream keyed by (sweep, {@code blockId}); returns its new topics and its count changes. Neither {@code topics}
     * nor {@code global} is modified.
     */
    public BlockUpdate sweep(Corpus block, char[] topics, TopicWordCounts global, RandomStreams streams,
            int firstSweep, int numSweeps, int blockId) {
        char[] z = sweepTopics(block, topics, global, streams, firstSweep, numSweeps, blockId);
        return new BlockUpdate(z, sampler.delta(global, block));
    }

    /**
     * As {@link #sweep}, but adds the block's count changes to {@code sum} (with those of the task's other blocks
     * against the same {@code global}) and returns only its new topics.
     */
    public char[] sweepInto(DeltaSum sum, Corpus block, char[] topics, TopicWordCounts global,
            RandomStreams streams, int firstSweep, int numSweeps, int blockId) {
        char[] z = sweepTopics(block, topics, global, streams, firstSweep, numSweeps, blockId);
        sampler.addDelta(sum, global, block);
        return z;
    }

    /**
     * The documents' term of log p(w, z) of the block last swept, after its last sweep: the sampler's own sum where
     * its kernel keeps one ({@link LdaSampler#documentTerm}), else {@link LdaLogLikelihood#documentTerm} of
     * {@code topics}, the block's topics as the sweep returned them.
     */
    public double documentTerm(char[] topics) {
        if (sampler == null) {
            throw new IllegalStateException("no block swept yet");
        }
        double term = sampler.documentTerm();
        return Double.isNaN(term) ? LdaLogLikelihood.documentTerm(lastBlock, topics, priors) : term;
    }

    private char[] sweepTopics(Corpus block, char[] topics, TopicWordCounts global, RandomStreams streams,
            int firstSweep, int numSweeps, int blockId) {
        if (numSweeps < 1) {
            throw new IllegalArgumentException("number of sweeps must be positive, is " + numSweeps);
        }
        if (sampler == null || global != this.global || !sampler.restore(global, lastBlock)) {
            sampler = kernel.create(priors, global);
            this.global = global;
        }
        char[] z = topics.clone();
        for (int t = 0; t < numSweeps; t++) {
            sampler.sweep(block, z, streams.stream(AdLda.SWEEP_STREAM, firstSweep + t, blockId));
        }
        lastBlock = block;
        return z;
    }
}
