package org.sparkmc.core.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.diagnostics.FullParameterSummary;
import org.sparkmc.core.model.Matrices;
import org.sparkmc.core.random.RandomStreams;

/**
 * {@link ShardSampler} with S = 1 on a Gaussian linear model with known noise sd (200 rows, an intercept and two
 * N(0, 1) features, σ = 1.5, coefficients N(0, 10²)), whose posterior is exactly N(m, P⁻¹) with
 * P = XᵀX/σ² + I/10² and m = P⁻¹Xᵀy/σ².
 *
 * <p>Per kernel and coefficient (4 chains × 8,000 kept draws after 1,000 of warm-up, fixed seeds): R-hat below
 * 1.01, bulk ESS at least 1,000, the sample mean within {@value #MEAN_MCSES} of its own MCSEs of the exact mean, and
 * the sample sd within {@value #SD_SDS}/√(2·ESS) of the exact sd (that many sds of an sd estimate's relative error,
 * taking the bulk ESS as the number of independent draws): 4% to 7% here.
 * For a random seed each mean check fails with probability about 7·10⁻⁶ and each sd check about 6·10⁻⁷, so over 4
 * kernels × 3 coefficients the false-failure rate is below 10⁻⁴; with the seeds fixed the test is deterministic.
 * What it detects: a kernel whose stationary law is not the target (a wrong Hastings ratio, adaptation after
 * warm-up) or a wrong noise sd (σ = 1 for 1.5 shrinks the sds by a third). The prior, with sd 10, moves the mean by
 * less than an MCSE here: {@link ShardTargetTest} checks it.
 */
class ShardSamplerTest {
    private static final int ROWS = 200;
    private static final int P = 3;
    private static final double NOISE_SD = 1.5;
    private static final double PRIOR_SD = 10;
    private static final int CHAINS = 4;
    private static final int KEPT = 8000;
    private static final double MEAN_MCSES = 4.5;
    private static final double SD_SDS = 5;

    private static final SyntheticGlmData.Rows DATA = new SyntheticGlmData(
            GaussianGlm.withKnownSd(Glm.coefficientNames(P), NOISE_SD), new double[] {0.5, -1, 2}, true,
            new RandomStreams(17)).rows(0, ROWS);

    /** The exact posterior: {mean, covariance (row-major)}. */
    private static double[][] exactPosterior() {
        double[] x = DATA.features();
        double[] y = DATA.responses();
        double[] precision = Matrices.identity(P, 1 / (PRIOR_SD * PRIOR_SD));
        double[] xty = new double[P];
        for (int i = 0; i < ROWS; i++) {
            for (int a = 0; a < P; a++) {
                xty[a] += x[i * P + a] * y[i] / (NOISE_SD * NOISE_SD);
                for (int b = 0; b < P; b++) {
                    precision[a * P + b] += x[i * P + a] * x[i * P + b] / (NOISE_SD * NOISE_SD);
                }
            }
        }
        double[] l = Matrices.cholesky(precision, P);
        return new double[][] {Matrices.solve(l, P, xty), Matrices.inverse(l, P)};
    }

    @ParameterizedTest
    @ValueSource(strings = {"laplace-rwm", "independence", "am", "slice"})
    void withOneShardTheDrawsAreTheExactConjugatePosterior(String kernel) {
        double[][] exact = exactPosterior();
        ShardSampler.Result r = ShardSampler.run(GaussianGlm.withKnownSd(Glm.coefficientNames(P), NOISE_SD),
                DATA.features(), DATA.responses(), PRIOR_SD, 1, 0,
                new ShardSampler.Settings(kernel, Double.NaN, CHAINS, 1000, KEPT), new RandomStreams(23));
        assertEquals(0, r.shard());
        assertEquals(ROWS, r.rows());
        assertEquals(CHAINS, r.draws().length);
        assertEquals(P + 2, r.draws()[0].length, "coordinates, then lp__ and accept_stat__");
        assertEquals(KEPT, r.draws()[0][0].length);
        assertEquals((long) CHAINS * KEPT, r.proposed());
        for (int j = 0; j < P; j++) {
            double[][] chains = new double[CHAINS][];
            for (int c = 0; c < CHAINS; c++) {
                chains[c] = r.draws()[c][j];
            }
            FullParameterSummary s = FullParameterSummary.of("beta", chains);
            double exactSd = Math.sqrt(exact[1][j * P + j]);
            double z = (s.mean() - exact[0][j]) / s.mcseMean();
            double sdTolerance = SD_SDS / Math.sqrt(2 * s.essBulk());
            System.out.printf("%s beta[%d]: mean %.5f (exact %.5f, %.2f MCSE), sd %.5f (exact %.5f, ratio %.4f, "
                    + "tolerance %.4f), R-hat %.4f, bulk ESS %.0f, acceptance %.3f%n", kernel, j + 1, s.mean(),
                    exact[0][j], z, s.sd(), exactSd, s.sd() / exactSd, sdTolerance, s.rhat(), s.essBulk(),
                    (double) r.accepted() / r.proposed());
            assertTrue(s.rhat() < 1.01, kernel + " beta[" + (j + 1) + "]: R-hat " + s.rhat());
            assertTrue(s.essBulk() >= 1000, kernel + " beta[" + (j + 1) + "]: bulk ESS " + s.essBulk());
            assertTrue(Math.abs(z) < MEAN_MCSES, kernel + " beta[" + (j + 1) + "]: mean off by " + z + " MCSE");
            assertTrue(Math.abs(s.sd() / exactSd - 1) < sdTolerance, kernel + " beta[" + (j + 1) + "]: sd ratio "
                    + s.sd() / exactSd + ", tolerance " + sdTolerance);
        }
    }

    /** The same seed gives the same draws; chains of one shard differ from each other. */
    @Test
    void drawsAreAFunctionOfTheSeedShardAndChain() {
        GaussianGlm glm = GaussianGlm.withKnownSd(Glm.coefficientNames(P), NOISE_SD);
        ShardSampler.Settings settings = new ShardSampler.Settings("am", Double.NaN, 2, 50, 20);
        ShardSampler.Result a = ShardSampler.run(glm, DATA.features(), DATA.responses(), PRIOR_SD, 3, 1, settings,
                new RandomStreams(5));
        ShardSampler.Result b = ShardSampler.run(glm, DATA.features(), DATA.responses(), PRIOR_SD, 3, 1, settings,
                new RandomStreams(5));
        ShardSampler.Result otherShard = ShardSampler.run(glm, DATA.features(), DATA.responses(), PRIOR_SD, 3, 2,
                settings, new RandomStreams(5));
        assertTrue(java.util.Arrays.deepEquals(a.draws(), b.draws()));
        assertTrue(!java.util.Arrays.equals(a.draws()[0][0], a.draws()[1][0]), "two chains gave the same draws");
        assertTrue(!java.util.Arrays.equals(a.draws()[0][0], otherShard.draws()[0][0]),
                "shards 1 and 2 gave the same draws");
    }

    @Test
    void settingsRefuseBadValuesNamingThem() {
        assertRefused("unknown kernel 'gibbs' for consensus", () -> new ShardSampler.Settings("gibbs", 1, 2, 1, 2));
        assertRefused("scale must be a positive number, is 0.0", () -> new ShardSampler.Settings("am", 0, 2, 1, 2));
        assertRefused("scale must be a positive number, is -1.0", () -> new ShardSampler.Settings("am", -1, 2, 1, 2));
        assertRefused("scale must be a positive number, is Infinity",
                () -> new ShardSampler.Settings("am", Double.POSITIVE_INFINITY, 2, 1, 2));
        assertRefused("chains must be at least 2", () -> new ShardSampler.Settings("am", 1, 1, 1, 2));
        assertRefused("warmup must be ≥ 0, is -1", () -> new ShardSampler.Settings("am", 1, 2, -1, 2));
        assertRefused("iterations must be ≥ 2, is 1", () -> new ShardSampler.Settings("am", 1, 2, 0, 1));
        // the limits themselves are allowed
        new ShardSampler.Settings("slice", Double.NaN, 2, 0, 2);
    }

    @Test
    void aShardWithNoRowsIsRefusedNamingIt() {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> ShardSampler.run(
                new LogisticGlm(Glm.coefficientNames(2)), new double[0], new double[0], 1, 5, 3,
                new ShardSampler.Settings("am", Double.NaN, 2, 10, 10), new RandomStreams(1)));
        // it advised "use fewer shards than rows", which an empty shard may already have: rows go by a hash
        assertEquals("shard 3 of 5 has no rows: rows go to shards by a hash of their values, so shards get about n/5 "
                + "rows each but not exactly, and with few rows a shard can get none; give fewer shards, so that "
                + "each gets many rows (consensus Monte Carlo needs each shard's posterior near Gaussian: hundreds of "
                + "rows, not a few)", e.getMessage());
    }

    private static void assertRefused(String expected, org.junit.jupiter.api.function.Executable settings) {
        InvalidInputException e = assertThrows(InvalidInputException.class, settings);
        assertTrue(e.getMessage().contains(expected), "expected '" + expected + "' in: " + e.getMessage());
    }
}
