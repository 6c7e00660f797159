package org.sparkmc.core.mcmc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.random.RandomStreams;

/**
 * Adaptive Metropolis against a strongly correlated bivariate normal (sds 1 and 10, ρ = 0.95). Goodness of fit:
 * 50 repetitions × chi-square at 1% on 2,000 draws thinned by 25, fail if more than 3 fail (≈ 0.2% false alarms).
 * The learnt-covariance checks use fixed seeds with tolerances far outside the run-to-run spread (≈ 5 sd).
 */
class AdaptiveMetropolisTest {
    private final CorrelatedNormal target = new CorrelatedNormal(1, 10, 0.95);

    @Test
    void learnsTheTargetCovarianceInWarmupAndFreezesIt() {
        Kernel<?> kernel = AdaptiveMetropolis.of(0.1, true, Double.NaN, 20_000);
        RandomStreams streams = new RandomStreams(5);
        ChainState s = ChainRound.start(1, target, kernel, streams);
        s = ChainRound.run(target, kernel, s, 1, 20_000, true, false, streams).state();
        double[] cov = AdaptiveMetropolis.proposalCovariance(s);
        double correlation = cov[1] / Math.sqrt(cov[0] * cov[3]);
        assertEquals(0.95, correlation, 0.02, "learnt correlation");
        assertEquals(10, Math.sqrt(cov[3] / cov[0]), 1, "learnt sd ratio");
        double[] frozen = kernel.encodeState(s);
        RoundResult sampling = ChainRound.run(target, kernel, s, 2, 20_000, false, true, streams);
        assertArrayEquals(frozen, kernel.encodeState(sampling.state()), 0.0, "frozen after warm-up");
        double acceptance = (double) sampling.accepted() / sampling.proposed();
        assertEquals(0.234, acceptance, 0.06);
    }

    @Test
    void samplesTheCorrelatedNormal() {
        NormalDistribution x2 = NormalDistribution.of(0, 10);
        int failed = RunChains.failedRepetitions(target, AdaptiveMetropolis.of(1, true, Double.NaN), 1,
                x2::cumulativeProbability, 50, 3000, 2000, 25, 31);
        assertTrue(failed <= 3, failed + " of 50 repetitions failed");
    }

    @Test
    void withoutAdaptationItIsAFixedIsotropicRandomWalk() {
        Kernel<?> kernel = AdaptiveMetropolis.of(0.5, false, Double.NaN);
        RandomStreams streams = new RandomStreams(6);
        ChainState s = ChainRound.start(1, target, kernel, streams);
        double[] before = kernel.encodeState(s);
        s = ChainRound.run(target, kernel, s, 1, 1000, true, false, streams).state();
        assertArrayEquals(before, kernel.encodeState(s), 0.0);
        assertArrayEquals(new double[] {0.25, 0, 0, 0.25}, AdaptiveMetropolis.proposalCovariance(s), 1e-15);
    }
}
