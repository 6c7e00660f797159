package org.sparkmc.spark.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.core.consensus.Glm;
import org.sparkmc.core.consensus.RowLikelihood;
import org.sparkmc.core.consensus.ShardSampler;
import org.sparkmc.core.consensus.SyntheticGlmData;
import org.sparkmc.core.diagnostics.FullParameterSummary;
import org.sparkmc.core.model.Matrices;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.SparkTestBase;

/**
 * The consensus job end to end, beyond logistic regression, on small generated tables (4,000 rows, an intercept and
 * two N(0, 1) features, 4 shards of about 1,000 rows), each against an exact answer:
 * <ul>
 *   <li>{@code --family poisson} and {@code --family gaussian} (σ sampled): the combined draws against the
 *       full-data posterior of the same rows, sampled in this JVM by core's {@link ShardSampler} with S = 1 and the
 *       same priors (given explicitly, so the job's defaults do not matter): every mean within
 *       {@value #MEAN_TOLERANCE} reference sd, every sd within {@value #SD_TOLERANCE} relative; and the generating
 *       coefficients (and σ) within 4 posterior sds of the combined means.</li>
 *   <li>{@code --model class:}{@link UnitNoiseLinearLikelihood}, a user's row likelihood from the test sources, on
 *       Gaussian rows with σ = 1: every sub-posterior is exactly Gaussian, so the consensus average is exact, and
 *       the combined draws are checked against the closed-form posterior N(P⁻¹Xᵀy, P⁻¹), P = XᵀX + I/s².</li>
 *   <li>{@code --combiner semiparametric} on logistic rows (2 shards of about 2,000, close to Gaussian) against the
 *       S = 1 reference, with tolerances from the ESS the job reports (its index chain mixes slowly: see the test's
 *       comment, and the disabled test of the known bug beside it).</li>
 * </ul>
 *
 * <p>Monte Carlo error. The independence kernel from each shard's Laplace approximation gives nearly independent
 * draws (2 chains × 2,000 per shard and for the reference; the test requires a combined bulk ESS of at least
 * {@value #MIN_ESS}). With ESS ≥ 1,000 on both sides, a difference of means has an sd of at most
 * √(2/1000) = 0.045 reference sds, so 0.2 sd is ≥ 4.4 sds of noise (two-sided 10⁻⁵ per mean); an sd's relative
 * error is at most 1/√(2·1000) = 2.2% per side, 3.2% for the ratio, so 15% is ≥ 4.7 sds (3·10⁻⁶). The truth checks
 * fail with probability 6·10⁻⁵ each (the posterior covers the truth). The job's disagreement check, which must stay
 * quiet on these exchangeable shards, has a false-warning rate of 10⁻³ per run. Over the 4 runs (about 30 figures)
 * the false-failure rate for random seeds is about 5·10⁻³; the seeds are fixed, so the test is deterministic.
 */
class ConsensusFamiliesTest extends SparkTestBase {
    private static final int ROWS = 4000;
    private static final List<String> NAMES = GenerateGlmCommand.featureNames(3, true);
    private static final double MEAN_TOLERANCE = 0.2;
    private static final double SD_TOLERANCE = 0.15;
    private static final double MIN_ESS = 1000;
    private static final int CHAINS = 2;
    private static final int ITERATIONS = 2000;
    private static final String[] SAMPLING = {"--shards", "4", "--kernel", "independence", "--chains",
        Integer.toString(CHAINS), "--warmup", "200", "--iterations", Integer.toString(ITERATIONS), "--prior-sd", "10",
        "--seed", "12"};

    @TempDir
    Path tmp;

    @Test
    void poissonRecoversItsCoefficientsAndMatchesTheFullDataPosterior() throws IOException {
        double[] truth = {0.5, -0.3, 0.2};
        String data = generate("poisson", truth, 21);
        Path out = tmp.resolve("poisson");
        ConsensusRuns.consensus(data, out, ConsensusRuns.concat(SAMPLING, "--family", "poisson"));
        double[][] reference = reference(Glm.of("poisson", NAMES, 1), truth, 21);
        List<String> names = NAMES;
        check("poisson", out, names, reference, MEAN_TOLERANCE, SD_TOLERANCE);
        checkTruth("poisson", out, names, truth);
    }

    @Test
    void gaussianWithSigmaSampledRecoversItsParametersAndMatchesTheFullDataPosterior() throws IOException {
        double[] truth = {1, -0.5, 0.25, Math.log(2)};
        String data = generate("gaussian", new double[] {1, -0.5, 0.25}, 22, "--sigma", "2");
        Path out = tmp.resolve("gaussian");
        ConsensusRuns.consensus(data, out, ConsensusRuns.concat(SAMPLING, "--family", "gaussian",
                "--sigma-prior-scale", "10"));
        Glm glm = Glm.of("gaussian", NAMES, 10);
        double[][] reference = reference(glm, truth, 22);
        List<String> names = glm.parameterNames();
        assertEquals(List.of("intercept", "x1", "x2", "sigma"), names);
        check("gaussian", out, names, reference, MEAN_TOLERANCE, SD_TOLERANCE);
        checkTruth("gaussian", out, names, glm.parameters(truth));
    }

    @Test
    void aUserRowLikelihoodRunsEndToEndAndGivesTheExactPosterior() throws IOException {
        double[] beta = {0.8, 0.4, -1.1};
        String data = generate("gaussian", beta, 23, "--sigma", "1");
        Path out = tmp.resolve("user");
        String model = "class:" + UnitNoiseLinearLikelihood.class.getName();
        ConsensusRuns.consensus(data, out, ConsensusRuns.concat(SAMPLING, "--model", model, "--features",
                String.join(",", NAMES)));
        SyntheticGlmData.Rows rows = rows(Glm.of("gaussian", NAMES, 1), new double[] {0.8, 0.4, -1.1, 0}, 23);
        double[][] exact = linearPosterior(rows, 10);
        List<String> names = List.of("b_intercept", "b_x1", "b_x2");
        check("user model", out, names, exact, MEAN_TOLERANCE, SD_TOLERANCE);
        checkTruth("user model", out, names, beta);
        assertEquals(model, summary(out).get("model").asText());
    }

    /**
     * Two shards of about 2,000 logistic rows, an intercept and one feature, 2 chains × 6,000 draws. The job runs the
     * index chain one sweep per draw at the default bandwidth, which mixes slowly (combined bulk ESS 20 to 45 of
     * 12,000 here; see {@link #theSemiparametricIndexChainMixesAtTheJobsSettings}), so the tolerances come from the
     * ESS the job reports: a mean within 0.1 + 4·√(1/ESS + 1/ESS_ref) reference sds (0.1 for the kernel estimate's
     * bias, then 4 sds of Monte Carlo error: two-sided 6·10⁻⁵), an sd within 0.1 + 4·√(1/(2·ESS)) relative, and
     * R-hat below 1.2. Loose (about 0.7 sd at ESS 40), it still catches an unweighted or prior-forgetting
     * combination, which is off by whole sds.
     */
    @Test
    void theSemiparametricCombinerMatchesTheFullDataPosterior() throws IOException {
        double[] truth = {-0.5, 1};
        List<String> names = GenerateGlmCommand.featureNames(2, true);
        String data = generate("logistic", truth, 24);
        Path out = tmp.resolve("semiparametric");
        int iterations = 6000;
        ConsensusRuns.consensus(data, out, "--family", "logistic", "--combiner", "semiparametric", "--shards", "2",
                "--kernel", "independence", "--chains", Integer.toString(CHAINS), "--warmup", "200", "--iterations",
                Integer.toString(iterations), "--prior-sd", "10", "--seed", "12");
        Glm glm = Glm.of("logistic", names, 1);
        double[][] reference = reference(glm, rows(glm, truth, 24), 10, iterations);
        List<Row> rows = ConsensusRuns.draws(spark(), out);
        assertEquals(CHAINS * iterations, rows.size());
        JsonNode summary = summary(out);
        for (int j = 0; j < names.size(); j++) {
            double[] x = ConsensusRuns.column(rows, names.get(j));
            JsonNode p = parameter(summary, names.get(j));
            double ess = p.get("ess_bulk").asDouble();
            double rhat = p.get("rhat").asDouble();
            double z = (ConsensusRuns.mean(x) - reference[0][j]) / reference[1][j];
            double ratio = ConsensusRuns.sd(x) / reference[1][j];
            double meanTolerance = 0.1 + 4 * Math.sqrt(1 / ess + 1 / reference[2][j]);
            double sdTolerance = 0.1 + 4 * Math.sqrt(1 / (2 * ess));
            System.out.printf("semiparametric %s: %.3f sd off (tolerance %.3f), sd ratio %.4f (tolerance %.3f), "
                    + "ESS %.0f (reference %.0f), R-hat %.4f%n", names.get(j), z, meanTolerance, ratio, sdTolerance,
                    ess, reference[2][j], rhat);
            assertTrue(Math.abs(z) < meanTolerance, names.get(j) + ": mean off by " + z + " sd");
            assertTrue(Math.abs(ratio - 1) < sdTolerance, names.get(j) + ": sd ratio " + ratio);
            assertTrue(rhat < 1.2, names.get(j) + ": R-hat " + rhat);
        }
        assertEquals("semiparametric", summary.get("combiner").asText());
        double acceptance = summary.get("combiner_acceptance").asDouble();
        assertTrue(acceptance > 0 && acceptance <= 1, "index-chain acceptance " + acceptance);
    }

    /**
     * The semiparametric combiner's index chain mixes at the job's settings (4 shards, 3 coefficients, 2 chains ×
     * 2,000 draws): R-hat below 1.01 and bulk ESS at least 400 (a tenth of the draws), with the accuracy of the other
     * tests. At the default bandwidth a proposed index is accepted about 4% of the time; with one sweep per combined
     * draw, as the job ran it before, the draws had bulk ESS 3 to 5 of 4,000 and R-hat 1.36 to 1.66. With
     * {@code ConsensusJob.INDEX_SWEEPS_PER_DRAW} = 60: ESS 535–557, R-hat ≤ 1.0034 (20 sweeps gave 184–193).
     */
    @Test
    void theSemiparametricIndexChainMixesAtTheJobsSettings() throws IOException {
        double[] truth = {-0.5, 1, -0.7};
        String data = generate("logistic", truth, 25);
        Path out = tmp.resolve("semiparametric-mixing");
        ConsensusRuns.consensus(data, out, ConsensusRuns.concat(SAMPLING, "--family", "logistic", "--combiner",
                "semiparametric"));
        check("semiparametric", out, NAMES, reference(Glm.of("logistic", NAMES, 1), truth, 25), MEAN_TOLERANCE,
                SD_TOLERANCE, CHAINS * ITERATIONS, 400);
    }

    /** generate-glm with explicit coefficients; the table's path. */
    private String generate(String family, double[] coefficients, long seed, String... more) {
        StringBuilder b = new StringBuilder();
        for (double c : coefficients) {
            b.append(b.length() == 0 ? "" : ",").append(c);
        }
        return ConsensusRuns.generate(tmp.resolve("data-" + family + seed), ConsensusRuns.concat(new String[] {
            "--family", family, "--rows", Integer.toString(ROWS), "--features", Integer.toString(coefficients.length),
            "--coefficients", b.toString(), "--seed", Long.toString(seed), "--partitions", "2"}, more));
    }

    /** The rows generate-glm wrote, from core's generator. */
    private static SyntheticGlmData.Rows rows(Glm glm, double[] truth, long seed) {
        return new SyntheticGlmData(glm, truth, true, new RandomStreams(seed)).rows(0, ROWS);
    }

    /** The full-data posterior's mean, sd and bulk ESS of each reported parameter: S = 1, in this JVM, no Spark. */
    static double[][] reference(RowLikelihood likelihood, SyntheticGlmData.Rows rows, double priorSd,
            int iterations) {
        ShardSampler.Result r = ShardSampler.run(likelihood, rows.features(), rows.responses(), priorSd, 1, 0,
                new ShardSampler.Settings("independence", Double.NaN, CHAINS, 200, iterations), new RandomStreams(77));
        int d = likelihood.dimension();
        int width = likelihood.parameterNames().size();
        double[][] reported = new double[width][CHAINS * iterations];
        for (int c = 0; c < CHAINS; c++) {
            for (int i = 0; i < iterations; i++) {
                double[] theta = new double[d];
                for (int j = 0; j < d; j++) {
                    theta[j] = r.draws()[c][j][i];
                }
                double[] q = likelihood.parameters(theta);
                for (int k = 0; k < width; k++) {
                    reported[k][c * iterations + i] = q[k];
                }
            }
        }
        double[][] out = new double[3][width];
        for (int k = 0; k < width; k++) {
            out[0][k] = ConsensusRuns.mean(reported[k]);
            out[1][k] = ConsensusRuns.sd(reported[k]);
            double[][] byChain = new double[CHAINS][];
            for (int c = 0; c < CHAINS; c++) {
                byChain[c] = java.util.Arrays.copyOfRange(reported[k], c * iterations, (c + 1) * iterations);
            }
            out[2][k] = FullParameterSummary.of("reference", byChain).essBulk();
        }
        return out;
    }

    private static double[][] reference(Glm glm, double[] truth, long seed) {
        return reference(glm, rows(glm, truth, seed), 10, ITERATIONS);
    }

    /** y ~ N(Xβ, 1), β ~ N(0, s²I): the posterior's mean and marginal sds. */
    private static double[][] linearPosterior(SyntheticGlmData.Rows rows, double priorSd) {
        int p = NAMES.size();
        double[] precision = Matrices.identity(p, 1 / (priorSd * priorSd));
        double[] xty = new double[p];
        double[] x = rows.features();
        for (int i = 0; i < ROWS; i++) {
            for (int a = 0; a < p; a++) {
                xty[a] += x[i * p + a] * rows.responses()[i];
                for (int b = 0; b < p; b++) {
                    precision[a * p + b] += x[i * p + a] * x[i * p + b];
                }
            }
        }
        double[] l = Matrices.cholesky(precision, p);
        double[] cov = Matrices.inverse(l, p);
        double[][] out = {Matrices.solve(l, p, xty), new double[p]};
        for (int j = 0; j < p; j++) {
            out[1][j] = Math.sqrt(cov[j * p + j]);
        }
        return out;
    }

    /** The combined draws against a reference {means, sds}; ESS, R-hat and the disagreement check from the files. */
    private void check(String what, Path out, List<String> names, double[][] reference, double meanTolerance,
            double sdTolerance) throws IOException {
        check(what, out, names, reference, meanTolerance, sdTolerance, CHAINS * ITERATIONS, MIN_ESS);
    }

    private void check(String what, Path out, List<String> names, double[][] reference, double meanTolerance,
            double sdTolerance, int draws, double minEss) throws IOException {
        List<Row> rows = ConsensusRuns.draws(spark(), out);
        assertEquals(draws, rows.size());
        JsonNode summary = summary(out);
        for (int j = 0; j < names.size(); j++) {
            double[] x = ConsensusRuns.column(rows, names.get(j));
            double mean = ConsensusRuns.mean(x);
            double sd = ConsensusRuns.sd(x);
            double z = (mean - reference[0][j]) / reference[1][j];
            double ratio = sd / reference[1][j];
            JsonNode p = parameter(summary, names.get(j));
            double ess = p.get("ess_bulk").asDouble();
            double rhat = p.get("rhat").asDouble();
            System.out.printf("%s %s: mean %.5f (reference %.5f, %.3f sd), sd %.5f (ratio %.4f), ESS %.0f, R-hat "
                    + "%.4f%n", what, names.get(j), mean, reference[0][j], z, sd, ratio, ess, rhat);
            assertTrue(Math.abs(z) < meanTolerance, what + " " + names.get(j) + ": mean off by " + z + " sd");
            assertTrue(Math.abs(ratio - 1) < sdTolerance, what + " " + names.get(j) + ": sd ratio " + ratio);
            assertTrue(ess >= minEss && rhat < 1.01, what + " " + names.get(j) + ": ESS " + ess + ", R-hat " + rhat);
        }
        JsonNode disagreement = summary.get("disagreement");
        assertFalse(disagreement.get("disagree").asBoolean(), what + ": " + disagreement.get("message").asText());
    }

    /** Each true value within 4 combined posterior sds of the combined mean. */
    private void checkTruth(String what, Path out, List<String> names, double[] truth) {
        List<Row> rows = ConsensusRuns.draws(spark(), out);
        for (int j = 0; j < names.size(); j++) {
            double[] x = ConsensusRuns.column(rows, names.get(j));
            double z = (ConsensusRuns.mean(x) - truth[j]) / ConsensusRuns.sd(x);
            assertTrue(Math.abs(z) < 4, what + " " + names.get(j) + ": the truth " + truth[j] + " is " + z
                    + " posterior sds from the mean");
        }
    }

    static JsonNode summary(Path out) throws IOException {
        return new ObjectMapper().readTree(out.resolve("summary.json").toFile());
    }

    private static JsonNode parameter(JsonNode summary, String name) {
        for (JsonNode p : summary.get("parameters")) {
            if (p.get("name").asText().equals(name)) {
                return p;
            }
        }
        throw new AssertionError("no parameter '" + name + "' in summary.json: " + summary.get("parameters"));
    }
}
