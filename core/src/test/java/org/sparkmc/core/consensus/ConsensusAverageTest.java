package org.sparkmc.core.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sparkmc.core.model.Matrices;
import org.sparkmc.core.InvalidInputException;

/**
 * The consensus average on a linear model with known noise, where every sub-posterior is exactly Gaussian and the
 * full posterior is known ({@link LinearGaussianShards}: 5 shards of 4 to 12 rows, features scaled 0.5 to 2.5,
 * so the shards' covariances differ by a factor of up to 25, and a prior sd of 0.5 that matters). T = 20,000 exact
 * draws per shard, fixed seeds.
 *
 * <p>The check ({@link GaussianDraws#standardisedErrors}, whitened by the exact full covariance): the largest
 * standardised mean error below {@value #MEAN_TOLERANCE} and the largest standardised covariance error below
 * {@value #COV_TOLERANCE}. Measured over 1,000 seeds, the mean errors have an sd of about 1.7 (the weights are
 * estimated from the same draws, which adds to the draws' own error; the largest of 3,000 was 6.3) and the
 * covariance errors about 1 (largest 3.4): the tolerances are about 6 sds, a false-failure rate below 1e-7.
 * Wrong combiners miss by hundreds of these units.
 */
class ConsensusAverageTest {
    static final int[] ROWS = {4, 6, 8, 10, 12};
    static final int T = 20_000;
    static final double MEAN_TOLERANCE = 10;
    static final double COV_TOLERANCE = 6;

    private static boolean matches(double[][] draws, LinearGaussianShards model) {
        double[] e = GaussianDraws.standardisedErrors(draws, model.fullMean, model.fullCovariance, T);
        return e[0] < MEAN_TOLERANCE && e[1] < COV_TOLERANCE;
    }

    @Test
    void givesTheExactFullPosteriorFromExactGaussianSubPosteriors() {
        LinearGaussianShards model = new LinearGaussianShards(ROWS, 1, true);
        double[][] combined = ConsensusAverage.bySampleCovariance().combine(ShardDraws.of(model.exactDraws(T, 11)),
                null).draws();
        assertEquals(T, combined.length);
        double[] e = GaussianDraws.standardisedErrors(combined, model.fullMean, model.fullCovariance, T);
        assertTrue(e[0] < MEAN_TOLERANCE && e[1] < COV_TOLERANCE, "mean error " + e[0] + ", covariance error " + e[1]);
    }

    /**
     * Weighted by each shard's exact precision (the inverse of its sub-posterior covariance, here known in closed
     * form, as the Laplace approximation gives it for a Gaussian shard) instead of the sample covariances: the same
     * exact answer, and a wrong weight (shard 0's precision halved) fails the same check.
     */
    @Test
    void givesTheExactFullPosteriorWithTheShardsPrecisionsAsWeights() {
        LinearGaussianShards model = new LinearGaussianShards(ROWS, 1, true);
        int d = LinearGaussianShards.D;
        double[][] precisions = new double[model.shards][];
        for (int s = 0; s < model.shards; s++) {
            precisions[s] = Matrices.inverse(Matrices.cholesky(model.subCovariances[s], d), d);
        }
        ShardDraws draws = ShardDraws.of(model.exactDraws(T, 11));
        double[][] combined = ConsensusAverage.byPrecisions(precisions).combine(draws, null).draws();
        double[] e = GaussianDraws.standardisedErrors(combined, model.fullMean, model.fullCovariance, T);
        assertTrue(e[0] < MEAN_TOLERANCE && e[1] < COV_TOLERANCE, "mean error " + e[0] + ", covariance error " + e[1]);

        double[][] wrong = precisions.clone();
        wrong[0] = precisions[0].clone();
        for (int k = 0; k < wrong[0].length; k++) {
            wrong[0][k] *= 0.5;
        }
        assertTrue(!matches(ConsensusAverage.byPrecisions(wrong).combine(draws, null).draws(), model));
    }

    /** The same check fails an unweighted average of the shards' draws. */
    @Test
    void theCheckFailsAnUnweightedAverage() {
        LinearGaussianShards model = new LinearGaussianShards(ROWS, 1, true);
        double[][][] draws = model.exactDraws(T, 11);
        double[][] average = new double[T][LinearGaussianShards.D];
        for (int t = 0; t < T; t++) {
            for (double[][] shard : draws) {
                for (int j = 0; j < LinearGaussianShards.D; j++) {
                    average[t][j] += shard[t][j] / draws.length;
                }
            }
        }
        assertTrue(!matches(average, model));
    }

    /** The same check fails the right combiner fed by shards that each used the whole prior, not its 1/S power. */
    @Test
    void theCheckFailsShardsThatForgotThePriorPower() {
        LinearGaussianShards wrong = new LinearGaussianShards(ROWS, 1, false);
        double[][] combined = ConsensusAverage.bySampleCovariance().combine(ShardDraws.of(wrong.exactDraws(T, 11)),
                null).draws();
        assertTrue(!matches(combined, wrong));
    }

    @Test
    void aShardWhoseChainNeverMovedIsNamed() {
        double[][][] draws = new LinearGaussianShards(ROWS, 1, true).exactDraws(50, 3);
        for (double[] draw : draws[2]) {
            draw[1] = 0.25;
        }
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> ConsensusAverage.bySampleCovariance().combine(ShardDraws.of(draws), null));
        assertTrue(e.getMessage().startsWith("shard 2's draws have a singular covariance"), e.getMessage());
    }

    @Test
    void unevenShardsAreRefused() {
        double[][][] draws = {new double[4][2], new double[3][2]};
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> ShardDraws.of(draws));
        assertEquals("shard 1 has 3 draws, shard 0 has 4: every shard must keep the same number", e.getMessage());
    }
}
