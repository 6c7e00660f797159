package org.sparkmc.core.lda;

import java.io.Serializable;
import org.apache.commons.rng.UniformRandomProvider;
import org.sparkmc.core.random.RandomStreams;

/**
 * The per-block steps of model-parallel collapsed LDA (the model slices of LightLDA, Yuan et al. 2015, and the
 * rotating word partitions of Nomad-LDA, Yu et al. 2015), with the SparseLDA Gibbs kernel or the cycle MH kernel
 * ({@link LdaKernel}). The vocabulary is cut into P word
 * slices ({@link WordSlices}) and the corpus into P document blocks. A sweep is P sub-steps; in sub-step s, block b
 * holds slice (b + s) mod P — its own, exclusive copy, since no other block holds that slice meanwhile — and
 * redraws only its tokens of that slice's words. So the topic–word counts a token sees are exact (every earlier
 * change to its word's row has come with the slice), unlike AD-LDA's copies of the whole table, which are a sweep
 * stale. Only the K topic totals n_k are shared by all blocks: each block samples against the totals of the last
 * synchronisation plus its own changes since, and the totals are synchronised after every sub-step or after every
 * sweep ({@link ModelParallelDriver.TotalsSync}).
 *
 * <p>Each step is a pure function of its arguments, its random stream keyed by (sweep, block, slice):
 * {@code streams.stream("lda-mp-sweep", sweep, block, slice)}; the initial topics by block,
 * {@code ("lda-mp-init", block)}. What runs where changes no draw. Blocks are {@link WordSlices#arrange arranged}:
 * each document's tokens ordered by slice.
 */
public final class ModelParallelLda {
    /** Stream purpose of a block's initial random topics. */
    public static final String INIT_STREAM = "lda-mp-init";
    /** Stream purpose of a block's sub-step. */
    public static final String SWEEP_STREAM = "lda-mp-sweep";

    private ModelParallelLda() {
    }

    /** The slice block b holds in sub-step s of a sweep: (b + s) mod P. */
    public static int sliceOf(int block, int subStep, int numSlices) {
        return Math.floorMod(block + subStep, numSlices);
    }

    /** The block that holds slice j in sub-step s: (j − s) mod P. */
    public static int holderOf(int slice, int subStep, int numSlices) {
        return Math.floorMod(slice - subStep, numSlices);
    }

    /** Initial topics of an arranged block, each token's topic uniform on 0..K−1. */
    public static char[] initialTopics(Corpus arranged, int blockId, LdaPriors priors, RandomStreams streams) {
        UniformRandomProvider rng = streams.stream(INIT_STREAM, blockId);
        char[] topics = new char[arranged.numTokens()];
        for (int i = 0; i < topics.length; i++) {
            topics[i] = (char) rng.nextInt(priors.numTopics());
        }
        return topics;
    }

    /** The counts of a block's topics cut into the P slices: its share of every slice (slice order). */
    public static TopicWordSlice[] blockSlices(Corpus arranged, char[] topics, WordSlices slices, int numTopics) {
        return TopicWordSlice.cut(TopicWordCounts.of(arranged, topics, numTopics), slices);
    }

    /**
     * What one sub-step of one block gives.
     *
     * @param topics the block's new topics (a new array)
     * @param slice the slice's counts after the block's changes
     * @param topicTotals the block's view of the topic totals after its changes
     */
    public record SubStep(char[] topics, TopicWordSlice slice, int[] topicTotals) implements Serializable {
    }

    /**
     * One sub-step: redraws the block's tokens of {@code slice}'s words with {@code kernel} (a SparseLDA Gibbs sweep
     * or a cycle MH sweep) against the slice's counts and the topic totals {@code totals} (the block's view); neither
     * {@code topics} nor the slice is modified. Each token is updated against its document's topics over all its
     * tokens (the other slices' ones fixed) and its word's exact row; the sampler holds only the slice's rows.
     *
     * @param arranged the block, {@link WordSlices#arrange arranged}
     * @param topics its current topics
     * @param sweep the sweep, which with the block and slice keys the stream
     */
    public static SubStep sample(Corpus arranged, char[] topics, TopicWordSlice slice, int[] totals,
            WordSlices slices, LdaPriors priors, LdaKernel kernel, RandomStreams streams, int sweep, int blockId) {
        int j = slice.slice();
        LdaSampler sampler = kernel.create(priors, slice.asCounts(slices.vocabularySize(), totals));
        char[] z = topics.clone();
        sampler.sweep(arranged, z, slices.ranges(arranged, j), streams.stream(SWEEP_STREAM, sweep, blockId, j));
        TopicWordCounts after = sampler.counts();
        return new SubStep(z, TopicWordSlice.of(j, slice.words(), after), after.topicTotals());
    }

    /**
     * log p(w, z) from its parts, added in a fixed order: the slices' cell terms (slice order), the topic totals'
     * term, the blocks' document terms (block order).
     */
    public static double logLikelihood(double[] sliceCellTerms, int[] topicTotals, int vocabularySize,
            double[] documentTerms, double beta) {
        double sum = 0;
        for (double t : sliceCellTerms) {
            sum += t;
        }
        sum += LdaLogLikelihood.totalsTerm(topicTotals, vocabularySize, beta);
        for (double t : documentTerms) {
            sum += t;
        }
        return sum;
    }
}
