package org.sparkmc.core.smc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.random.Rng;
import org.sparkmc.core.smc.models.LocalLevelModel;

/** Bookkeeping of the particle system, checked exactly (deterministic: no false failures). */
class ParticleSystemTest {

    /**
     * A kernel whose moves are deterministic: particle i's state is its index plus the step, and log α_n^i is a known
     * function of (n, i). Lets the test recompute the SIS weights and likelihood increments by hand.
     */
    static class Known implements ParticleKernel {
        @Override
        public int dimension() {
            return 1;
        }

        static double logAlpha(int step, double state) {
            return -0.3 * step * Math.abs(state - 2) + 0.1 * step;
        }

        @Override
        public void propagate(int step, double[] data, double[] states, int from, int to, Rng rng,
                double[] logIncrement) {
            for (int i = from; i < to; i++) {
                states[i] = step == 0 ? i : states[i] + 0;
                logIncrement[i - from] = logAlpha(step, states[i]);
            }
        }
    }

    /** Without resampling, SIS weights are products of incremental weights and log p̂ = log Σ_i (1/N) Π_n α_n^i. */
    @Test
    void sisAccumulatesIncrementalWeights() {
        int n = 5;
        ParticleSystem sis = new ParticleSystem(new Known(), n, SmcOptions.sis().withBlockSize(2),
                new RandomStreams(1));
        double[] logR = new double[n];
        double previous = 0;
        for (int step = 0; step < 4; step++) {
            StepSummary s = sis.step(null);
            assertFalse(s.resampled());
            double[] inc = new double[n];
            for (int i = 0; i < n; i++) {
                inc[i] = Known.logAlpha(step, i);
            }
            LogWeights.update(logR, inc);
            double lse = LogWeights.logSumExp(logR) - Math.log(n);
            assertEquals(lse - previous, s.logLikelihoodIncrement(), 1e-12, "increment at step " + step);
            previous = lse;
            assertEquals(LogWeights.effectiveSampleSize(logR), s.ess(), 1e-9);
            double[] w = LogWeights.normalise(logR);
            double mean = 0;
            for (int i = 0; i < n; i++) {
                mean += w[i] * i;
            }
            assertEquals(mean, s.mean()[0], 1e-12);
        }
        assertEquals(previous, sis.logLikelihood(), 1e-12);
    }

    /**
     * With adaptive resampling, the increment is log Σ_i W_{n−1}^i α_n^i with the previous normalised weights (1/N after
     * a resampling step), whether or not the step resampled.
     */
    @Test
    void incrementUsesThePreviousNormalisedWeights() {
        int n = 6;
        ParticleSystem smc = new ParticleSystem(new Known(), n, SmcOptions.defaults().withEssThreshold(0.7)
                .withBlockSize(4), new RandomStreams(2));
        double[] states = new double[n];
        double[] w = new double[n];
        java.util.Arrays.fill(w, 1.0 / n);
        boolean sawResample = false;
        boolean sawKeep = false;
        for (int step = 0; step < 6; step++) {
            StepSummary s = smc.step(null);
            if (step == 0) {
                for (int i = 0; i < n; i++) {
                    states[i] = i;
                }
            }
            double[] lw = new double[n];
            for (int i = 0; i < n; i++) {
                lw[i] = Math.log(w[i]) + Known.logAlpha(step, states[i]);
            }
            assertEquals(LogWeights.logSumExp(lw), s.logLikelihoodIncrement(), 1e-12, "step " + step);
            double ess = LogWeights.effectiveSampleSize(lw);
            assertEquals(ess < 0.7 * n, s.resampled());
            if (s.resampled()) {
                sawResample = true;
                states = smc.states();
                java.util.Arrays.fill(w, 1.0 / n);
            } else {
                sawKeep = true;
                w = LogWeights.normalise(lw);
            }
        }
        assertTrue(sawResample && sawKeep, "the test should see both kinds of step");
    }

    /**
     * Weights collapse when every particle's observation density is exactly zero (bounded support: here uniform noise
     * on [x − 1, x + 1] and an observation far from every particle). Gaussian models cannot collapse in log space.
     */
    @Test
    void allZeroWeightsReportTheTimeStep() {
        ParticleKernel uniformNoise = new Known() {
            @Override
            public void propagate(int step, double[] y, double[] states, int from, int to, Rng rng,
                    double[] logIncrement) {
                for (int i = from; i < to; i++) {
                    states[i] = step == 0 ? rng.normal() : states[i] + rng.normal();
                    logIncrement[i - from] = Math.abs(y[0] - states[i]) <= 1 ? Math.log(0.5)
                            : Double.NEGATIVE_INFINITY;
                }
            }
        };
        ParticleSystem s = new ParticleSystem(uniformNoise, 100, SmcOptions.defaults().withBlockSize(16),
                new RandomStreams(3));
        s.step(new double[] {0.1});
        s.step(new double[] {0.2});
        WeightCollapseException e = assertThrows(WeightCollapseException.class, () -> s.step(new double[] {1e6}));
        assertEquals(2, e.step());
        assertTrue(e.getMessage().contains("time step 2"), e.getMessage());
        assertTrue(e instanceof InvalidInputException);
        // a far but possible observation under Gaussian noise does not collapse: log-weights stay finite
        ParticleSystem gaussian = new ParticleSystem(ParticleKernel.bootstrap(new LocalLevelModel(1e-6, 1, 0, 1)),
                100, SmcOptions.defaults(), new RandomStreams(3));
        assertTrue(gaussian.step(new double[] {1e6}).ess() >= 1);
    }

    @Test
    void aNaNLogDensityFailsTheStepNamingItAndTheBlock() {
        ParticleKernel nan = new Known() {
            @Override
            public void propagate(int step, double[] data, double[] states, int from, int to, Rng rng,
                    double[] logIncrement) {
                super.propagate(step, data, states, from, to, rng, logIncrement);
                logIncrement[0] = Double.NaN;
            }
        };
        ParticleSystem s = new ParticleSystem(nan, 10, SmcOptions.defaults(), new RandomStreams(3));
        WeightCollapseException e = assertThrows(WeightCollapseException.class, () -> s.step(null));
        assertTrue(e.getMessage().startsWith("non-finite weights at time step 0 (0-based): the model gave a particle "
                + "of block 0 the log-weight NaN"), e.getMessage());
    }

    @Test
    void missingObservationsFailOrAreSkippedByChoice() {
        ParticleKernel kernel = ParticleKernel.bootstrap(LocalLevelModel.nile());
        ParticleSystem failing = new ParticleSystem(kernel, 50, SmcOptions.defaults(), new RandomStreams(4));
        failing.step(new double[] {1120});
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> failing.step(new double[] {Double.NaN}));
        assertTrue(e.getMessage().contains("time step 1"), e.getMessage());

        ParticleSystem skipping = new ParticleSystem(kernel, 50,
                SmcOptions.defaults().withMissing(MissingObservations.SKIP), new RandomStreams(4));
        StepSummary first = skipping.step(new double[] {1120});
        double[] before = skipping.logWeights();
        StepSummary skipped = skipping.step(new double[] {Double.NaN});
        assertFalse(skipped.observed());
        assertTrue(first.observed());
        assertEquals(0, skipped.logLikelihoodIncrement(), 1e-12);
        if (!first.resampled()) {
            assertEquals(first.ess(), skipped.ess(), 1e-9, "no weighting at a skipped step");
        } else {
            assertEquals(50, skipped.ess(), 1e-9);
        }
        assertEquals(before.length, skipping.logWeights().length);
    }

    @Test
    void theSameSeedGivesTheSameRunAndAnotherSeedAnother() {
        double[][] y = NileData.load().values();
        ParticleKernel kernel = ParticleKernel.bootstrap(LocalLevelModel.nile());
        SmcOptions options = SmcOptions.defaults().withBlockSize(64);
        FilterResult a = ParticleFilter.run(kernel, 500, options, new RandomStreams(9), y);
        FilterResult b = ParticleFilter.run(kernel, 500, options, new RandomStreams(9), y);
        FilterResult c = ParticleFilter.run(kernel, 500, options, new RandomStreams(10), y);
        assertEquals(a.logLikelihood(), b.logLikelihood(), 0.0);
        for (int n = 0; n < y.length; n++) {
            assertArrayEquals(a.steps().get(n).mean(), b.steps().get(n).mean(), 0.0);
        }
        assertNotEquals(a.logLikelihood(), c.logLikelihood());
    }

    @Test
    void anObservationOfTheWrongDimensionIsRefused() {
        ParticleSystem s = new ParticleSystem(ParticleKernel.bootstrap(LocalLevelModel.nile()), 50,
                SmcOptions.defaults(), new RandomStreams(4));
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> s.step(new double[] {1120, 1130}));
        assertTrue(e.getMessage().contains("time step 0 has 2 values, the model expects 1"), e.getMessage());
        s.step(new double[] {1120});
        assertThrows(InvalidInputException.class, () -> s.step(new double[0]));
    }

    @Test
    void argumentsAreChecked() {
        ParticleKernel kernel = ParticleKernel.bootstrap(LocalLevelModel.nile());
        assertThrows(InvalidInputException.class,
                () -> new ParticleSystem(kernel, 0, SmcOptions.defaults(), new RandomStreams(1)));
        assertThrows(InvalidInputException.class, () -> SmcOptions.defaults().withEssThreshold(1.5));
        assertThrows(InvalidInputException.class, () -> SmcOptions.defaults().withBlockSize(0));
        assertThrows(InvalidInputException.class, () -> ResamplingScheme.parse("bogus"));
        assertEquals(ResamplingScheme.STRATIFIED, ResamplingScheme.parse(" Stratified "));
        assertEquals(MissingObservations.SKIP, MissingObservations.parse("skip"));
    }
}
