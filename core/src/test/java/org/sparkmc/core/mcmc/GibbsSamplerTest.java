package org.sparkmc.core.mcmc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.model.BimodalMixture;
import org.sparkmc.core.random.RandomStreams;

/**
 * Gibbs sampling against a bivariate normal (sds 1 and 2, ρ = 0.8): 50 repetitions × chi-square at 1% on 2,000
 * draws thinned by 10, failing if more than 3 fail (≈ 0.16% false alarms per scan of a correct sampler; ≈ 0.3% for
 * the test, which checks both scans).
 */
class GibbsSamplerTest {
    private final CorrelatedNormal target = new CorrelatedNormal(1, 2, 0.8);

    @Test
    void systematicAndRandomScanSampleTheJoint() {
        NormalDistribution x2 = NormalDistribution.of(0, 2);
        for (GibbsSampler.Scan scan : GibbsSampler.Scan.values()) {
            int failed = RunChains.failedRepetitions(target, GibbsSampler.of(scan), 1, x2::cumulativeProbability, 50,
                    100, 2000, 10, 51);
            assertTrue(failed <= 3, scan + ": " + failed + " of 50 repetitions failed");
        }
    }

    /** The correlation E[x1·x2] = ρ·s1·s2 = 1.6 within 4 MCSE (fixed seed; ≈ 6e-5 false alarms for a fresh seed). */
    @Test
    void reproducesTheCorrelation() {
        CorrelatedProduct product = new CorrelatedProduct(target);
        RunChains.Result r = RunChains.run(product, GibbsSampler.of(GibbsSampler.Scan.RANDOM), 4, 100, 20_000, 52);
        assertTrue(Math.abs(r.mean(0) - 1.6) < 4 * r.mcse(0), r.mean(0) + " ± " + r.mcse(0));
        assertEquals(1.0, r.acceptance());
    }

    @Test
    void refusesATargetWithoutFullConditionals() {
        Kernel<?> gibbs = GibbsSampler.of(GibbsSampler.Scan.SYSTEMATIC);
        BimodalMixture bimodal = new BimodalMixture(5);
        ChainState s = ChainRound.start(1, bimodal, gibbs, new RandomStreams(1));
        assertThrows(IllegalArgumentException.class, () -> gibbs.advance(bimodal, s, null, false));
    }

    /** Reports x1·x2 of the correlated normal. */
    record CorrelatedProduct(CorrelatedNormal inner) implements org.sparkmc.core.model.FullConditionals {
        @Override
        public int dimension() {
            return 2;
        }

        @Override
        public double logDensity(double[] x) {
            return inner.logDensity(x);
        }

        @Override
        public int blockCount() {
            return 2;
        }

        @Override
        public void sampleBlock(int block, double[] x, org.sparkmc.core.random.Rng rng) {
            inner.sampleBlock(block, x, rng);
        }

        @Override
        public java.util.List<String> parameterNames() {
            return java.util.List.of("x1x2");
        }

        @Override
        public double[] parameters(double[] x) {
            return new double[] {x[0] * x[1]};
        }
    }
}
