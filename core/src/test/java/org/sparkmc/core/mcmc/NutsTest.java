package org.sparkmc.core.mcmc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.catalog.KernelCatalog;
import org.sparkmc.core.model.BimodalMixture;
import org.sparkmc.core.model.GradientTarget;
import org.sparkmc.core.random.RandomStreams;

/**
 * NUTS's plumbing and its law on exact targets: the chi-square pattern of {@link RunChains#failedRepetitions}
 * (50 repetitions of a 1% test on 20 bins, fail when more than 3 fail: ≈ 0.2% false failures for near-independent
 * draws) on a correlated Gaussian; the step size and metric adapted in warm-up and frozen after; divergences
 * flagged where the density drops to zero; a target without a gradient refused. Fixed seeds.
 */
class NutsTest {

    /** Uniform on the cube (−1, 1)^2: the density drops to zero at its faces, where trajectories diverge. */
    record Box() implements GradientTarget {
        @Override
        public int dimension() {
            return 2;
        }

        @Override
        public double logDensity(double[] x) {
            return Math.abs(x[0]) < 1 && Math.abs(x[1]) < 1 ? 0 : Double.NEGATIVE_INFINITY;
        }

        @Override
        public double logDensityGradient(double[] x, double[] g) {
            g[0] = 0;
            g[1] = 0;
            return logDensity(x);
        }

        @Override
        public double[] initialPosition(org.sparkmc.core.random.Rng rng) {
            return new double[] {2 * rng.uniform() - 1, 2 * rng.uniform() - 1};
        }
    }

    private static ChainState warmedUp(CorrelatedNormal target, Nuts kernel, int warmup, RandomStreams streams) {
        ChainState s = ChainRound.start(1, target, kernel, streams);
        return ChainRound.run(target, kernel, s, 1, warmup, true, false, streams).state();
    }

    @Test
    void samplesACorrelatedGaussianExactly() {
        CorrelatedNormal target = new CorrelatedNormal(1, 10, 0.9);
        NormalDistribution x2 = NormalDistribution.of(0, 10);
        int failed = RunChains.failedRepetitions(target, Nuts.of(500, true, Double.NaN), 1, x2::cumulativeProbability,
                50, 500, 2000, 2, 41);
        assertTrue(failed <= 3, failed + " of 50 repetitions failed");
    }

    @Test
    void adaptsStepSizeAndMetricInWarmupAndFreezesThem() {
        CorrelatedNormal target = new CorrelatedNormal(0.01, 100, 0);
        Nuts kernel = Nuts.of(1000, true, Double.NaN);
        RandomStreams streams = new RandomStreams(5);
        ChainState s = warmedUp(target, kernel, 1000, streams);
        Nuts.State state = kernel.stateOf(s);
        double[] metric = state.inverseMetric();
        // the last window (iterations 450-949, n = 500) estimates the variances within 30%, with Stan's
        // regularisation (n/(n + 5))·σ̂² + 10⁻³·5/(n + 5)
        double shrink = 500.0 / 505;
        double floor = 1e-3 * 5 / 505;
        assertEquals(shrink * 1e-4 + floor, metric[0], 0.3e-4 * shrink, "variance of x1");
        assertEquals(shrink * 1e4 + floor, metric[1], 0.3e4 * shrink, "variance of x2");
        RoundResult sampling = ChainRound.run(target, kernel, s, 2, 2000, false, true, streams);
        double[] frozen = kernel.encodeState(ChainRound.run(target, kernel, s, 2, 1, false, false, streams).state());
        assertArrayEquals(frozen, kernel.encodeState(sampling.state()), 0.0, "frozen after warm-up");
        double[] accept = sampling.draws()[3];
        double mean = java.util.Arrays.stream(accept).average().orElseThrow();
        // dual averaging steers the statistic to δ = 0.8 during warm-up; the kept step size e^x̄ averages the
        // iterates and is a little more cautious, so the sampling mean ends somewhat above δ, as in Stan
        assertTrue(mean > 0.75 && mean < 0.97, "mean accept_stat__ " + mean);
        double[] stepsize = sampling.draws()[4];
        assertEquals(stepsize[0], stepsize[stepsize.length - 1], 0.0, "one step size after warm-up");
        assertEquals(List.of("x[1]", "x[2]", "lp__", "accept_stat__", "stepsize__", "treedepth__", "n_leapfrog__",
                "divergent__", "energy__"), ChainRound.recordedNames(target, kernel));
    }

    @Test
    void theStateSurvivesItsCodec() {
        CorrelatedNormal target = new CorrelatedNormal(1, 2, 0.5);
        Nuts kernel = Nuts.of(200, true, Double.NaN);
        RandomStreams streams = new RandomStreams(6);
        ChainState s = warmedUp(target, kernel, 120, streams);
        ChainState copy = s.copy(kernel);
        RoundResult a = ChainRound.run(target, kernel, s, 2, 300, true, true, streams);
        RoundResult b = ChainRound.run(target, kernel, copy, 2, 300, true, true, streams);
        for (int row = 0; row < a.draws().length; row++) {
            assertArrayEquals(a.draws()[row], b.draws()[row], 0.0);
        }
        assertArrayEquals(kernel.encodeState(a.state()), kernel.encodeState(b.state()), 0.0);
    }

    @Test
    void flagsDivergencesWhereTheDensityDropsToZeroAndStaysInTheSupport() {
        Box box = new Box();
        Nuts kernel = Nuts.of(0, false, Double.NaN);
        RandomStreams streams = new RandomStreams(7);
        ChainState s = ChainRound.start(1, box, kernel, streams);
        RoundResult r = ChainRound.run(box, kernel, s, 1, 2000, false, true, streams);
        double divergent = java.util.Arrays.stream(r.draws()[7]).sum();
        assertTrue(divergent > 1000, "step size 1 on a box of side 2: most trajectories leave it, " + divergent);
        for (double x : r.draws()[0]) {
            assertTrue(Math.abs(x) < 1, "a draw outside the support: " + x);
        }
    }

    @Test
    void refusesATargetWithoutAGradient() {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> KernelCatalog.create("nuts",
                new KernelSettings(1, true, Double.NaN), new BimodalMixture(5)));
        assertTrue(e.getMessage().contains("needs the gradient") && e.getMessage().contains("GradientTarget"),
                e.getMessage());
    }
}
