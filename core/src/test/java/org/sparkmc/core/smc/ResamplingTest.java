package org.sparkmc.core.smc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.random.RandomStreams;

/**
 * Statistical tests of the resampling schemes against exact moments. Each replication is keyed by its own step, so
 * replications are independent draws.
 *
 * <p>Unbiasedness: 20,000 replications with N = 10; for each particle the mean offspring count must be within 4.5
 * standard errors (estimated from the replications) of N·W_i. Two-sided normal tail 6.8e-6 per particle, 10
 * particles per scheme: false-failure rate below 1e-4 per scheme (the counts are bounded, so the CLT is accurate at
 * 20,000 replications).
 */
class ResamplingTest {
    private static final double[] RAW = {5.1, 3.3, 2.7, 1.9, 1.2, 0.8, 0.5, 0.3, 0.2, 0.0};
    private static final int REPS = 20_000;
    private static final double Z = 4.5;

    static double[] weights() {
        double s = 0;
        for (double w : RAW) {
            s += w;
        }
        double[] w = new double[RAW.length];
        for (int i = 0; i < w.length; i++) {
            w[i] = RAW[i] / s;
        }
        return w;
    }

    /** [0] mean, [1] variance, [2] standard error of the variance, per particle. */
    static double[][] moments(ResamplingScheme scheme, long seed) {
        double[] w = weights();
        int n = w.length;
        RandomStreams streams = new RandomStreams(seed);
        double[][] counts = new double[n][REPS];
        for (int r = 0; r < REPS; r++) {
            int[] c = Resampling.offspring(scheme, w, n, streams, r);
            int total = 0;
            for (int i = 0; i < n; i++) {
                counts[i][r] = c[i];
                total += c[i];
            }
            assertEquals(n, total, "offspring must sum to N");
        }
        return moments(counts);
    }

    static double[][] moments(double[][] counts) {
        int n = counts.length;
        double[][] out = new double[3][n];
        for (int i = 0; i < n; i++) {
            double m = 0;
            for (double x : counts[i]) {
                m += x;
            }
            m /= REPS;
            double m2 = 0;
            double m4 = 0;
            for (double x : counts[i]) {
                double d = x - m;
                m2 += d * d;
                m4 += d * d * d * d;
            }
            m2 /= REPS - 1;
            m4 /= REPS;
            out[0][i] = m;
            out[1][i] = m2;
            out[2][i] = Math.sqrt(Math.max(0, m4 - m2 * m2) / REPS);
        }
        return out;
    }

    static void assertUnbiased(double[][] mom, String what) {
        double[] w = weights();
        int n = w.length;
        for (int i = 0; i < n; i++) {
            double expected = n * w[i];
            double se = Math.sqrt(mom[1][i] / REPS);
            if (se == 0) {
                assertEquals(expected, mom[0][i], 1e-9, what + ": particle " + i + " has a constant count");
            } else {
                double z = (mom[0][i] - expected) / se;
                assertTrue(Math.abs(z) < Z, what + ": particle " + i + " mean " + mom[0][i] + " vs N·W = " + expected
                        + " (z = " + z + ")");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(ResamplingScheme.class)
    void everySchemeIsUnbiased(ResamplingScheme scheme) {
        assertUnbiased(moments(scheme, 101 + scheme.ordinal()), scheme.name());
    }

    /** A systematic resampler with a fixed U = 1/2 instead of a uniform is biased: the same test must fail. */
    @Test
    void theUnbiasednessTestCatchesAFixedSystematicOffset() {
        double[] w = weights();
        int n = w.length;
        double[] lw = new double[n];
        for (int i = 0; i < n; i++) {
            lw[i] = Math.log(w[i]);
        }
        GlobalWeights g = GlobalWeights.of(0, List.of(BlockSummary.of(0, new double[0], lw, 0, n, 0,
                new double[n])));
        ResamplingDraw fixed = new ResamplingDraw() {
            @Override
            public long points() {
                return n;
            }

            @Override
            public PointCounter counter(double yFrom) {
                return y -> Math.min(n, (long) Math.ceil(y * n - 0.5));
            }
        };
        double[][] counts = new double[n][REPS];
        int[] c = new int[n];
        for (int r = 0; r < REPS; r++) {
            OffsetResampling.offspring(lw, 0, n, 0, g, fixed, c, 0);
            for (int i = 0; i < n; i++) {
                counts[i][r] = c[i];
            }
        }
        double[][] mom = moments(counts);
        boolean caught = false;
        try {
            assertUnbiased(mom, "fixed U");
        } catch (AssertionError expected) {
            caught = true;
        }
        assertTrue(caught, "a biased resampler passed the unbiasedness test");
    }

    /**
     * Variance ordering (Douc, Cappé &amp; Moulines 2005): each particle's offspring variance under systematic,
     * stratified and residual resampling is at most multinomial's exact N·W_i(1 − W_i). Per particle the sample
     * variance may exceed the bound by at most 4.5 of its standard errors (false failures below 1e-4 per scheme);
     * the summed variance must also be clearly smaller (below 80% of multinomial's; measured 19% systematic, 24% stratified, 31% residual). Multinomial's
     * own sample variances must match the exact values within 4.5 standard errors.
     */
    @Test
    void lowerVarianceSchemesBeatMultinomial() {
        double[] w = weights();
        int n = w.length;
        double[] exact = new double[n];
        double exactTotal = 0;
        for (int i = 0; i < n; i++) {
            exact[i] = n * w[i] * (1 - w[i]);
            exactTotal += exact[i];
        }
        double[][] multi = moments(ResamplingScheme.MULTINOMIAL, 7);
        for (int i = 0; i < n; i++) {
            if (exact[i] == 0) {
                assertEquals(0, multi[1][i]);
            } else {
                assertTrue(Math.abs(multi[1][i] - exact[i]) < Z * multi[2][i],
                        "multinomial variance of particle " + i + ": " + multi[1][i] + " vs exact " + exact[i]);
            }
        }
        for (ResamplingScheme s : List.of(ResamplingScheme.SYSTEMATIC, ResamplingScheme.STRATIFIED,
                ResamplingScheme.RESIDUAL)) {
            double[][] mom = moments(s, 8 + s.ordinal());
            double total = 0;
            for (int i = 0; i < n; i++) {
                total += mom[1][i];
                assertTrue(mom[1][i] <= exact[i] + Z * mom[2][i], s + ": variance of particle " + i + " is "
                        + mom[1][i] + " > multinomial's " + exact[i]);
            }
            assertTrue(total < 0.8 * exactTotal, s + ": total variance " + total + " vs multinomial " + exactTotal);
        }
    }

    /** Systematic counts are ⌊N·W_i⌋ or ⌈N·W_i⌉, the minimum-variance integer law with that mean. */
    @Test
    void systematicCountsAreFloorOrCeiling() {
        double[] w = weights();
        RandomStreams streams = new RandomStreams(5);
        for (int r = 0; r < 1000; r++) {
            int[] c = Resampling.offspring(ResamplingScheme.SYSTEMATIC, w, w.length, streams, r);
            for (int i = 0; i < w.length; i++) {
                double e = w.length * w[i];
                assertTrue(c[i] == Math.floor(e) || c[i] == Math.ceil(e), "particle " + i + ": " + c[i]);
            }
        }
    }

    @Test
    void ancestorsRepeatEachParticleByItsCount() {
        assertArrayEquals(new int[] {0, 0, 2, 3, 3, 3}, Resampling.ancestors(new int[] {2, 0, 1, 3}));
    }

    @Test
    void aDifferentNumberOfOffspring() {
        int[] c = Resampling.offspring(ResamplingScheme.STRATIFIED, weights(), 1000, new RandomStreams(1), 0);
        int total = 0;
        for (int x : c) {
            total += x;
        }
        assertEquals(1000, total);
        assertEquals(0, c[c.length - 1]);
    }

    /**
     * Plain weights all 0 are refused as such: the message spoke of an observation and of observation noise, which
     * a caller of the textbook form never passed. An empty array of log-weights has no ESS, not one of weights all
     * −∞.
     */
    @Test
    void weightsWithNothingToResampleAreRefusedForWhatTheyAre() {
        RandomStreams streams = new RandomStreams(3);
        String zero = assertThrows(IllegalArgumentException.class, () -> Resampling.offspring(
                ResamplingScheme.MULTINOMIAL, new double[] {0, 0, 0}, 3, streams, 1)).getMessage();
        assertTrue(zero.contains("every weight is 0") && !zero.contains("observation"), zero);
        String empty = assertThrows(IllegalArgumentException.class,
                () -> LogWeights.effectiveSampleSize(new double[0])).getMessage();
        assertTrue(empty.contains("no log-weights"), empty);
    }
}
