package org.sparkmc.core.diagnostics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.function.ToDoubleFunction;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Properties the diagnostics must have whatever the reference values: behaviour on iid and shifted chains,
 * invariances, the antithetic cap, agreement with naive O(S²) computations, and posterior's NA cases.
 * All random inputs use fixed seeds, so every test is deterministic.
 */
class DiagnosticsPropertiesTest {

    private static double[][] iidNormal(long seed, int chains, int draws) {
        UniformRandomProvider rng = RandomSource.XO_SHI_RO_256_PP.create(seed);
        ZigguratSampler.NormalizedGaussian normal = ZigguratSampler.NormalizedGaussian.of(rng);
        double[][] x = new double[chains][draws];
        for (double[] chain : x) {
            for (int i = 0; i < draws; i++) {
                chain[i] = normal.sample();
            }
        }
        return x;
    }

    private static double[][] ar1(long seed, int chains, int draws, double phi) {
        double[][] e = iidNormal(seed, chains, draws);
        double[][] x = new double[chains][draws];
        double scale = Math.sqrt(1 - phi * phi);
        for (int c = 0; c < chains; c++) {
            x[c][0] = e[c][0];
            for (int i = 1; i < draws; i++) {
                x[c][i] = phi * x[c][i - 1] + scale * e[c][i];
            }
        }
        return x;
    }

    private static double[][] copy(double[][] x) {
        double[][] out = new double[x.length][];
        for (int c = 0; c < x.length; c++) {
            out[c] = x[c].clone();
        }
        return out;
    }

    // --- behaviour ---------------------------------------------------------------------------------------------

    /** Fixed seed; for iid draws R-hat is 1 + O(1/S) and ESS ≈ S (the estimator's sd is a few % of S). */
    @Test
    void iidChainsHaveRhatNearOneAndEssNearS() {
        double[][] x = iidNormal(42, 4, 1000);
        double s = 4000;
        assertTrue(Math.abs(Rhat.rhat(x) - 1) < 0.01, "rhat " + Rhat.rhat(x));
        assertTrue(Math.abs(Rhat.basic(x, true) - 1) < 0.01);
        for (ToDoubleFunction<double[][]> ess : java.util.List.<ToDoubleFunction<double[][]>>of(
                EffectiveSampleSize::bulk, EffectiveSampleSize::mean, EffectiveSampleSize::tail,
                EffectiveSampleSize::median, EffectiveSampleSize::sd)) {
            double value = ess.applyAsDouble(x);
            assertTrue(value > 0.8 * s && value < 1.25 * s, "ESS of iid draws " + value);
        }
        // MCSE of the mean of iid draws ≈ sd / sqrt(S)
        double mcse = MonteCarloStandardError.mean(x);
        assertEquals(PooledStatistics.sd(x) / Math.sqrt(s), mcse, 0.1 * mcse);
    }

    @Test
    void shiftingOneChainRaisesRhat() {
        double[][] x = iidNormal(7, 4, 1000);
        double before = Rhat.rhat(x);
        double[][] shifted = copy(x);
        for (int i = 0; i < shifted[2].length; i++) {
            shifted[2][i] += 1.0;
        }
        double after = Rhat.rhat(shifted);
        assertTrue(after > 1.05 && after > before + 0.04, "rhat " + before + " -> " + after);
        assertTrue(Rhat.basic(shifted, false) > 1.05);
        assertTrue(EffectiveSampleSize.bulk(shifted) < 0.1 * EffectiveSampleSize.bulk(x));
    }

    @Test
    void scaleDifferenceShowsInTailRhatOnly() {
        double[][] x = iidNormal(11, 4, 1000);
        for (int i = 0; i < x[3].length; i++) {
            x[3][i] *= 3;
        }
        assertTrue(Rhat.bulk(x) < 1.01, "bulk " + Rhat.bulk(x));
        assertTrue(Rhat.tail(x) > 1.05, "tail " + Rhat.tail(x));
        assertEquals(Rhat.tail(x), Rhat.rhat(x));
    }

    @Test
    void autocorrelatedChainsHaveSmallerEss() {
        double[][] x = ar1(3, 4, 2000, 0.9);
        // integrated autocorrelation time of AR(1) is (1 + phi)/(1 - phi) = 19
        double ess = EffectiveSampleSize.basic(x, true);
        assertTrue(ess > 8000 / 19.0 * 0.7 && ess < 8000 / 19.0 * 1.4, "ESS " + ess);
    }

    /** For antithetic chains τ̂ falls below 1/log10(S) and posterior caps the ESS at S·log10(S). */
    @Test
    void antitheticEssIsCappedAtSLog10S() {
        int chains = 4;
        int n = 1000;
        double s = chains * n;
        // AR(1) with phi = -0.9: tau = (1 + phi)/(1 - phi) = 0.05 < 1/log10(4000) = 0.28
        double[][] x = ar1(5, chains, n, -0.9);
        assertEquals(s * Math.log10(s), EffectiveSampleSize.basic(x, true), 1e-9 * s);
        assertEquals(s * Math.log10(s), EffectiveSampleSize.basic(x, false), 1e-9 * s);
        // AR(1) with phi = -0.5: ESS above S, below the cap
        double ess = EffectiveSampleSize.basic(ar1(6, chains, n, -0.5), true);
        assertTrue(ess > s && ess < s * Math.log10(s), "ESS " + ess);
    }

    /**
     * When the first pair ρ̂₀ + ρ̂₁ is not positive (a perfectly alternating chain) posterior's loop stops at lag 0
     * and its {@code sum(rho_hat_t[1:0])} — R's 1:0 is c(1, 0) — adds ρ̂₀ once: τ̂ = −1 + 2 + 1 = 2, ESS = S/2.
     */
    @Test
    void alternatingChainsFollowPosteriorLagZeroRule() {
        double[][] x = iidNormal(5, 4, 1000);
        for (double[] chain : x) {
            for (int i = 0; i < chain.length; i++) {
                chain[i] = (i % 2 == 0 ? 1 : -1) + 1e-3 * chain[i];
            }
        }
        GeyerEss estimate = GeyerEss.estimate(Draws.split(x));
        assertEquals(0, estimate.maxLag());
        assertEquals(2.0, estimate.tauUncapped(), 1e-15);
        assertEquals(2000.0, EffectiveSampleSize.basic(x, true), 1e-9);
    }

    // --- invariances -------------------------------------------------------------------------------------------

    private static final String[] NAMES = {"rhat", "rhatBasic", "rhatBasicNoSplit", "essBulk", "essTail",
        "essBasic", "essBasicNoSplit", "essSd", "essSdAbs", "essMedian", "mcseMean", "mcseSd", "mcseQ5", "mean",
        "sd", "q5", "q95"};

    private static double[] all(double[][] x) {
        return new double[] {Rhat.rhat(x), Rhat.basic(x, true), Rhat.basic(x, false), EffectiveSampleSize.bulk(x),
            EffectiveSampleSize.tail(x), EffectiveSampleSize.basic(x, true), EffectiveSampleSize.basic(x, false),
            EffectiveSampleSize.sd(x), EffectiveSampleSize.sdAbsoluteDeviation(x), EffectiveSampleSize.median(x),
            MonteCarloStandardError.mean(x), MonteCarloStandardError.sd(x),
            MonteCarloStandardError.quantile(x, 0.05), PooledStatistics.mean(x), PooledStatistics.sd(x),
            PooledStatistics.quantile(x, 0.05), PooledStatistics.quantile(x, 0.95)};
    }

    private static void assertAllClose(double[] expected, double[] actual, double relTol) {
        for (int i = 0; i < expected.length; i++) {
            SharedData.assertRelativelyClose(NAMES[i], expected[i], actual[i], relTol);
        }
    }

    @ParameterizedTest(name = "{0} draws per chain")
    @ValueSource(ints = {1000, 999})
    void resultsDoNotDependOnChainOrder(int n) {
        double[][] x = ar1(21, 5, n, 0.6);
        double[][] permuted = {x[3], x[0], x[4], x[2], x[1]};
        assertAllClose(all(x), all(permuted), 1e-12);
    }

    /** Reversing every chain swaps and reverses the split halves; autocovariances and variances do not change. */
    @ParameterizedTest(name = "{0} draws per chain")
    @ValueSource(ints = {1000, 999})
    void resultsDoNotDependOnTimeDirection(int n) {
        double[][] x = ar1(22, 3, n, 0.6);
        double[][] reversed = new double[x.length][n];
        for (int c = 0; c < x.length; c++) {
            for (int i = 0; i < n; i++) {
                reversed[c][i] = x[c][n - 1 - i];
            }
        }
        assertAllClose(all(x), all(reversed), 1e-12);
    }

    @Test
    void rankBasedDiagnosticsAreInvariantUnderMonotoneTransforms() {
        double[][] x = ar1(23, 4, 500, 0.5);
        double[][] y = Draws.map(x, v -> Math.exp(3 * v) + 2);
        assertEquals(Rhat.bulk(x), Rhat.bulk(y), 1e-12);
        assertEquals(EffectiveSampleSize.bulk(x), EffectiveSampleSize.bulk(y), 1e-9);
        assertEquals(EffectiveSampleSize.tail(x), EffectiveSampleSize.tail(y), 1e-9);
        assertEquals(EffectiveSampleSize.median(x), EffectiveSampleSize.median(y), 1e-9);
    }

    @Test
    void diagnosticsDoNotModifyTheirInput() {
        double[][] x = ar1(24, 3, 301, 0.3);
        double[][] before = copy(x);
        all(x);
        FullParameterSummary.of("x", x);
        ParameterSummary.of("x", x);
        for (int c = 0; c < x.length; c++) {
            assertArrayEquals(before[c], x[c]);
        }
    }

    // --- agreement with naive computations -----------------------------------------------------------------------

    private static double[] naiveAutocovariance(double[] x) {
        int n = x.length;
        double mean = Arrays.stream(x).sum() / n;
        double[] out = new double[n];
        for (int t = 0; t < n; t++) {
            double s = 0;
            for (int i = 0; i + t < n; i++) {
                s += (x[i] - mean) * (x[i + t] - mean);
            }
            out[t] = s / n;
        }
        return out;
    }

    @ParameterizedTest(name = "N = {0}")
    @ValueSource(ints = {1, 2, 3, 7, 64, 500, 1001})
    void fftAutocovarianceEqualsDirectSum(int n) {
        double[] x = ar1(n, 1, n, 0.7)[0];
        double[] fft = Autocovariance.of(x);
        double[] direct = naiveAutocovariance(x);
        for (int t = 0; t < n; t++) {
            assertEquals(direct[t], fft[t], 1e-12 * direct[0], "lag " + t);
        }
    }

    @ParameterizedTest(name = "{0} chains")
    @ValueSource(ints = {1, 2, 3, 5})
    void chainAveragedAutocovarianceEqualsAverageOfChains(int m) {
        double[][] x = ar1(100 + m, m, 333, 0.4);
        double[] mean = Autocovariance.meanOverChains(x);
        for (int t = 0; t < 333; t++) {
            double expected = 0;
            for (double[] chain : x) {
                expected += naiveAutocovariance(chain)[t] / m;
            }
            assertEquals(expected, mean[t], 1e-12, "lag " + t);
        }
    }

    @Test
    void autocovarianceOfConstantIsZero() {
        assertArrayEquals(new double[5], Autocovariance.of(new double[] {2.5, 2.5, 2.5, 2.5, 2.5}));
    }

    /** z = Φ⁻¹((r − 3/8)/(S + 1/4)) with r = #below + (#equal + 1)/2 over the kept (split) draws. */
    private static double[][] naiveZ(double[][] split) {
        int total = split.length * split[0].length;
        double[][] out = new double[split.length][split[0].length];
        NormalDistribution normal = NormalDistribution.of(0, 1);
        for (int c = 0; c < split.length; c++) {
            for (int i = 0; i < split[c].length; i++) {
                double v = split[c][i];
                int below = 0;
                int equal = 0;
                for (double[] chain : split) {
                    for (double w : chain) {
                        if (w < v) {
                            below++;
                        } else if (w == v) {
                            equal++;
                        }
                    }
                }
                double r = below + (equal + 1) / 2.0;
                out[c][i] = normal.inverseCumulativeProbability((r - 0.375) / (total + 0.25));
            }
        }
        return out;
    }

    @ParameterizedTest(name = "{0} draws per chain")
    @ValueSource(ints = {200, 201})
    void rankNormalizationMatchesNaiveRanksWithTies(int n) {
        // rounded draws: many ties; odd n drops each chain's middle draw before ranking
        double[][] x = Draws.map(ar1(31, 3, n, 0.5), v -> Math.rint(4 * v) / 4);
        PooledDraws pooled = PooledDraws.of(x);
        double[][] z = pooled.rankNormalizedSplit();
        double[][] expected = naiveZ(Draws.split(x));
        double median = PooledStatistics.median(x);
        double[][] zFolded = pooled.foldedRankNormalizedSplit();
        double[][] expectedFolded = naiveZ(Draws.split(Draws.map(x, v -> Math.abs(v - median))));
        for (int c = 0; c < z.length; c++) {
            assertArrayEquals(expected[c], z[c], 1e-15);
            assertArrayEquals(expectedFolded[c], zFolded[c], 1e-15);
        }
    }

    @Test
    void splitDropsTheMiddleDrawOfOddChains() {
        double[][] split = Draws.split(new double[][] {{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}});
        assertArrayEquals(new double[][] {{1, 2}, {6, 7}, {4, 5}, {9, 10}}, split);
        assertArrayEquals(new double[][] {{1, 2}, {6, 7}, {3, 4}, {8, 9}},
                Draws.split(new double[][] {{1, 2, 3, 4}, {6, 7, 8, 9}}));
    }

    /** R: quantile(1:10, c(0, .33, .5, 1)) = 1, 3.97, 5.5, 10; quantile(c(1, 2, 3, 4), 0.3) = 1.9. */
    @Test
    void quantilesAreRType7() {
        double[][] x = {{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}};
        assertEquals(1.0, PooledStatistics.quantile(x, 0));
        assertEquals(3.97, PooledStatistics.quantile(x, 0.33), 1e-15);
        assertEquals(5.5, PooledStatistics.quantile(x, 0.5));
        assertEquals(5.5, PooledStatistics.median(x));
        assertEquals(10.0, PooledStatistics.quantile(x, 1));
        assertEquals(1.9, PooledStatistics.quantile(new double[][] {{4, 1}, {3, 2}}, 0.3), 1e-15);
        assertArrayEquals(new double[] {1.45, 9.55}, PooledStatistics.quantiles(x, 0.05, 0.95), 1e-14);
        // R: mad(1:10) = 3.7065
        assertEquals(3.7065, PooledStatistics.mad(x), 1e-12);
    }

    /** The summaries share one sort; they must equal the standalone functions exactly. */
    @ParameterizedTest(name = "{0} draws per chain")
    @ValueSource(ints = {400, 401})
    void summariesEqualStandaloneFunctions(int n) {
        double[][] x = ar1(41, 4, n, 0.8);
        ParameterSummary s = ParameterSummary.of("theta", x);
        assertEquals("theta", s.name());
        assertEquals(PooledStatistics.mean(x), s.mean());
        assertEquals(PooledStatistics.sd(x), s.sd());
        assertEquals(PooledStatistics.quantile(x, 0.05), s.q5());
        assertEquals(PooledStatistics.median(x), s.q50());
        assertEquals(PooledStatistics.quantile(x, 0.95), s.q95());
        assertEquals(Rhat.rhat(x), s.rhat());
        assertEquals(EffectiveSampleSize.bulk(x), s.essBulk());
        assertEquals(EffectiveSampleSize.tail(x), s.essTail());
        assertEquals(MonteCarloStandardError.mean(x), s.mcseMean());
        FullParameterSummary f = FullParameterSummary.of("theta", x);
        assertEquals(PooledStatistics.median(x), f.median());
        assertEquals(PooledStatistics.mad(x), f.mad());
        assertEquals(Rhat.basic(x, true), f.rhatBasic());
        assertEquals(EffectiveSampleSize.basic(x, true), f.essBasic());
        assertEquals(EffectiveSampleSize.mean(x), f.essMean());
        assertEquals(EffectiveSampleSize.sd(x), f.essSd());
        assertEquals(EffectiveSampleSize.quantile(x, 0.05), f.essQ5());
        assertEquals(EffectiveSampleSize.quantile(x, 0.95), f.essQ95());
        assertEquals(EffectiveSampleSize.median(x), f.essMedian());
        assertEquals(MonteCarloStandardError.sd(x), f.mcseSd());
        assertEquals(MonteCarloStandardError.quantile(x, 0.05), f.mcseQ5());
        assertEquals(MonteCarloStandardError.quantile(x, 0.95), f.mcseQ95());
        assertEquals(MonteCarloStandardError.median(x), f.mcseMedian());
        assertEquals(s.rhat(), f.rhat());
        assertEquals(s.essBulk(), f.essBulk());
        assertEquals(s.essTail(), f.essTail());
        assertEquals(s, f.brief()); // the chains job's last round takes its diagnostics from the full summary
    }

    /**
     * The one-pass series are exactly the two-pass definitions (split of a map): the squared deviations the summaries
     * use, and the indicator series the counted quantile ESS is checked against ({@link IndicatorAutocovarianceTest}).
     */
    @ParameterizedTest(name = "{0} draws per chain")
    @ValueSource(ints = {1, 2, 7, 400, 401})
    void onePassSeriesEqualSplitOfMap(int n) {
        double[][] x = ar1(43, 3, n, 0.5);
        double t = PooledStatistics.median(x);
        assertTrue(Arrays.deepEquals(Draws.split(Draws.map(x, v -> v <= t ? 1.0 : 0.0)),
                Draws.indicatorSplit(x, t)));
        double mean = Draws.mean(x);
        assertTrue(Arrays.deepEquals(Draws.map(x, v -> (v - mean) * (v - mean)), Draws.squaredDeviations(x, mean)));
        PooledDraws pooled = PooledDraws.of(x);
        assertEquals(Draws.shouldReturnNaN(x), pooled.shouldReturnNaN());
        double[][][] specials = {{{1, 1}, {1, 1}}, {{1, Double.NaN}}, {{1, Double.NEGATIVE_INFINITY}}};
        for (double[][] special : specials) {
            assertTrue(PooledDraws.of(special).shouldReturnNaN());
        }
    }

    /**
     * The summaries skip posterior's {@code should_return_NA} scan where the series is known: an indicator whose kept
     * draws all fall on one side of the threshold, and normal scores of draws that all tie, are exactly the series
     * the scan calls constant. Odd chains drop their middle draw, so draws that differ only there count as tied.
     */
    @ParameterizedTest(name = "{0} draws per chain")
    @ValueSource(ints = {1, 2, 3, 7, 400, 401})
    void skippedScansAgreeWithTheScan(int n) {
        double[][] noisy = Draws.map(ar1(44, 3, n, 0.5), v -> Math.rint(2 * v) / 2);
        double[][] tiedButMiddle = new double[3][n];
        for (double[] chain : tiedButMiddle) {
            Arrays.fill(chain, 2.0);
            chain[n / 2] = -5.0; // dropped by the split when n is odd and above 1
        }
        for (double[][] x : new double[][][] {noisy, tiedButMiddle, {{4, 4, 4}, {4, 4, 4}}}) {
            PooledDraws pooled = PooledDraws.of(x);
            java.util.SortedSet<Double> thresholds = new java.util.TreeSet<>();
            for (double v : pooled.sorted) {
                thresholds.add(v);
                thresholds.add(v - 0.25);
            }
            thresholds.add(pooled.sorted[pooled.size - 1] + 1);
            for (double t : thresholds) {
                assertEquals(Draws.shouldReturnNaN(Draws.indicatorSplit(x, t)), pooled.splitAllOnOneSide(t),
                        n + " draws, threshold " + t);
            }
            double[][] z = pooled.rankNormalizedSplit();
            double median = pooled.median();
            double[][] folded = pooled.foldedRankNormalizedSplit();
            double[][] splitDraws = Draws.split(x);
            assertEquals(Draws.shouldReturnNaN(splitDraws), z == null, n + " draws: scores null iff draws tie");
            assertEquals(Draws.shouldReturnNaN(Draws.map(splitDraws, v -> Math.abs(v - median))), folded == null,
                    n + " draws: folded scores null iff folded draws tie");
            for (double[][] scores : new double[][][] {z, folded}) {
                if (scores != null) {
                    assertFalse(Draws.shouldReturnNaN(scores), "scores returned are finite and vary");
                    assertEquals(Rhat.ofChains(scores), Rhat.ofCheckedChains(scores));
                    assertEquals(GeyerEss.ess(scores), GeyerEss.essOfChecked(scores));
                }
            }
        }
    }

    // --- posterior's NA cases and input validation --------------------------------------------------------------

    @Test
    void nanDrawGivesNaN() {
        double[][] x = iidNormal(51, 4, 100);
        x[1][17] = Double.NaN;
        for (double v : all(x)) {
            assertTrue(Double.isNaN(v));
        }
        ParameterSummary s = ParameterSummary.of("x", x);
        assertTrue(Double.isNaN(s.rhat()) && Double.isNaN(s.essBulk()) && Double.isNaN(s.q50()));
    }

    /** posterior's rank-based rhat and ess_bulk accept infinite draws; the moment-based statistics return NA. */
    @Test
    void infiniteDrawFollowsPosterior() {
        double[][] x = iidNormal(52, 4, 100);
        x[2][5] = Double.POSITIVE_INFINITY;
        assertTrue(Double.isFinite(Rhat.rhat(x)));
        assertTrue(Double.isFinite(EffectiveSampleSize.bulk(x)));
        assertTrue(Double.isNaN(Rhat.basic(x, true)));
        assertTrue(Double.isNaN(EffectiveSampleSize.mean(x)));
        assertTrue(Double.isNaN(EffectiveSampleSize.tail(x)));
        assertTrue(Double.isNaN(MonteCarloStandardError.median(x)));
        assertEquals(Double.POSITIVE_INFINITY, PooledStatistics.quantile(x, 1));
    }

    @Test
    void constantDrawsGiveNaNDiagnostics() {
        double[][] x = new double[3][50];
        for (double[] chain : x) {
            Arrays.fill(chain, 0.1);
        }
        assertTrue(Double.isNaN(Rhat.rhat(x)));
        assertTrue(Double.isNaN(Rhat.basic(x, false)));
        assertTrue(Double.isNaN(EffectiveSampleSize.bulk(x)));
        assertTrue(Double.isNaN(EffectiveSampleSize.tail(x)));
        assertTrue(Double.isNaN(EffectiveSampleSize.basic(x, true)));
        assertTrue(Double.isNaN(MonteCarloStandardError.mean(x)));
        assertTrue(Double.isNaN(MonteCarloStandardError.quantile(x, 0.5)));
        assertEquals(0.1, PooledStatistics.mean(x), 1e-17);
        assertEquals(0.0, PooledStatistics.sd(x), 1e-17);
    }

    /** Folding two values symmetric about the median gives a constant: tail R-hat, hence R-hat, is NaN. */
    @Test
    void constantFoldedDrawsGiveNaNRhat() {
        double[][] x = {{0, 1, 0, 1, 1, 0}, {1, 0, 1, 0, 0, 1}};
        assertTrue(Double.isFinite(Rhat.bulk(x)));
        assertTrue(Double.isNaN(Rhat.tail(x)));
        assertTrue(Double.isNaN(Rhat.rhat(x)));
    }

    @Test
    void tooFewDrawsGiveNaN() {
        double[][] three = {{0.1, 0.5, 0.2}, {0.3, 0.9, 0.4}};
        assertTrue(Double.isNaN(Rhat.rhat(three)));
        assertTrue(Double.isNaN(Rhat.basic(three, true)));
        assertTrue(Double.isFinite(Rhat.basic(three, false)));
        double[][] four = {{0.1, 0.5, 0.2, 0.7}, {0.3, 0.9, 0.4, 0.8}};
        assertTrue(Double.isFinite(Rhat.rhat(four)));
        assertTrue(Double.isNaN(EffectiveSampleSize.bulk(four)), "split chains of 2 draws");
        assertTrue(Double.isFinite(EffectiveSampleSize.basic(four, false)));
        double[][] five = iidNormal(53, 2, 5);
        assertTrue(Double.isNaN(EffectiveSampleSize.bulk(five)), "split chains of 2 draws (middle dropped)");
        double[][] six = iidNormal(53, 2, 6);
        assertTrue(Double.isFinite(EffectiveSampleSize.bulk(six)));
        double[][] one = {{0.4}, {0.6}};
        assertTrue(Double.isNaN(Rhat.rhat(one)));
        assertTrue(Double.isNaN(EffectiveSampleSize.bulk(one)));
        assertEquals(0.5, PooledStatistics.mean(one), 1e-16);
    }

    @Test
    void singleChainNeedsSplittingForRhat() {
        double[][] x = iidNormal(54, 1, 200);
        assertTrue(Double.isNaN(Rhat.basic(x, false)));
        assertTrue(Double.isFinite(Rhat.basic(x, true)));
        assertTrue(Double.isFinite(Rhat.rhat(x)));
        assertTrue(Double.isFinite(EffectiveSampleSize.basic(x, false)));
    }

    @Test
    void quantileAtOneUsesTheLastButHalfDraw() {
        double[][] x = iidNormal(55, 4, 250);
        assertTrue(Double.isFinite(EffectiveSampleSize.quantile(x, 1.0)));
        assertTrue(Double.isFinite(MonteCarloStandardError.quantile(x, 1.0)));
        assertTrue(Double.isFinite(MonteCarloStandardError.quantile(x, 0.0)));
    }

    @Test
    void badInputIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> Rhat.rhat((double[][]) null));
        assertThrows(IllegalArgumentException.class, () -> Rhat.rhat(new double[0][]));
        assertThrows(IllegalArgumentException.class, () -> EffectiveSampleSize.bulk(new double[][] {{}}));
        assertThrows(IllegalArgumentException.class,
                () -> ParameterSummary.of("x", new double[][] {{1, 2, 3}, {1, 2}}));
        assertThrows(IllegalArgumentException.class, () -> MonteCarloStandardError.mean(new double[][] {null}));
        double[][] ok = iidNormal(56, 2, 20);
        assertThrows(IllegalArgumentException.class, () -> EffectiveSampleSize.quantile(ok, 1.5));
        assertThrows(IllegalArgumentException.class, () -> MonteCarloStandardError.quantile(ok, -0.1));
        assertThrows(IllegalArgumentException.class, () -> PooledStatistics.quantile(ok, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> Autocovariance.of(new double[0]));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Rhat.rhat(new double[][] {{1, 2, 3}, {1, 2}}));
        assertTrue(e.getMessage().contains("chain 1 has 2"), e.getMessage());
    }

    /** Not a benchmark: guards against accidental O(S²) work in the per-round summary (generous bound). */
    @Test
    void summaryOfManyDrawsIsFast() {
        double[][] x = ar1(61, 8, 50_000, 0.9);
        ParameterSummary.of("warm-up", x);
        long start = System.nanoTime();
        ParameterSummary s = ParameterSummary.of("theta", x);
        double seconds = (System.nanoTime() - start) / 1e9;
        assertFalse(Double.isNaN(s.essBulk()));
        assertTrue(seconds < 5, "ParameterSummary.of over 400,000 draws took " + seconds + " s");
    }
}
