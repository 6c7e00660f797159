package org.sparkmc.core.lda;

import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.sparkmc.core.random.RandomStreams;

/**
 * The per-block steps of approximate distributed LDA (AD-LDA; Newman, Asuncion, Smyth &amp; Welling, JMLR 2009):
 * every document block sweeps its documents by collapsed Gibbs sampling against its own copy of the global
 * topic–word counts from the start of the sweep, and the global counts for the next sweep are the old ones plus
 * every block's changes. With one block this is the exact collapsed Gibbs sampler; with more, an approximation that
 * Newman et al. found as good in held-out perplexity.
 *
 * <p>Each step is a pure function of its arguments: the random stream is {@code streams.stream("lda-init", block)}
 * or {@code streams.stream("lda-sweep", sweep, block)}, keyed by the document block and sweep — never a partition,
 * executor or thread — so a run is reproducible for a seed and a number of blocks, and a retried task redoes the
 * same draws. This is what the Spark job calls on each partition.
 */
public final class AdLda {
    /** Stream purpose of a block's initial random topics. */
    public static final String INIT_STREAM = "lda-init";
    /** Stream purpose of a block's sweep. */
    public static final String SWEEP_STREAM = "lda-sweep";

    private AdLda() {
    }

    /**
     * Initial topics for a block, each token's topic uniform on 0..K−1 (as Griffiths &amp; Steyvers and Mallet
     * start), and the counts they add to the (initially empty) global counts.
     */
    public static BlockUpdate initializeBlock(Corpus block, int blockId, LdaPriors priors, RandomStreams streams) {
        int k = priors.numTopics();
        UniformRandomProvider rng = streams.stream(INIT_STREAM, blockId);
        char[] topics = new char[block.numTokens()];
        for (int i = 0; i < topics.length; i++) {
            topics[i] = (char) rng.nextInt(k);
        }
        return new BlockUpdate(topics, blockCounts(block, topics, priors));
    }

    /**
     * The counts a block's topics contribute, as a change to empty global counts: what a run restored from saved
     * topics merges to rebuild the global counts.
     */
    public static TopicWordDelta blockCounts(Corpus block, char[] topics, LdaPriors priors) {
        int k = priors.numTopics();
        TopicWordCounts empty = TopicWordCounts.empty(k, block.vocabularySize());
        TopicWordCounts own = TopicWordCounts.of(block, topics, k);
        return SparseLdaSampler.of(priors, own).delta(empty, block);
    }

    /**
     * Sweeps a block {@code numSweeps} times (sweeps {@code firstSweep}, {@code firstSweep + 1}, …; the sync interval)
     * against a local copy of the global counts, and returns its new topics and its count changes. Neither
     * {@code topics} nor {@code global} is modified.
     *
     * @param block the block's documents
     * @param topics the block's current topics, aligned with {@code block.words()}
     * @param global the global counts of the current assignment of all blocks (the broadcast)
     * @param blockId the block's id in 0..B−1, which with the sweep keys the random stream
     */
    public static BlockUpdate sweepBlock(Corpus block, char[] topics, TopicWordCounts global, LdaPriors priors,
            RandomStreams streams, int firstSweep, int numSweeps, int blockId) {
        return sweepBlock(block, topics, global, priors, streams, firstSweep, numSweeps, blockId,
                LdaKernel.SPARSE_GIBBS);
    }

    /** As {@link #sweepBlock(Corpus, char[], TopicWordCounts, LdaPriors, RandomStreams, int, int, int)} with a chosen kernel. */
    public static BlockUpdate sweepBlock(Corpus block, char[] topics, TopicWordCounts global, LdaPriors priors,
            RandomStreams streams, int firstSweep, int numSweeps, int blockId, LdaKernel kernel) {
        return new BlockSweeper(priors, kernel).sweep(block, topics, global, streams, firstSweep, numSweeps, blockId);
    }

    /** The new global counts: {@code global} plus every block's changes (AD-LDA's merge; order-independent). */
    public static TopicWordCounts merge(TopicWordCounts global, List<TopicWordDelta> deltas) {
        return global.plus(deltas);
    }
}
