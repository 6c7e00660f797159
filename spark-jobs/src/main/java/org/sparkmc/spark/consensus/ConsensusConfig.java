package org.sparkmc.spark.consensus;

import java.io.Serializable;
import java.util.List;
import org.sparkmc.core.consensus.RowLikelihood;
import org.sparkmc.core.consensus.ShardSampler;
import org.sparkmc.spark.cli.Require;

/**
 * A validated {@code consensus} run.
 *
 * @param modelName  the family ("logistic", …) or {@code class:…}
 * @param likelihood the model, built for the table's feature columns
 * @param priorSd    the coefficients' N(0, s²) prior sd
 * @param shards     S
 * @param sampling   kernel, chains per shard, warm-up and kept iterations
 * @param combiner   consensus, semiparametric or nonparametric
 */
public record ConsensusConfig(String data, String modelName, RowLikelihood likelihood, double priorSd, int shards,
        ShardSampler.Settings sampling, String combiner, long seed) implements Serializable {

    public static final List<String> COMBINERS = List.of("consensus", "semiparametric", "nonparametric");

    public ConsensusConfig {
        Require.atLeast(shards, 1, "--shards");
        Require.positive(priorSd, "--prior-sd");
        Require.oneOf(combiner, COMBINERS, "--combiner");
    }
}
