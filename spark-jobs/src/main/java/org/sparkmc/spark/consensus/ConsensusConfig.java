package org.sparkmc.spark.consensus;

import java.io.Serializable;
import java.util.List;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.consensus.RowLikelihood;
import org.sparkmc.core.consensus.ShardSampler;

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
        if (shards < 1) {
            throw new InvalidInputException("shards must be ≥ 1, is " + shards);
        }
        if (!(priorSd > 0) || Double.isInfinite(priorSd)) {
            throw new InvalidInputException("prior-sd must be positive and finite, is " + priorSd);
        }
        if (!COMBINERS.contains(combiner)) {
            throw new InvalidInputException("unknown --combiner '" + combiner + "', expected one of " + COMBINERS);
        }
    }
}
