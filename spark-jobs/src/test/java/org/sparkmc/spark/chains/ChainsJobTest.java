package org.sparkmc.spark.chains;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.core.model.BimodalMixture;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.TestPaths;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.cli.Main;

/**
 * The chains job end to end in local mode, from the shipped config files to the files it writes.
 *
 * <p>Statistical checks use a fixed seed and a tolerance of 4 Monte Carlo standard errors (the job's own MCSE,
 * computed after its R-hat and ESS checks passed): a correct sampler run with a random seed would fail such a
 * check with probability about 6e-5 per quantity.
 */
class ChainsJobTest extends SparkTestBase {

    @TempDir
    Path tmp;

    /**
     * Relayed rounds leave their draws in the executors' block stores as the partitions of one RDD; when those copies
     * are gone, the RDD replays the rounds from the chains' states and gives the same draws, bit for bit.
     */
    @Test
    void relayedDrawsReplayExactlyOnceTheirStoredCopiesAreGone() {
        org.sparkmc.core.model.Target target = new BimodalMixture(5);
        ChainsConfig config = new ChainsConfig("bimodal", target, "", "rwm",
                org.sparkmc.core.catalog.KernelCatalog.create("rwm",
                        new org.sparkmc.core.mcmc.KernelSettings(3, true, Double.NaN, 1, 200), target),
                3, true, Double.NaN, 4, 200, 300, 3, 1e9, 1.01, 5, 2, ChainsConfig.defaultDriverDraws(),
                org.sparkmc.spark.sync.SyncVia.RELAY);
        ChainsJob job = new ChainsJob(jsc(), config);
        job.run();
        org.apache.spark.api.java.JavaRDD<org.sparkmc.core.mcmc.RoundResult> draws = job.samplingDraws();
        int id = draws.id();
        for (int p = 0; p < 2; p++) {
            assertEquals(1, org.apache.spark.SparkEnv.get().blockManager().master()
                    .getLocations(new org.apache.spark.storage.RDDBlockId(id, p)).size(), "partition " + p + " stored");
        }
        List<String> stored = draws.map(ChainsJobTest::exactly).collect();
        draws.unpersist(true);
        List<String> replayed = draws.map(ChainsJobTest::exactly).collect();
        assertEquals(4 * 3, stored.size(), "4 chains × 3 sampling rounds");
        assertTrue(stored.equals(replayed), "the replayed draws differ from the stored ones");
        job.release();
    }

    /** A round's chain, round and every recorded value's exact bits. */
    private static String exactly(org.sparkmc.core.mcmc.RoundResult r) {
        StringBuilder s = new StringBuilder(r.chain() + "/" + r.round() + ":" + r.accepted() + ":");
        for (double[] row : r.draws()) {
            for (double v : row) {
                s.append(Long.toHexString(Double.doubleToRawLongBits(v))).append(',');
            }
        }
        return s.toString();
    }

    @Test
    void bimodalConfigConvergesToTheExactMeanAndTailProbability() {
        Path out = tmp.resolve("bimodal");
        int code = Main.run("chains", "--conf", TestPaths.conf("chains-bimodal.conf").toString(),
                "--out", out.toString());
        assertEquals(ExitCode.OK, code);
        assertTrue(Files.exists(out.resolve("_SUCCESS")));
        JsonNode summary = ChainsOutputs.summary(out);
        assertTrue(summary.get("converged").asBoolean(), summary::toString);
        assertEquals(8, summary.get("acceptance_per_chain").size());
        assertTrue(summary.get("acceptance_per_chain").get(7).asDouble() > 0.1);
        JsonNode x = ChainsOutputs.parameter(summary, "x");
        JsonNode tail = ChainsOutputs.parameter(summary, "x_gt_5");
        assertTrue(x.get("rhat").asDouble() < 1.01);
        assertWithin(7.0, x, 4);
        assertWithin(BimodalMixture.exactTailProbability(5), tail, 4);

        List<Row> draws = ChainsOutputs.draws(spark(), out);
        int perChain = summary.get("draws_per_chain").asInt();
        assertEquals(8L * perChain, draws.size());
        assertEquals(List.of("chain", "draw", "x", "x_gt_5", "lp__", "accept_stat__"),
                List.of(draws.get(0).schema().fieldNames()));
        assertEquals(1, draws.get(0).getInt(0));
        assertEquals(1, draws.get(0).getInt(1));
        assertEquals(perChain, draws.get(perChain - 1).getInt(1));
        String csv = read(out.resolve("summary.csv"));
        assertTrue(csv.startsWith("name,mean,sd,q5,q50,q95,rhat,ess_bulk,ess_tail,mcse_mean,"), csv);
        assertTrue(csv.contains("\nx,") && csv.contains("\nlp__,"), csv);
        assertEssPerSecond(summary);
    }

    /** ESS per second: each parameter's bulk ESS over the sampling rounds' seconds, which summary.json states. */
    private static void assertEssPerSecond(JsonNode summary) {
        JsonNode efficiency = summary.get("efficiency");
        double seconds = efficiency.get("sampling_seconds").asDouble();
        double sampling = 0;
        for (JsonNode round : summary.get("history")) {
            sampling += round.get("phase").asText().equals("sampling") ? round.get("seconds").asDouble() : 0;
        }
        assertEquals(sampling, seconds, 1e-9);
        assertTrue(seconds > 0 && seconds < summary.get("seconds").asDouble(), summary::toString);
        JsonNode perSecond = efficiency.get("ess_bulk_per_second");
        assertEquals(List.of("x", "x_gt_5", "lp__"), listOf(perSecond.fieldNames()));
        for (String name : List.of("x", "x_gt_5", "lp__")) {
            double ess = ChainsOutputs.parameter(summary, name).get("ess_bulk").asDouble();
            assertEquals(ess / seconds, perSecond.get(name).asDouble(), 1e-9 * ess / seconds, name);
        }
    }

    private static <T> List<T> listOf(java.util.Iterator<T> it) {
        List<T> out = new java.util.ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }

    @Test
    void eightSchoolsMatchesThePosteriordbReference() throws Exception {
        Path out = tmp.resolve("eight");
        int code = Main.run("chains", "--conf", TestPaths.conf("chains-eight-schools.conf").toString(),
                "--data", TestPaths.projectRoot().resolve("data/eight_schools/eight_schools.json").toString(),
                "--out", out.toString());
        assertEquals(ExitCode.OK, code);
        JsonNode summary = ChainsOutputs.summary(out);
        assertTrue(summary.get("converged").asBoolean(), summary::toString);
        // The data file is recorded by its path, not field by field.
        assertTrue(summary.get("data").asText().endsWith("eight_schools.json"), summary::toString);
        assertTrue(!summary.get("model_params").has("y") && !summary.get("model_params").has("sigma"),
                summary::toString);
        List<String> reference = Files.readAllLines(
                TestPaths.projectRoot().resolve("data/eight_schools/reference_summary.csv"));
        assertEquals(11, reference.size());
        for (String line : reference.subList(1, reference.size())) {
            String[] f = line.split(",");
            String name = f[0].replace("\"", "");
            double refMean = Double.parseDouble(f[1]);
            double refMcse = Double.parseDouble(f[9]);
            JsonNode p = ChainsOutputs.parameter(summary, name);
            double combined = Math.hypot(p.get("mcse_mean").asDouble(), refMcse);
            double error = Math.abs(p.get("mean").asDouble() - refMean);
            assertTrue(error < 4 * combined, name + ": mean " + p.get("mean") + " vs reference " + refMean
                    + ", 4 combined MCSE = " + 4 * combined);
        }
    }

    /**
     * summary.json holds every setting that changes the draws, so the run can be given again: the kernel's scale,
     * adaptation and target acceptance, the round size and most rounds, and the model's parameters as it used them.
     */
    @Test
    void summaryRecordsWhatItTakesToRunAgain() {
        Path out = tmp.resolve("settings");
        assertEquals(ExitCode.OK, Main.run("chains", "--model", "bimodal", "--param", "threshold=4", "--scale", "3",
                "--no-adapt", "--target-accept", "0.3", "--chains", "2", "--warmup", "50", "--round-size", "60",
                "--max-rounds", "2", "--min-ess", "1e9", "--out", out.toString()));
        JsonNode summary = ChainsOutputs.summary(out);
        assertEquals(3.0, summary.get("scale").asDouble(), summary::toString);
        assertEquals(false, summary.get("adapt").asBoolean(true), summary::toString);
        assertEquals(0.3, summary.get("target_accept").asDouble(), summary::toString);
        assertEquals(60, summary.get("round_size").asInt(), summary::toString);
        assertEquals(2, summary.get("max_rounds").asInt(), summary::toString);
        assertEquals(4.0, summary.get("model_params").get("threshold").asDouble(), summary::toString);
        assertEquals(List.of("threshold"), listOf(summary.get("model_params").fieldNames()));
        assertTrue(summary.get("data").isNull(), summary::toString);
        // Without --param the default the model used is recorded; without --target-accept, null (the kernel's).
        Path defaults = tmp.resolve("defaults");
        assertEquals(ExitCode.OK, Main.run("chains", "--model", "bimodal", "--chains", "2", "--warmup", "50",
                "--round-size", "60", "--max-rounds", "1", "--min-ess", "1e9", "--out", defaults.toString()));
        JsonNode plain = ChainsOutputs.summary(defaults);
        assertEquals(5.0, plain.get("model_params").get("threshold").asDouble(), plain::toString);
        assertTrue(plain.get("target_accept").isNull(), plain::toString);
        assertEquals(true, plain.get("adapt").asBoolean(false), plain::toString);
        assertEquals(1.0, plain.get("scale").asDouble(), plain::toString);
    }

    /** Diagnostics summarised on the executors (limit 0) are the same numbers as on the driver. */
    @Test
    void executorDiagnosticsEqualDriverDiagnostics() {
        String[] run = {"chains", "--model", "bimodal", "--scale", "10", "--chains", "4", "--warmup", "200",
            "--round-size", "300", "--max-rounds", "3", "--min-ess", "1e9", "--cmdstan-csv"};
        Path onDriver = tmp.resolve("driver");
        Path onExecutors = tmp.resolve("executors");
        assertEquals(ExitCode.OK, Main.run(concat(run, "--out", onDriver.toString())));
        assertEquals(ExitCode.OK, Main.run(concat(run, "--out", onExecutors.toString(), "--driver-draws-limit", "0")));
        JsonNode a = ChainsOutputs.summary(onDriver);
        JsonNode b = ChainsOutputs.summary(onExecutors);
        assertEquals(a.get("parameters"), b.get("parameters"));
        for (int i = 0; i < a.get("history").size(); i++) {
            assertEquals(a.get("history").get(i).get("max_rhat"), b.get("history").get(i).get("max_rhat"));
        }
        assertEquals(List.of("x", "x_gt_5", "lp__"), a.get("parameters").findValuesAsText("name"));
        String report = read(onExecutors.resolve("report.html"));
        assertTrue(report.contains("<svg") && report.contains("rank plot") && !report.contains("<script"));
        // The key to the chain colours of the trace and density plots.
        assertTrue(report.contains("<div class=\"chains\">chains:") && report.contains(
                "stroke=\"" + org.sparkmc.spark.report.HtmlReport.colour(3) + "\" stroke-width=\"3\"/></svg> 4</span>"),
                report);
        assertTrue(Files.exists(onExecutors.resolve("cmdstan/chain-4.csv")));
    }

    static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    static void assertWithin(double exact, JsonNode p, double mcses) {
        double mean = p.get("mean").asDouble();
        double mcse = p.get("mcse_mean").asDouble();
        assertTrue(mcse > 0 && Math.abs(mean - exact) < mcses * mcse,
                p.get("name").asText() + ": mean " + mean + " vs exact " + exact + " (MCSE " + mcse + ")");
    }

    static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A data field the model does not read (a misspelt "sigmaa") had no effect and no word; it is warned of. */
    @Test
    void dataFieldsTheModelDoesNotReadAreWarnedOf() throws Exception {
        Path data = Files.writeString(tmp.resolve("extra.json"), "{\"J\": 2, \"y\": [1, 2], \"sigma\": [1, 1], "
                + "\"sigmaa\": 3}");
        int[] code = new int[1];
        List<String> warnings = org.sparkmc.spark.LoggedLines.of(ChainsCommand.class,
                org.apache.logging.log4j.Level.WARN, () -> code[0] = Main.run("chains", "--model",
                        "eight_schools_noncentered", "--data", data.toString(), "--chains", "2", "--warmup", "10",
                        "--round-size", "10", "--max-rounds", "1", "--out", tmp.resolve("extra").toString()));
        assertEquals(ExitCode.OK, code[0]);
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("model 'eight_schools_noncentered' does not read the fields [sigmaa] "
                + "(it reads [J, sigma, y]); they have no effect"), warnings.get(0));
    }
}
