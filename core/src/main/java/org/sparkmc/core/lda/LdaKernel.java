package org.sparkmc.core.lda;

/** The per-token update an LDA sweep uses. */
public enum LdaKernel {
    /** Exact collapsed Gibbs with SparseLDA's buckets (Yao, Mimno &amp; McCallum 2009): {@link SparseLdaSampler}. */
    SPARSE_GIBBS,
    /**
     * Metropolis–Hastings cycling word and document proposals (LightLDA, Yuan et al. 2015), O(1) per token:
     * {@link CycleMhLdaSampler} with its default of 2 cycles per token. Exact stationary distribution, more
     * correlated sweeps; for large K.
     */
    CYCLE_MH;

    /** A sampler of this kind whose local counts start as a copy of {@code counts}. */
    public LdaSampler create(LdaPriors priors, TopicWordCounts counts) {
        return switch (this) {
            case SPARSE_GIBBS -> SparseLdaSampler.of(priors, counts);
            case CYCLE_MH -> CycleMhLdaSampler.of(priors, counts, CycleMhLdaSampler.DEFAULT_CYCLES);
        };
    }

    /**
     * About the bytes of a sampler's count tables made from counts with these word totals, whatever block it sweeps:
     * 6 bytes a cell of Σ_w min(K, t_w) for the sparse kernel (4 of rows, at most 2 of its log of the tokens' moves),
     * {@link CycleMhLdaSampler#tableBytes} for the cycle MH kernel.
     */
    public long samplerBytes(int numTopics, int[] wordTotals) {
        return switch (this) {
            case SPARSE_GIBBS -> 6 * TopicWordCounts.cellBound(numTopics, wordTotals);
            case CYCLE_MH -> CycleMhLdaSampler.tableBytes(numTopics, wordTotals);
        };
    }
}
