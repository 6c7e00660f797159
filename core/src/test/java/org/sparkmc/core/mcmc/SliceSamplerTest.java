package org.sparkmc.core.mcmc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.DoubleUnaryOperator;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.model.BimodalMixture;
import org.sparkmc.core.random.RandomStreams;

/**
 * Slice sampling against exact distributions: 50 repetitions × chi-square at 1% on 2,000 thinned draws, failing
 * if more than 3 fail (≈ 0.16% false alarms per check of a correct kernel; ≈ 0.3% for the coordinate-wise test,
 * which checks both methods).
 */
class SliceSamplerTest {
    private static final NormalDistribution A = NormalDistribution.of(0, Math.sqrt(2.5));
    private static final NormalDistribution B = NormalDistribution.of(10, Math.sqrt(2.5));
    private static final DoubleUnaryOperator BIMODAL_CDF =
            x -> 0.3 * A.cumulativeProbability(x) + 0.7 * B.cumulativeProbability(x);

    @Test
    void steppingOutSamplesTheBimodalMixture() {
        // Width 10 lets stepping out cross between the modes; 10 iterations between kept draws.
        int failed = RunChains.failedRepetitions(new BimodalMixture(5),
                SliceSampler.of(SliceSampler.Method.STEPPING_OUT, 10, false), 0, BIMODAL_CDF, 50, 200, 2000, 10, 41);
        assertTrue(failed <= 3, failed + " of 50 repetitions failed");
    }

    @Test
    void doublingSamplesTheBimodalMixture() {
        int failed = RunChains.failedRepetitions(new BimodalMixture(5),
                SliceSampler.of(SliceSampler.Method.DOUBLING, 2, false), 0, BIMODAL_CDF, 50, 200, 2000, 10, 42);
        assertTrue(failed <= 3, failed + " of 50 repetitions failed");
    }

    @Test
    void coordinateWiseSamplesACorrelatedNormalWithAdaptedWidths() {
        NormalDistribution x1 = NormalDistribution.of(0, 1);
        for (SliceSampler.Method m : SliceSampler.Method.values()) {
            int failed = RunChains.failedRepetitions(new CorrelatedNormal(1, 3, 0.6), SliceSampler.of(m, 0.1, true),
                    0, x1::cumulativeProbability, 50, 500, 2000, 5, 43);
            assertTrue(failed <= 3, m + ": " + failed + " of 50 repetitions failed");
        }
    }

    @Test
    void widthsAdaptInWarmupAndFreezeAfter() {
        Kernel<?> kernel = SliceSampler.of(SliceSampler.Method.STEPPING_OUT, 0.01, true);
        CorrelatedNormal target = new CorrelatedNormal(1, 10, 0);
        RandomStreams streams = new RandomStreams(7);
        ChainState s = ChainRound.start(1, target, kernel, streams);
        s = ChainRound.run(target, kernel, s, 1, 2000, true, false, streams).state();
        double w1 = SliceSampler.width(s, 0);
        double w2 = SliceSampler.width(s, 1);
        assertNotEquals(0.01, w1);
        // Independent coordinates: E|Δx| for an exact draw is 2σ/√π, so w ≈ 2.26σ (±20%: a 2,000-step average).
        assertEquals(2.26, w1, 0.45);
        assertEquals(22.6, w2, 4.5);
        double[] frozen = kernel.encodeState(s);
        s = ChainRound.run(target, kernel, s, 2, 2000, false, true, streams).state();
        assertArrayEquals(frozen, kernel.encodeState(s), 0.0);
    }

    /**
     * Without Neal's acceptance check the doubling procedure is not reversible. On the bimodal mixture with a small
     * initial width the broken sampler's draws fail the same chi-square test that the correct one passes.
     */
    @Test
    void doublingWithoutItsAcceptanceCheckFails() {
        int failed = RunChains.failedRepetitions(new BimodalMixture(5),
                SliceSampler.doublingWithoutAcceptanceCheck(2), 0, BIMODAL_CDF, 50, 200, 2000, 10, 42);
        assertTrue(failed > 3, "the broken sampler passed: only " + failed + " of 50 repetitions failed");
    }
}
