package org.sparkmc.core.lda;

import java.util.ArrayList;
import java.util.List;
import org.sparkmc.core.random.RandomStreams;

/**
 * AD-LDA on one machine (Newman et al. 2009): the corpus cut into B contiguous document blocks, every block swept
 * in turn against the same global counts from the start of the sweep, the blocks' changes merged after it. It runs
 * exactly the computation the Spark job distributes — the same {@link AdLda} calls with the same stream keys, on
 * blocks cut as the Spark job cuts them ({@link Corpus#blocks}: contiguous ids, near-equal document counts) — so its
 * results are those of the Spark job for the same documents, seed and number of blocks. Follows initialise → next
 * sweep → result, so a caller can monitor and stop between sweeps.
 */
public final class AdLdaDriver {
    private final Corpus[] blocks;
    private final char[][] topics;
    private final LdaPriors priors;
    private final RandomStreams streams;
    private TopicWordCounts global;
    private int sweeps;

    private AdLdaDriver(Corpus corpus, int numBlocks, LdaPriors priors, RandomStreams streams) {
        this.blocks = corpus.blocks(numBlocks);
        this.topics = new char[numBlocks][];
        this.priors = priors;
        this.streams = streams;
        List<TopicWordDelta> deltas = new ArrayList<>();
        for (int b = 0; b < numBlocks; b++) {
            BlockUpdate u = AdLda.initializeBlock(blocks[b], b, priors, streams);
            topics[b] = u.topics();
            deltas.add(u.delta());
        }
        this.global = TopicWordCounts.empty(priors.numTopics(), corpus.vocabularySize()).plus(deltas);
    }

    /** Random initial topics for {@code corpus} cut into {@code numBlocks} blocks. */
    public static AdLdaDriver start(Corpus corpus, int numBlocks, LdaPriors priors, RandomStreams streams) {
        return new AdLdaDriver(corpus, numBlocks, priors, streams);
    }

    /** One AD-LDA sweep of all blocks, then the merge. */
    public void sweep() {
        List<TopicWordDelta> deltas = new ArrayList<>(blocks.length);
        for (int b = 0; b < blocks.length; b++) {
            BlockUpdate u = AdLda.sweepBlock(blocks[b], topics[b], global, priors, streams, sweeps, 1, b);
            topics[b] = u.topics();
            deltas.add(u.delta());
        }
        global = AdLda.merge(global, deltas);
        sweeps++;
    }

    public int sweepsDone() {
        return sweeps;
    }

    public TopicWordCounts counts() {
        return global;
    }

    /** The topics of block b's tokens (shared; do not modify). */
    public char[] topics(int block) {
        return topics[block];
    }

    public Corpus block(int block) {
        return blocks[block];
    }

    public int numBlocks() {
        return blocks.length;
    }

    /** log p(w, z) of the current state: the topic–word term once plus every block's document term. */
    public double logLikelihood() {
        double sum = LdaLogLikelihood.topicWordTerm(global, priors.beta());
        for (int b = 0; b < blocks.length; b++) {
            sum += LdaLogLikelihood.documentTerm(blocks[b], topics[b], priors);
        }
        return sum;
    }
}
