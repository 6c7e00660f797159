package org.sparkmc.core.consensus;

import org.apache.commons.rng.UniformRandomProvider;

/**
 * Turns S shards' sub-posterior draws into draws approximating the full-data posterior, the second half of
 * embarrassingly parallel MCMC. Implementations: {@link ConsensusAverage} (Scott et al. 2016) and
 * {@link DensityProductCombiner} (Neiswanger, Wang &amp; Xing 2014).
 */
public interface Combiner {

    /** The combiner's name in messages and outputs. */
    String name();

    /**
     * The combined draws, each of dimension {@code draws.dimension()} on the same unconstrained scale.
     *
     * @param rng the random stream of a combiner that samples; a deterministic one ignores it
     */
    CombinedDraws combine(ShardDraws draws, UniformRandomProvider rng);

    /**
     * A combiner's output.
     *
     * @param draws          the combined draws, {@code draws[t][j]}
     * @param acceptanceRate the share of accepted proposals of a combiner that runs a Markov chain, NaN otherwise
     */
    record CombinedDraws(double[][] draws, double acceptanceRate) {
    }
}
