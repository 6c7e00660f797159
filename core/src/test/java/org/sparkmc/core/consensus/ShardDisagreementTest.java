package org.sparkmc.core.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The disagreement check on exact draws. Agreeing shards: the 5 Gaussian sub-posteriors of
 * {@link LinearGaussianShards}, whose data come from one model (the check's false-warning rate is α = 1e-3 by its
 * Bonferroni bound, and this fixed seed's largest z is far below the threshold: deterministic). Disagreeing
 * shards: the same with shard 3's draws moved by 8 of its own sds in one coordinate.
 */
class ShardDisagreementTest {

    @Test
    void quietOnAgreeingShardsAndLoudOnAShardFarAway() {
        LinearGaussianShards model = new LinearGaussianShards(ConsensusAverageTest.ROWS, 1, true);
        double[][][] draws = model.exactDraws(5_000, 21);
        ShardCheck agree = ShardDisagreement.check(ShardDraws.of(draws), LinearGaussianShards.names(),
                ShardDisagreement.DEFAULT_ALPHA);
        assertFalse(agree.warn(), agree.message());
        assertTrue(agree.message().startsWith("the shards agree"), agree.message());

        double shift = 8 * Math.sqrt(model.subCovariances[3][1 * 3 + 1]);
        for (double[] draw : draws[3]) {
            draw[1] += shift;
        }
        ShardCheck apart = ShardDisagreement.check(ShardDraws.of(draws), LinearGaussianShards.names(),
                ShardDisagreement.DEFAULT_ALPHA);
        assertTrue(apart.warn(), apart.message());
        assertEquals(3, apart.shard());
        assertEquals(1, apart.coordinate());
        assertTrue(apart.message().startsWith("the shards disagree: shard 3's mean of beta[2]"), apart.message());
    }
}
