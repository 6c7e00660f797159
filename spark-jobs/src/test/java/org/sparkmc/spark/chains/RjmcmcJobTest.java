package org.sparkmc.spark.chains;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.core.rjmcmc.ModelProbabilities;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.TestPaths;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.cli.Main;

/**
 * The reversible-jump outputs of the chains job on the galaxy data (conf/rjmcmc-galaxy.conf, shortened): p(k | y)
 * in model_probs.csv, the predictive density in predictive.csv, the move rates in summary.json, and the report
 * section. These are bookkeeping checks against the run's own draws (exact, no false alarms); the sampler's
 * statistical correctness — two-means against quadrature, prior recovery of p(k), the reversible-pair checker, the
 * galaxy p(k | y) against Richardson &amp; Green's table (heavy) — is tested in core's rjmcmc tests.
 */
class RjmcmcJobTest extends SparkTestBase {
    private static final int CHAINS = 4;

    @TempDir
    Path tmp;

    /**
     * rjmcmc on a model without moves failed in every task (exit 1 after four task retries, a 114-frame trace);
     * it is refused as bad input before Spark starts, as nuts and gibbs are.
     */
    @Test
    void aModelWithoutMovesIsRefusedBeforeSpark() {
        Path out = tmp.resolve("no-moves");
        org.sparkmc.spark.cli.BadInputTest.Result[] r = new org.sparkmc.spark.cli.BadInputTest.Result[1];
        assertEquals(0, sparkJobs(() -> r[0] = org.sparkmc.spark.cli.BadInputTest.runCapturingOut("chains",
                "--kernel", "rjmcmc", "--chains", "2", "--out", out.toString())));
        assertEquals(ExitCode.BAD_INPUT, r[0].code(), r[0].err());
        assertTrue(r[0].err().contains("kernel rjmcmc needs a reversible-jump model"), r[0].err());
        assertFalse(r[0].err().contains("\tat "), r[0].err());
        assertFalse(Files.exists(out));
    }

    private Path run(String name, int roundSize, int gridPoints, String... extra) {
        Path out = tmp.resolve(name);
        List<String> args = new ArrayList<>(List.of("chains", "--conf",
                TestPaths.conf("rjmcmc-galaxy.conf").toString(), "--data",
                TestPaths.projectRoot().resolve("data/galaxy/galaxy.json").toString(), "--chains",
                String.valueOf(CHAINS), "--warmup", "500", "--round-size", String.valueOf(roundSize),
                "--max-rounds", "1", "--param", "grid_points=" + gridPoints, "--out", out.toString()));
        args.addAll(List.of(extra));
        assertEquals(ExitCode.OK, Main.run(args.toArray(String[]::new)));
        return out;
    }

    @Test
    void galaxyRunWritesModelProbabilitiesPredictiveDensityAndMoveRates() {
        Path out = run("galaxy", 1500, 60);
        JsonNode summary = ChainsOutputs.summary(out);
        int perChain = summary.get("draws_per_chain").asInt();
        assertEquals(1500, perChain);

        // model_probs.csv against a direct count of k in draws.parquet, pooled and per chain.
        List<Row> draws = ChainsOutputs.draws(spark(), out);
        double[][] k = new double[CHAINS][perChain];
        for (Row r : draws) {
            k[r.getInt(0) - 1][r.getInt(1) - 1] = r.getDouble(r.fieldIndex("k"));
        }
        List<String[]> rows = csv(out.resolve("model_probs.csv"));
        assertEquals(List.of("k", "probability", "mcse", "ess_mean", "chain_1", "chain_2", "chain_3", "chain_4"),
                List.of(rows.get(0)));
        double sum = 0;
        double sumSquaredMcse = 0;
        Set<Integer> listed = new java.util.HashSet<>();
        for (String[] row : rows.subList(1, rows.size())) {
            int m = Integer.parseInt(row[0]);
            listed.add(m);
            double p = Double.parseDouble(row[1]);
            sum += p;
            long hits = 0;
            for (int c = 0; c < CHAINS; c++) {
                long inChain = java.util.Arrays.stream(k[c]).filter(v -> v == m).count();
                hits += inChain;
                assertEquals((double) inChain / perChain, Double.parseDouble(row[4 + c]), 1e-9, "k=" + m + " chain "
                        + (c + 1));
            }
            assertTrue(hits > 0, "only visited k are listed");
            assertEquals((double) hits / (CHAINS * perChain), p, 1e-9, "k=" + m);
            // The MCSE is core's (posterior's mcse_mean of the indicator), on the same draws.
            ModelProbabilities.Row core = ModelProbabilities.of(k, m, m).get(0);
            assertEquals(core.mcse(), Double.parseDouble(row[2]), 1e-9 * core.mcse(), "k=" + m);
            double ess = Double.parseDouble(row[3]);
            assertTrue(ess > 1 && ess < 2 * CHAINS * perChain, "ESS " + ess);
            sumSquaredMcse += core.mcse() * core.mcse();
        }
        assertEquals(1, sum, 1e-8, "p(k | y) sums to 1");
        for (double[] chain : k) {
            for (double v : chain) {
                assertTrue(listed.contains((int) v), "k=" + v + " visited but not listed");
            }
        }
        assertTrue(sumSquaredMcse > 0);
        JsonNode rj = summary.get("rjmcmc");
        assertEquals("k", rj.get("model_index").asText());
        assertEquals(rows.size() - 1, rj.get("model_probabilities").size());

        // Move rates: every move type, rates in [0, 1], and each sweep proposes exactly one of split/merge and one
        // of birth/death, and every within-model update once.
        Map<String, JsonNode> moves = new HashMap<>();
        for (JsonNode m : rj.get("move_rates")) {
            moves.put(m.get("move").asText(), m);
            double rate = m.get("rate").asDouble();
            assertTrue(rate >= 0 && rate <= 1, m.toString());
            assertTrue(m.get("accepted").asLong() <= m.get("proposed").asLong(), m.toString());
        }
        assertEquals(Set.of("weights", "means", "variances", "allocations", "beta", "split", "merge", "birth",
                "death"), moves.keySet());
        long sweeps = (long) CHAINS * perChain;
        assertEquals(sweeps, moves.get("split").get("proposed").asLong() + moves.get("merge").get("proposed").asLong());
        assertEquals(sweeps, moves.get("birth").get("proposed").asLong() + moves.get("death").get("proposed").asLong());
        for (String within : List.of("weights", "means", "variances", "allocations", "beta")) {
            assertEquals(sweeps, moves.get(within).get("proposed").asLong(), within);
        }
        for (String jump : List.of("split", "merge", "birth", "death")) {
            assertTrue(moves.get(jump).get("accepted").asLong() > 0, jump + " never accepted");
        }
        assertEquals(1.0, moves.get("weights").get("rate").asDouble(), 0, "a Gibbs update is always accepted");
        long warmupSweeps = (long) CHAINS * 500;
        JsonNode warm = rj.get("move_rates_warmup");
        assertEquals(warmupSweeps, warm.get(0).get("proposed").asLong());

        // predictive.csv: the posterior means of f[i] with their 5% and 95% quantiles; integrates to ≈ 1.
        List<String[]> predictive = csv(out.resolve("predictive.csv"));
        assertEquals(List.of("x", "density", "mcse", "q5", "q95"), List.of(predictive.get(0)));
        assertEquals(61, predictive.size());
        double integral = 0;
        for (int i = 1; i < predictive.size(); i++) {
            double[] row = java.util.Arrays.stream(predictive.get(i)).mapToDouble(Double::parseDouble).toArray();
            JsonNode f = ChainsOutputs.parameter(summary, "f[" + i + "]");
            assertEquals(f.get("mean").asDouble(), row[1], 1e-9 * Math.max(1e-12, row[1]));
            assertEquals(f.get("q5").asDouble(), row[3], 1e-9 * Math.max(1e-12, row[3]));
            assertEquals(f.get("q95").asDouble(), row[4], 1e-9 * Math.max(1e-12, row[4]));
            assertTrue(row[1] >= 0 && row[3] >= 0 && row[3] <= row[4], "row " + i);
            if (i > 1) {
                double[] prev = java.util.Arrays.stream(predictive.get(i - 1)).mapToDouble(Double::parseDouble)
                        .toArray();
                integral += 0.5 * (row[1] + prev[1]) * (row[0] - prev[0]);
            }
        }
        // The grid covers the data range ± 10%; the mass outside it and the trapezoid error are below 2%.
        assertEquals(1, integral, 0.02, "the predictive density integrates to about 1 over the grid");
        assertEquals(integral, rj.get("predictive_integral").asDouble(), 1e-6);

        String html = read(out.resolve("report.html"));
        assertTrue(html.contains("Reversible jump: model choice"), "report section");
        assertTrue(html.contains("p(k | y), error bars ±2 MCSE"), "p(k|y) bar chart");
        assertTrue(html.contains("posterior predictive density"), "predictive density plot");
        assertFalse(html.contains("<script"), "no scripts");
    }

    /** Past the driver's draws limit, p(k | y) is computed on the executors: the same file, bit for bit. */
    @Test
    void modelProbabilitiesAreTheSameWhenComputedOnTheExecutors() {
        Path onDriver = run("driver", 400, 5);
        Path onExecutors = run("executors", 400, 5, "--driver-draws-limit", "0");
        assertEquals(read(onDriver.resolve("model_probs.csv")), read(onExecutors.resolve("model_probs.csv")));
        assertEquals(read(onDriver.resolve("predictive.csv")), read(onExecutors.resolve("predictive.csv")));
    }

    /** A model that is not reversible-jump writes neither file. */
    @Test
    void otherModelsWriteNoModelProbabilities() {
        Path out = tmp.resolve("bimodal");
        assertEquals(ExitCode.OK, Main.run("chains", "--conf", TestPaths.conf("chains-bimodal.conf").toString(),
                "--round-size", "200", "--max-rounds", "1", "--warmup", "100", "--out", out.toString()));
        assertFalse(Files.exists(out.resolve("model_probs.csv")));
        assertFalse(Files.exists(out.resolve("predictive.csv")));
        assertFalse(ChainsOutputs.summary(out).has("rjmcmc"));
    }

    private static List<String[]> csv(Path file) {
        List<String[]> rows = new ArrayList<>();
        for (String line : read(file).split("\n")) {
            if (!line.isBlank()) {
                rows.add(line.split(","));
            }
        }
        return rows;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
