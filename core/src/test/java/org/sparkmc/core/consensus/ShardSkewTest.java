package org.sparkmc.core.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The skew check on exact draws. Gaussian shards: the 5 exact Gaussian sub-posteriors of {@link LinearGaussianShards}
 * with their exact modes, whose mean-to-mode distances are Monte Carlo error only (about 1/√5,000 = 0.014 sd, far
 * below the 0.4 threshold: no chance failure). A skewed shard: shard 2's draws of one coordinate replaced by a
 * shifted exponential with the same mode, whose mean sits one sd from its mode.
 */
class ShardSkewTest {

    @Test
    void quietOnGaussianShardsAndLoudOnASkewedOne() {
        LinearGaussianShards model = new LinearGaussianShards(ConsensusAverageTest.ROWS, 1, true);
        double[][][] draws = model.exactDraws(5_000, 21);
        double[][] modes = model.subMeans;
        ShardCheck gaussian = ShardSkew.check(ShardDraws.of(draws), modes, LinearGaussianShards.names());
        assertFalse(gaussian.warn(), gaussian.message());
        assertTrue(gaussian.largest() < 0.1, gaussian.message());
        assertTrue(gaussian.message().startsWith("the shards' sub-posteriors look Gaussian"), gaussian.message());

        // Exp(1) has its mode at 0 and its mean and sd at 1: the mean is one sd from the mode.
        double sd = Math.sqrt(model.subCovariances[2][2 * 3 + 2]);
        org.sparkmc.core.random.Rng rng = new org.sparkmc.core.random.RandomStreams(3).rng("exponential");
        for (double[] draw : draws[2]) {
            draw[2] = modes[2][2] - sd * Math.log(1 - rng.uniform());
        }
        ShardCheck skewed = ShardSkew.check(ShardDraws.of(draws), modes, LinearGaussianShards.names());
        assertTrue(skewed.warn(), skewed.message());
        assertEquals(2, skewed.shard());
        assertEquals(2, skewed.coordinate());
        assertEquals(1, skewed.largest(), 0.1);
        assertTrue(skewed.message().startsWith("a shard's sub-posterior is skewed: shard 2's mean of beta[3]"),
                skewed.message());
    }
}
