package org.sparkmc.spark.chains;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.TestPaths;
import org.sparkmc.spark.cli.BadInputTest;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.cli.Main;

/**
 * NUTS through the chains job: eight schools with default settings converges to posteriordb's reference (every
 * mean within 4 of the job's MCSE combined with the reference's: ≈ 6e-5 false failures per quantity for a fresh
 * seed; fixed seed here), its per-step statistics land in draws.parquet and the CmdStan CSV under Stan's names,
 * summary.json counts the divergences; and a model without a gradient is refused with exit 2 before Spark starts.
 */
class NutsJobTest extends SparkTestBase {
    private static final List<String> STATS = List.of("lp__", "accept_stat__", "stepsize__", "treedepth__",
            "n_leapfrog__", "divergent__", "energy__");

    @TempDir
    Path tmp;

    @Test
    void eightSchoolsWithNutsMatchesTheReferenceAndRecordsStansStatistics() throws Exception {
        Path out = tmp.resolve("nuts");
        int code = Main.run("chains", "--model", "eight_schools_noncentered", "--data",
                TestPaths.projectRoot().resolve("data/eight_schools/eight_schools.json").toString(), "--kernel",
                "nuts", "--chains", "4", "--warmup", "1000", "--round-size", "2500", "--max-rounds", "1",
                "--seed", "21", "--cmdstan-csv", "--out", out.toString());
        assertEquals(ExitCode.OK, code);
        JsonNode summary = ChainsOutputs.summary(out);
        assertTrue(summary.get("converged").asBoolean(), summary::toString);
        assertTrue(summary.get("divergences").asLong() < 100, summary::toString);
        for (String line : Files.readAllLines(TestPaths.projectRoot().resolve(
                "data/eight_schools/reference_summary.csv")).subList(1, 11)) {
            String[] f = line.split(",");
            JsonNode p = ChainsOutputs.parameter(summary, f[0].replace("\"", ""));
            double combined = Math.hypot(p.get("mcse_mean").asDouble(), Double.parseDouble(f[9]));
            assertTrue(Math.abs(p.get("mean").asDouble() - Double.parseDouble(f[1])) < 4 * combined, line);
        }
        List<Row> draws = ChainsOutputs.draws(spark(), out);
        List<String> columns = List.of(draws.get(0).schema().fieldNames());
        assertEquals(STATS, columns.subList(columns.size() - STATS.size(), columns.size()));
        long divergent = draws.stream().filter(r -> r.getDouble(columns.indexOf("divergent__")) > 0).count();
        assertEquals(summary.get("divergences").asLong(), divergent);
        assertFalse(summary.get("efficiency").get("ess_bulk_per_second").has("stepsize__"), "statistics not summarised");
        String header;
        try (Stream<String> lines = Files.lines(out.resolve("cmdstan/chain-1.csv"))) {
            header = lines.filter(l -> !l.startsWith("#")).findFirst().orElseThrow();
        }
        assertTrue(header.startsWith(String.join(",", STATS) + ",theta.1"), header);
    }

    @Test
    void aModelWithoutAGradientIsRefusedWithExit2() {
        Path out = tmp.resolve("refused");
        BadInputTest.Result r = BadInputTest.runCapturingOut("chains", "--model", "bimodal", "--kernel", "nuts",
                "--out", out.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("kernel 'nuts' needs the gradient"), r.err());
        assertFalse(Files.exists(out));
    }
}
