package org.sparkmc.spark.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.sparkmc.spark.TestPaths;
import org.sparkmc.spark.cli.BadInputTest;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.cli.Main;

/**
 * {@code sparkmc diagnose} on the shared reference fixtures and on the jobs' own Parquet; bad files are
 * {@link DiagnoseBadInputTest}'s.
 */
class DiagnoseTest extends DiagnoseTestBase {
    static JsonNode run(Path out, String... inputs) throws IOException {
        String[] args = new String[inputs.length + 3];
        args[0] = "diagnose";
        System.arraycopy(inputs, 0, args, 1, inputs.length);
        args[inputs.length + 1] = "--out";
        args[inputs.length + 2] = out.toString();
        BadInputTest.Result r = BadInputTest.runCapturing(args);
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertTrue(Files.exists(out.resolve("report.html")) && Files.exists(out.resolve("summary.csv")));
        return new ObjectMapper().readTree(out.resolve("summary.json").toFile());
    }

    static JsonNode parameter(JsonNode summary, String name) {
        for (JsonNode p : summary.get("parameters")) {
            if (p.get("name").asText().equals(name)) {
                return p;
            }
        }
        throw new AssertionError("no " + name);
    }

    static void close(double expected, JsonNode actual, double relative, String what) {
        assertTrue(Math.abs(actual.asDouble() - expected) <= relative * Math.abs(expected),
                what + ": " + actual + " vs " + expected);
    }

    /** Stan's bern fixture, CmdStan CSV with comments, against EXPECTED.md at its stated tolerances. */
    @Test
    void stanBernFixture() throws IOException {
        Path dir = TestPaths.sharedData().resolve("diagnostics/stan_bern");
        assertStanBern(run(tmp.resolve("bern"), dir.resolve("bern*.csv").toString()));
    }

    /**
     * The same chains saved with their warm-up (save_warmup = true: 1,000 warm-up rows before "# Adaptation
     * terminated", here of values far from the posterior) give the same summary: the warm-up rows are dropped (they
     * were read as draws: R-hat 1.10 and a bulk ESS of 27 for theta).
     */
    @Test
    void savedWarmUpDrawsAreNotDiagnosed() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("saved-warmup"));
        for (int c = 1; c <= 4; c++) {
            StringBuilder out = new StringBuilder();
            for (String line : Files.readAllLines(TestPaths.sharedData().resolve("diagnostics/stan_bern/bern" + c
                    + ".csv"))) {
                if (line.startsWith("# Adaptation terminated")) {
                    for (int k = 1; k <= 1000; k++) {
                        out.append("-9,0.9,0.9,1,3,0,9.5,").append(0.99 - k * 1e-4).append('\n');
                    }
                }
                out.append(line.contains("save_warmup") ? "#     save_warmup = true" : line).append('\n');
            }
            Files.writeString(dir.resolve("bern" + c + ".csv"), out);
        }
        assertStanBern(run(tmp.resolve("bern-warmup"), dir.resolve("bern*.csv").toString()));
    }

    /**
     * fixed_param runs no warm-up, though CmdStan writes num_warmup and save_warmup = 1 in its header: every row is
     * a draw (as many would have been dropped as warm-up).
     */
    @Test
    void fixedParamDrawsAreAllKept() throws IOException {
        for (int c = 1; c <= 2; c++) {
            StringBuilder csv = new StringBuilder("# method = sample (Default)\n#   sample\n#     num_samples = 5\n"
                    + "#     num_warmup = 1000 (Default)\n#     save_warmup = 1\n#     thin = 1 (Default)\n"
                    + "#     algorithm = fixed_param\nlp__,accept_stat__,mu\n");
            for (int d = 1; d <= 5; d++) {
                csv.append("0,0,").append(c + 0.1 * d).append('\n');
            }
            Files.writeString(tmp.resolve("fixed-" + c + ".csv"), csv);
        }
        JsonNode s = run(tmp.resolve("fixed"), tmp.resolve("fixed-*.csv").toString());
        assertEquals(5, s.get("draws_per_chain").asInt());
    }

    private static void assertStanBern(JsonNode s) {
        assertEquals(4, s.get("chains").asInt());
        assertEquals(1000, s.get("draws_per_chain").asInt());
        assertEquals(List.of("lp__", "theta"), s.get("parameters").findValuesAsText("name"));
        double[][] expected = {{1.000730069, 1512.768377, 1591.970669, 0.0201648},
            {1.006789684, 1407.512423, 1291.713122, 0.00323399}};
        String[] names = {"lp__", "theta"};
        for (int i = 0; i < 2; i++) {
            JsonNode p = parameter(s, names[i]);
            assertEquals(expected[i][0], p.get("rhat").asDouble(), 1e-5, names[i] + " rhat");
            assertEquals(expected[i][1], p.get("ess_bulk").asDouble(), 1e-4 * expected[i][1], names[i] + " ess_bulk");
            assertEquals(expected[i][2], p.get("ess_tail").asDouble(), 1e-4 * expected[i][2], names[i] + " ess_tail");
            assertEquals(expected[i][3], p.get("mcse_mean").asDouble(), 1e-4 * expected[i][3], names[i] + " mcse");
        }
    }

    /** ArviZ's blocker fixture (2 CmdStan chains, 48 parameters) against R posterior's values to 1e-6 relative. */
    @Test
    void arvizBlockerFixture() throws IOException {
        Path dir = TestPaths.sharedData().resolve("diagnostics/arviz_blocker");
        JsonNode s = run(tmp.resolve("blocker"), dir.resolve("blocker.1.csv").toString(),
                dir.resolve("blocker.2.csv").toString());
        List<String> lines = Files.readAllLines(dir.resolve("reference_posterior.csv"));
        String[] header = lines.get(0).replace("\"", "").split(",");
        int checked = 0;
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.replace("\"", "").split(",");
            String name = org.sparkmc.spark.io.CmdStanCsv.bracketName(f[0]);
            JsonNode p = parameter(s, name);
            for (int c = 1; c < header.length; c++) {
                String column = switch (header[c]) {
                    case "rhat_rank" -> "rhat";
                    case "ess_bulk", "ess_tail", "ess_mean", "ess_sd", "ess_median", "mcse_mean", "mcse_sd",
                        "mcse_median" -> header[c];
                    default -> null;
                };
                if (column != null) {
                    close(Double.parseDouble(f[c]), p.get(column), 1e-6, name + " " + column);
                    checked++;
                }
            }
        }
        assertEquals(48 * 9, checked);
    }

    /** Plain chain,draw,value CSV: the four generated cases against expected_values.json to 1e-6 relative. */
    @Test
    void posteriorVectorsAsPlainCsv() throws IOException {
        Path dir = TestPaths.sharedData().resolve("diagnostics");
        JsonNode expected = new ObjectMapper().readTree(dir.resolve("expected_values.json").toFile()).get("cases");
        for (String name : List.of("iid_normal", "ar1_phi0.9", "chain4_sd3_same_mean", "one_chain_shifted_1sd")) {
            JsonNode e = expected.get(name);
            JsonNode p = parameter(run(tmp.resolve(name), dir.resolve(name + ".csv").toString()), "value");
            close(e.get("posterior_rhat").asDouble(), p.get("rhat"), 1e-6, name + " rhat");
            close(e.get("posterior_ess_bulk").asDouble(), p.get("ess_bulk"), 1e-6, name + " ess_bulk");
            close(e.get("posterior_ess_tail").asDouble(), p.get("ess_tail"), 1e-6, name + " ess_tail");
            close(e.get("posterior_mcse_mean").asDouble(), p.get("mcse_mean"), 1e-6, name + " mcse_mean");
            close(e.get("posterior_ess_sd_HEAD_sqdev").asDouble(), p.get("ess_sd"), 1e-6, name + " ess_sd");
            close(e.get("quantile2_q5").asDouble(), p.get("q5"), 1e-6, name + " q5");
            close(e.get("quantile2_q95").asDouble(), p.get("q95"), 1e-6, name + " q95");
        }
    }

    /**
     * A quoted header name keeps its commas (posterior's and ArviZ's matrix names, "theta[1,1]"): it was split into
     * "theta[1" and "1]", and refused as a parameter named twice.
     */
    @Test
    void quotedHeaderNamesKeepTheirCommas() throws IOException {
        StringBuilder csv = new StringBuilder("chain,draw,\"theta[1,1]\",\"theta[1,2]\"\n");
        for (int chain = 1; chain <= 2; chain++) {
            for (int draw = 1; draw <= 4; draw++) {
                csv.append(chain).append(',').append(draw).append(',').append(0.1 * draw).append(',')
                        .append(chain - 0.2 * draw).append('\n');
            }
        }
        Path file = Files.writeString(tmp.resolve("matrix.csv"), csv);
        JsonNode s = run(tmp.resolve("matrix"), file.toString());
        assertEquals(List.of("theta[1,1]", "theta[1,2]"), s.get("parameters").findValuesAsText("name"));
    }

    /**
     * Hidden names ({@code _…}, {@code .…}: a job's {@code _SUCCESS}, a checksum, a draft) are left out of a glob's
     * matches as of a directory's listing, as Spark's readers leave them out: a bad hidden file beside good draws
     * used to fail a glob with exit 2.
     */
    @Test
    void hiddenFilesAreLeftOutOfGlobsAndDirectories() throws IOException {
        Path draws = Files.createDirectories(tmp.resolve("draws"));
        Files.copy(TestPaths.sharedData().resolve("diagnostics").resolve("iid_normal.csv"), draws.resolve("a.csv"));
        Files.writeString(draws.resolve("_draft.csv"), "not,draws\n");
        Files.writeString(draws.resolve(".a.csv"), "chain,draw,value\n1,1,x\n");
        double rhat = parameter(run(tmp.resolve("one"), draws.resolve("a.csv").toString()), "value").get("rhat")
                .asDouble();
        assertEquals(rhat, parameter(run(tmp.resolve("glob"), draws.resolve("*.csv").toString()), "value")
                .get("rhat").asDouble());
        assertEquals(rhat, parameter(run(tmp.resolve("dir"), draws.toString()), "value").get("rhat").asDouble());
        BadInputTest.Result r = BadInputTest.runCapturing("diagnose", draws.resolve("_*.csv").toString(), "--out",
                tmp.resolve("none").toString());
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("no file matches; names starting with _ or . are left out"), r.err());
    }

    /** The chains job's Parquet and CmdStan CSV read back give the job's own summary. */
    @Test
    void chainsOutputsReadBackToTheSameSummary() throws IOException {
        Path job = tmp.resolve("job");
        assertEquals(ExitCode.OK, Main.run("chains", "--model", "bimodal", "--scale", "10", "--chains", "3",
                "--warmup", "100", "--round-size", "400", "--max-rounds", "1", "--cmdstan-csv", "--out",
                job.toString()));
        JsonNode original = new ObjectMapper().readTree(job.resolve("summary.json").toFile());
        JsonNode fromParquet = run(tmp.resolve("parquet"), job.resolve("draws.parquet").toString());
        assertEquals(original.get("parameters"), fromParquet.get("parameters"));
        JsonNode fromDirectory = run(tmp.resolve("directory"), job.toString());
        assertEquals(original.get("parameters"), fromDirectory.get("parameters"));
        JsonNode fromCsv = run(tmp.resolve("csv"), job.resolve("cmdstan").toString());
        for (String name : List.of("x", "x_gt_5", "lp__")) {
            for (String column : List.of("mean", "rhat", "ess_bulk")) {
                close(parameter(original, name).get(column).asDouble(), parameter(fromCsv, name).get(column), 1e-6,
                        name + " " + column + " via CmdStan CSV (9 significant digits)");
            }
        }
    }

    /**
     * One convergence rule: a chains run that stopped converged (min ESS 400 over all chains with 8 chains, where the
     * old diagnose default asked 100 per chain = 800) is converged for diagnose's defaults too.
     */
    @Test
    void diagnoseAndChainsApplyTheSameRule() throws IOException {
        Path job = tmp.resolve("job");
        assertEquals(ExitCode.OK, Main.run("chains", "--model", "bimodal", "--scale", "10", "--chains", "8",
                "--warmup", "500", "--round-size", "250", "--max-rounds", "40", "--out", job.toString()));
        JsonNode chains = new ObjectMapper().readTree(job.resolve("summary.json").toFile());
        assertTrue(chains.get("converged").asBoolean());
        JsonNode diagnosed = run(tmp.resolve("diagnosed"), job.toString());
        assertEquals(0, diagnosed.get("failing").size(), diagnosed.get("failing").toString());
        double minEss = Double.MAX_VALUE;
        for (JsonNode p : diagnosed.get("parameters")) {
            minEss = Math.min(minEss, Math.min(p.get("ess_bulk").asDouble(), p.get("ess_tail").asDouble()));
        }
        assertTrue(minEss < 800, "the case where the two rules used to disagree: min ESS " + minEss);
    }

    /**
     * Undefined diagnostics are not a pass: with 2 chains of 3 draws, {@code a} varies but R-hat is NA (too short
     * to split) and {@code b} stays at each chain's own value (R-hat ∞); both used to pass while {@code chains} failed
     * the same draws. Only {@code k}, the same in every draw, passes. Deterministic: no random draws.
     */
    @Test
    void undefinedDiagnosticsFailUnlessTheDrawsAreConstant() throws IOException {
        Path csv = tmp.resolve("short.csv");
        Files.writeString(csv, "chain,draw,k,a,b\n1,1,7,0.1,1\n1,2,7,0.2,1\n1,3,7,0.3,1\n"
                + "2,1,7,0.15,2\n2,2,7,0.25,2\n2,3,7,0.35,2\n");
        BadInputTest.Result r = BadInputTest.runCapturingOut("diagnose", csv.toString(), "--require-convergence",
                "--out", tmp.resolve("short").toString());
        assertEquals(ExitCode.NOT_CONVERGED, r.code(), r.err());
        assertTrue(r.err().contains("2 of 3 parameters fail"), r.err());
        assertTrue(r.err().contains("a: R-hat undefined (NA) though the draws vary")
                && r.err().contains("b: R-hat undefined (NA) though the draws vary"), r.err());
        assertTrue(!r.err().contains("k:"), r.err());
        String report = Files.readString(tmp.resolve("short/report.html"));
        assertTrue(!report.contains("NaN") && report.contains("<td>NA</td>"), "NA as in summary.csv, not NaN");
    }

    /**
     * The report plots failing parameters first, an undefined R-hat of draws that vary counted as the worst: {@code
     * stuck} (0 in chain 1, 1 in chain 2: R-hat NA, failing) was sorted as −∞ and left out for {@code good}.
     */
    @Test
    void theReportPlotsAFailingParameterWithAnUndefinedRhatFirst() throws IOException {
        StringBuilder csv = new StringBuilder("chain,draw,good,stuck,k\n");
        for (int chain = 1; chain <= 2; chain++) {
            for (int draw = 1; draw <= 200; draw++) {
                double u = ((draw * 73 + chain * 29) % 199) / 199.0 - 0.5;
                csv.append(chain).append(',').append(draw).append(',').append(u).append(',').append(chain - 1)
                        .append(",7\n");
            }
        }
        Path file = Files.writeString(tmp.resolve("nafail.csv"), csv);
        BadInputTest.Result r = BadInputTest.runCapturingOut("diagnose", file.toString(), "--report-parameters", "1",
                "--out", tmp.resolve("nafail").toString());
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertTrue(r.err().contains("stuck: R-hat undefined (NA)"), r.err());
        String report = Files.readString(tmp.resolve("nafail/report.html"));
        assertTrue(report.contains("<h3>stuck</h3>") && !report.contains("<h3>good</h3>"), "stuck is plotted");
        assertTrue(report.contains("The 1 of 3 parameters plotted: failing ones first, then by R-hat, highest first."),
                "the note says the order");
    }

    /**
     * Each chain stuck at a value of its own, in chains long enough to split, has R-hat ∞ as in posterior: Inf on
     * standard output, in summary.csv, summary.json (a string: JSON has no infinity) and the report alike (the
     * files said NA, standard output Infinity).
     */
    @Test
    void anInfiniteRhatIsInfEverywhere() throws IOException {
        StringBuilder csv = new StringBuilder("chain,draw,a,s\n");
        for (int chain = 1; chain <= 4; chain++) {
            for (int draw = 1; draw <= 9; draw++) {
                csv.append(chain).append(',').append(draw).append(',').append((draw * 5 + chain * 3) % 7)
                        .append(',').append(chain - 1).append('\n');
            }
        }
        Path file = Files.writeString(tmp.resolve("stuck.csv"), csv);
        Path out = tmp.resolve("stuck");
        BadInputTest.Result r = BadInputTest.runCapturingOut("diagnose", file.toString(), "--out", out.toString());
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertTrue(r.err().contains("s: R-hat Inf ≥ 1.010 (each chain stuck at a value of its own)"), r.err());
        String row = Files.readAllLines(out.resolve("summary.csv")).stream().filter(l -> l.startsWith("s,"))
                .findFirst().orElseThrow();
        assertEquals("Inf", row.split(",")[SummaryFiles.COLUMNS.indexOf("rhat")], row);
        JsonNode s = parameter(new ObjectMapper().readTree(out.resolve("summary.json").toFile()), "s");
        assertEquals("Inf", s.get("rhat").asText(), s.toString());
        assertTrue(s.get("rhat").isTextual(), s.toString());
        String report = Files.readString(out.resolve("report.html"));
        assertTrue(report.contains("<td>Inf</td>") && !report.contains("Infinity"), "Inf in the report too");
    }

    /**
     * Draws near 1e-310 crashed the report ("ticks need lo < hi", exit 1); ±1e-300 had sd 0; 1e155 to 1e200 had sd,
     * MCSE and basic R-hat NA (squares overflowed). Deterministic values.
     */
    @Test
    void extremeMagnitudesAreSummarisedAndPlotted() throws IOException {
        StringBuilder csv = new StringBuilder("chain,draw,tiny,signed,huge\n");
        for (int chain = 1; chain <= 2; chain++) {
            for (int draw = 1; draw <= 40; draw++) {
                double u = ((draw * 37 + chain * 11) % 41) / 41.0;
                csv.append(chain).append(',').append(draw).append(',').append((1 + u) * 1e-310).append(',')
                        .append((u - 0.5) * 2e-300).append(',').append(Math.pow(10, 155 + 45 * u)).append('\n');
            }
        }
        Path file = Files.writeString(tmp.resolve("extreme.csv"), csv);
        JsonNode s = run(tmp.resolve("extreme"), file.toString());
        for (String name : List.of("tiny", "signed", "huge")) {
            double sd = parameter(s, name).get("sd").asDouble();
            assertTrue(sd > 0 && Double.isFinite(sd), name + " sd " + parameter(s, name));
        }
        assertTrue(parameter(s, "huge").get("rhat_basic").isNumber(), parameter(s, "huge").toString());
        List<String> csvLines = Files.readAllLines(tmp.resolve("extreme/summary.csv"));
        String huge = csvLines.stream().filter(l -> l.startsWith("huge,")).findFirst().orElseThrow();
        assertEquals(parameter(s, "huge").get("mean").asDouble(), Double.parseDouble(huge.split(",")[1]),
                "summary.csv keeps every digit (ten significant digits hid spreads near 1e12)");
    }

    /**
     * The same too-short draws fail in chains and, read back, in diagnose; chains' progress line says NA where its
     * outputs do (it said "max R-hat NaN").
     */
    @Test
    void tooShortChainsFailInChainsAndInDiagnose() throws Exception {
        Path job = tmp.resolve("job");
        int[] code = new int[1];
        List<String> lines = org.sparkmc.spark.LoggedLines.of(org.sparkmc.spark.chains.ChainsJob.class,
                () -> code[0] = Main.run("chains", "--model", "bimodal", "--chains", "2", "--warmup", "10",
                        "--round-size", "3", "--max-rounds", "1", "--require-convergence", "--out", job.toString()));
        assertEquals(ExitCode.NOT_CONVERGED, code[0]);
        assertTrue(lines.stream().anyMatch(l -> l.contains("max R-hat NA  min ESS bulk NA tail NA")),
                lines.toString());
        BadInputTest.Result r = BadInputTest.runCapturingOut("diagnose", job.toString(), "--require-convergence",
                "--out", tmp.resolve("diagnosed").toString());
        assertEquals(ExitCode.NOT_CONVERGED, r.code(), r.err());
    }

    @Test
    void failingParametersExitThreeWithAList() throws IOException {
        Path csv = TestPaths.sharedData().resolve("diagnostics/one_chain_shifted_1sd.csv");
        BadInputTest.Result r = BadInputTest.runCapturingOut("diagnose", csv.toString(), "--require-convergence",
                "--out", tmp.resolve("shifted").toString());
        assertEquals(ExitCode.NOT_CONVERGED, r.code(), r.err());
        assertTrue(r.err().contains("1 of 1 parameters fail") && r.err().contains("value: R-hat"), r.err());
        String report = Files.readString(tmp.resolve("shifted/report.html"));
        assertTrue(report.contains("class=\"fail\""));
    }

    /**
     * A directory Spark wrote partitioned by chain ({@code chain=1/part-….parquet}) said "no .csv file in the
     * inputs"; it is read as Parquet, its chain column from the directory names.
     */
    @Test
    void parquetPartitionedByChainIsRead() throws IOException {
        StructType schema = new StructType().add("chain", DataTypes.IntegerType).add("draw", DataTypes.IntegerType)
                .add("a", DataTypes.DoubleType).add("b", DataTypes.DoubleType);
        Path dir = tmp.resolve("bychain");
        spark().createDataFrame(goodRows().stream().map(RowFactory::create).toList(), schema).write()
                .partitionBy("chain").parquet(dir.toString());
        JsonNode s = run(tmp.resolve("out-bychain"), dir.toString());
        assertEquals(2, s.get("chains").asInt());
        assertEquals(3, s.get("draws_per_chain").asInt());
        assertEquals(List.of("a", "b"), s.get("parameters").findValuesAsText("name"));
        Path other = Files.createDirectories(tmp.resolve("other/chain=1"));
        Files.writeString(other.resolve("part-0.json"), "{}\n");
        BadInputTest.Result r = BadInputTest.runCapturing("diagnose", other.getParent().toString(), "--out",
                tmp.resolve("out-other").toString());
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("no .csv file in the inputs (") && r.err().contains("Parquet draws: .parquet "
                + "files, or directories holding them, also in subdirectories"), r.err());
    }

    /**
     * A chains job's output directory (draws.parquet beside summary.csv, summary.json, report.html) is read through
     * its draws.parquet, not as a directory of Parquet files.
     */
    @Test
    void chainsOutputDirectoryIsReadThroughItsDrawsParquet() throws IOException {
        Path job = chainsOutputDirectory();
        Files.writeString(job.resolve("report.html"), "<html></html>");
        JsonNode s = run(tmp.resolve("dir"), job.toString());
        assertEquals(2, s.get("chains").asInt());
        assertEquals(3, s.get("draws_per_chain").asInt());
        assertEquals(List.of("a", "b"), s.get("parameters").findValuesAsText("name"));
    }
}
