package org.sparkmc.core.lda;

import org.apache.commons.rng.UniformRandomProvider;

/**
 * A collapsed-LDA kernel that owns a local copy of the topic–word counts and sweeps documents against it, updating
 * topics in place — a Gibbs sampler ({@link SparseLdaSampler}) or a Metropolis–Hastings one
 * ({@link CycleMhLdaSampler}). Both leave p(z | w) (or, in an AD-LDA block, the block's local conditional) invariant.
 */
public interface LdaSampler {
    /** One sweep over {@code docs}' tokens; {@code topics} is aligned with {@code docs.words()}. */
    void sweep(Corpus docs, char[] topics, UniformRandomProvider rng);

    /**
     * One sweep over part of every document: in document d only the tokens {@code [ranges[2d], ranges[2d+1])} are
     * updated, each against all of d's tokens' topics (the others fixed). Model-parallel LDA sweeps a block's tokens
     * of one word slice this way ({@link WordSlices#ranges}).
     */
    void sweep(Corpus docs, char[] topics, int[] ranges, UniformRandomProvider rng);

    /**
     * The documents' term of log p(w, z) after the last whole sweep, when the kernel sums it while sweeping (within
     * rounding of {@link LdaLogLikelihood#documentTerm}); NaN when it does not.
     */
    default double documentTerm() {
        return Double.NaN;
    }

    /** The current local counts (canonical form). */
    TopicWordCounts counts();

    /** The change of the local counts from {@code before} (the counts the sampler started from) over the rows of {@code docs}' words. */
    TopicWordDelta delta(TopicWordCounts before, Corpus docs);

    /** Adds {@link #delta} to {@code sum}, in whatever form the sum can add the more cheaply. */
    default void addDelta(DeltaSum sum, TopicWordCounts before, Corpus docs) {
        sum.add(delta(before, docs));
    }

    /**
     * Puts the local counts back to {@code before}, the counts the sampler started from, when only sweeps over
     * {@code docs} have changed them since: afterwards it samples exactly as a new sampler on {@code before} would.
     * Returns false, changing nothing, when this kernel cannot (then a new sampler is needed).
     */
    default boolean restore(TopicWordCounts before, Corpus docs) {
        return false;
    }
}
