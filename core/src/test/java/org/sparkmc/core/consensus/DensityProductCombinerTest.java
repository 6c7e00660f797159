package org.sparkmc.core.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sparkmc.core.diagnostics.EffectiveSampleSize;
import org.sparkmc.core.random.RandomStreams;

/** The density-product combiners against exact full posteriors, from exact sub-posterior draws; fixed seeds. */
class DensityProductCombinerTest {

    /** The smallest basic ESS over the coordinates of one chain of draws. */
    private static double minimumEss(double[][] draws) {
        double ess = Double.POSITIVE_INFINITY;
        for (int j = 0; j < draws[0].length; j++) {
            double[] column = new double[draws.length];
            for (int t = 0; t < draws.length; t++) {
                column[t] = draws[t][j];
            }
            ess = Math.min(ess, EffectiveSampleSize.basic(new double[][] {column}, false));
        }
        return ess;
    }

    /**
     * The Gaussian case of {@link ConsensusAverageTest} (5 shards, 3 coefficients, 20,000 exact draws a shard): the
     * semiparametric combiner is right at any bandwidth when the sub-posteriors are Gaussian; h = 0.5, 10,000 draws
     * thinned by 5 (ESS about 1,000). The same check as there, with the ESS for n: over 40 seeds the largest
     * standardised errors had rms 1.4 (mean) and 1.3 (covariance), largest 2.5 and 2.3; the tolerance 6 is over
     * 4 rms, a false-failure rate of about 1e-5 or less.
     */
    @Test
    void semiparametricGivesTheExactPosteriorInTheGaussianCase() {
        LinearGaussianShards model = new LinearGaussianShards(ConsensusAverageTest.ROWS, 1, true);
        ShardDraws draws = ShardDraws.of(model.exactDraws(ConsensusAverageTest.T, 12));
        Combiner.CombinedDraws result = DensityProductCombiner.semiparametric(0.5, 10_000, 5, 1_000)
                .combine(draws, new RandomStreams(12).stream("combine"));
        assertEquals(10_000, result.draws().length);
        double ess = minimumEss(result.draws());
        assertTrue(ess > 300, "ESS " + ess);
        double[] e = GaussianDraws.standardisedErrors(result.draws(), model.fullMean, model.fullCovariance, ess);
        assertTrue(e[0] < 6 && e[1] < 6, "mean error " + e[0] + ", covariance error " + e[1]);
    }

    /**
     * A non-Gaussian case with a known answer: logistic regression on an intercept θ alone, 20 shards of 50 rows
     * with exactly one success each (20 of 1,000 in all), prior N(0, 5²). Each sub-posterior,
     * ∝ σ(θ)(1 − σ(θ))^49 · N(θ | 0, 5²)^{1/20}, is strongly skewed; its 10,000 draws are exact (inverse CDF on a
     * grid of 600,001 points), and the full posterior's mean (−3.908) and sd (0.228) come from quadrature on the
     * same grid.
     *
     * <p>The consensus average is 2.3 full-posterior sds off (its Monte Carlo error is 0.01 sds). The default-bandwidth
     * semiparametric and nonparametric combiners (20,000 draws thinned by 5, ESS 700 to 960) were 0.07 to 0.18 sds
     * off over 6 seeds (the kernels' bias, about 0.1, plus a Monte Carlo error of about 0.04), with sds within 6% of
     * the exact one. The test asks the consensus average to be over 1.5 sds off and each density-product combiner
     * within 0.5 sds with an sd within 15%: the tolerance is about 8 Monte Carlo errors beyond the bias, a
     * false-failure rate far below 1e-6.
     */
    @Test
    void densityProductsCorrectTheConsensusBiasOnSkewedSubPosteriors() {
        int shards = 20;
        int rows = 50;
        double priorSd = 5;
        GridPosterior sub = new GridPosterior(theta -> -LogisticGlm.log1pExp(-theta)
                - (rows - 1) * LogisticGlm.log1pExp(theta) - theta * theta / (2 * priorSd * priorSd * shards),
                -150, 30, 600_001);
        GridPosterior full = new GridPosterior(theta -> shards * (-LogisticGlm.log1pExp(-theta)
                - (rows - 1) * LogisticGlm.log1pExp(theta)) - theta * theta / (2 * priorSd * priorSd),
                -150, 30, 600_001);
        RandomStreams streams = new RandomStreams(7);
        double[][][] perShard = new double[shards][][];
        for (int s = 0; s < shards; s++) {
            perShard[s] = sub.draw(10_000, streams.rng("sub-posterior", s));
        }
        ShardDraws draws = ShardDraws.of(perShard);

        double consensus = ShardDraws.mean(ConsensusAverage.bySampleCovariance().combine(draws, null).draws(), 1)[0];
        double consensusError = Math.abs(consensus - full.mean) / full.sd;
        assertTrue(consensusError > 1.5, "the consensus average is only " + consensusError + " sds off");

        for (DensityProductCombiner combiner : new DensityProductCombiner[] {
            DensityProductCombiner.semiparametric(Double.NaN, 20_000, 5, 1_000),
            DensityProductCombiner.nonparametric(Double.NaN, 20_000, 5, 1_000)}) {
            double[][] combined = combiner.combine(draws, streams.stream("combine", combiner.name().length()))
                    .draws();
            double mean = ShardDraws.mean(combined, 1)[0];
            double sd = Math.sqrt(ShardDraws.covariance(combined, new double[] {mean}, 1)[0]);
            double error = Math.abs(mean - full.mean) / full.sd;
            assertTrue(error < 0.5, combiner.name() + " is " + error + " sds off");
            assertEquals(1, sd / full.sd, 0.15, combiner.name() + "'s sd");
        }
    }
}
