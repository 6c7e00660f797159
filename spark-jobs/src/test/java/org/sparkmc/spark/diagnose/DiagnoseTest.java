package org.sparkmc.spark.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.TestPaths;
import org.sparkmc.spark.cli.BadInputTest;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.cli.Main;

/** {@code sparkmc diagnose} on the shared reference fixtures, on the jobs' own Parquet, and on bad files. */
class DiagnoseTest extends SparkTestBase {

    @TempDir
    Path tmp;

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
     * --min-ess and --min-ess-per-chain together are refused, from the command line and from a config file alike (a
     * config file's pair kept the per-chain one and dropped --min-ess without a word).
     */
    @Test
    void minEssAndMinEssPerChainTogetherExitTwo() throws IOException {
        String bern = TestPaths.sharedData().resolve("diagnostics/stan_bern/bern1.csv").toString();
        Path conf = Files.writeString(tmp.resolve("both.conf"), "min-ess = 100000\nmin-ess-per-chain = 1\n");
        for (String[] args : List.of(new String[] {"diagnose", bern, "--min-ess", "100000", "--min-ess-per-chain", "1"},
                new String[] {"diagnose", "--conf", conf.toString(), bern})) {
            Path out = tmp.resolve("both");
            List<String> withOut = new ArrayList<>(List.of(args));
            withOut.addAll(List.of("--out", out.toString()));
            BadInputTest.Result r = BadInputTest.runCapturing(withOut.toArray(String[]::new));
            assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
            assertTrue(r.err().contains("give --min-ess (over all chains) or --min-ess-per-chain, not both"), r.err());
            assertFalse(Files.exists(out));
        }
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
     * Parquet draws and a CSV file together are refused as two formats (it advised --format cmdstan or csv, which
     * would then fail on the Parquet input).
     */
    @Test
    void parquetAndCsvInputsTogetherExitTwo() throws IOException {
        Path parquet = parquet("draws", goodRows());
        Path csv = Files.writeString(tmp.resolve("more.csv"), "chain,draw,a,b\n3,1,0.1,1\n3,2,0.2,1\n3,3,0.3,1\n");
        Path out = tmp.resolve("two-formats");
        BadInputTest.Result r = BadInputTest.runCapturing("diagnose", parquet.toString(), csv.toString(), "--out",
                out.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("inputs of two formats: ") && r.err().contains("draws.parquet is Parquet draws, ")
                && r.err().contains("more.csv is not; diagnose reads one format a run"), r.err());
        assertFalse(Files.exists(out));
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

    static Stream<Arguments> badFiles() {
        String header = "chain,draw,a,b\n";
        return Stream.of(
                Arguments.of("ragged.csv", header + "1,1,0.5,0.1\n1,2,0.4\n", "ragged.csv:3: expected 4 values"),
                Arguments.of("text.csv", header + "1,1,0.5,0.1\n2,1,abc,0.2\n", "text.csv:3: 'abc' in column 'a'"),
                Arguments.of("hugechain.csv", header + "1,1,0.5,0.1\n99999999999,1,0.5,0.2\n", "hugechain.csv:3: chain "
                        + "and draw must be whole numbers from 1 to 2147483647, found '99999999999', '1'"),
                // A NaN draw failed in the report's rank plot (ArrayIndexOutOfBoundsException, exit 1).
                Arguments.of("nan.csv", header + "1,1,0.5,0.1\n2,1,NaN,0.2\n", "nan.csv:3, column 3 ('a'): the draw "
                        + "is NaN; diagnostics need finite draws"),
                Arguments.of("infinite.csv", header + "1,1,0.5,0.1\n2,1,0.5,-Infinity\n", "infinite.csv:3, column 4 "
                        + "('b'): the draw is -Infinity; diagnostics need finite draws"),
                Arguments.of("stan-infinite.csv", "# comment\nlp__,theta\n-1,0.5\n-2,Infinity\n",
                        "stan-infinite.csv:4, column 2 ('theta'): the draw is Infinity"),
                Arguments.of("twice.csv", header + "1,1,0.5,0.1\n1,1,0.5,0.1\n2,1,1,1\n", "twice.csv:3: chain 1 has "
                        + "draw 1 twice"),
                Arguments.of("gap.csv", header + "1,1,0.5,0.1\n1,2,0.5,0.1\n2,1,1,1\n2,3,1,1\n", "gap.csv: chain 2 has "
                        + "draws 1 to 3 but not draw 2"),
                Arguments.of("short.csv", header + "1,1,0.5,0.1\n1,2,0.5,0.1\n2,1,1,1\n", "has 1 draws but chain 1 has 2"),
                Arguments.of("one.csv", header + "1,1,0.5,0.1\n1,2,0.5,0.1\n", "at least 2 chains"),
                Arguments.of("repeated.csv", "chain,draw,a,b,a\n1,1,0.5,0.1,0.2\n2,1,1,1,1\n", "repeated.csv:1: "
                        + "columns 3 and 5 both name parameter 'a'; each parameter needs its own column"),
                Arguments.of("stan-repeated.csv", "# comment\nlp__,a.1,b,a[1]\n-1,0.5,1,2\n", "stan-repeated.csv:2: "
                        + "columns 2 and 4 both name parameter 'a[1]'"),
                Arguments.of("nameless.csv", "chain,draw,,a\n1,1,0.5,0.1\n2,1,1,1\n", "nameless.csv:1: column 3 has no "
                        + "name; every column needs one"),
                Arguments.of("trailing.csv", "# c\nlp__,a,\n-1,0.5,\n", "trailing.csv:2: column 3 has no name (does "
                        + "the header end in a comma?)"),
                Arguments.of("nothing.csv", "", "empty file"),
                Arguments.of("what.csv", "x,y\n1,2\n", "what.csv:1: cannot tell the format"),
                Arguments.of("stan.csv", "# comment\nlp__,theta\n-1,0.5\n-2\n", "stan.csv:4: expected 2 values"),
                Arguments.of("advi.csv", "# method = variational\nlp__,log_p__,log_g__,theta\n0,0,0,0.2\n0,-1,-1,0.3\n",
                        "advi.csv: CmdStan's 'variational' output (method = variational), not MCMC draws"),
                Arguments.of("cut.csv", "#     num_warmup = 3\n#     save_warmup = 1\nlp__,theta\n-1,0.5\n-1,0.6\n"
                        + "# Adaptation terminated\n-1,0.4\n", "cut.csv:6: found 2 draws before '# Adaptation "
                        + "terminated' where its settings (save_warmup = 1, num_warmup = 3, thin = 1) give 3 warm-up "
                        + "draws"),
                Arguments.of("unsaved.csv", "#     save_warmup = false\nlp__,theta\n-1,0.5\n# Adaptation terminated\n"
                        + "-1,0.4\n", "unsaved.csv:4: found 1 draws before '# Adaptation terminated' where its "
                        + "settings (save_warmup = false) give 0 warm-up draws"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badFiles")
    void badFilesExitTwoNamingFileAndLine(String name, String content, String expected) throws IOException {
        Path file = tmp.resolve(name);
        Files.writeString(file, content);
        Path out = tmp.resolve("out-" + name);
        BadInputTest.Result r = BadInputTest.runCapturing("diagnose", file.toString(), "--out", out.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains(expected), "expected '" + expected + "' in " + r.err());
        assertFalse(Files.exists(out));
    }

    /** Writes (chain, draw, a, b) rows, nulls allowed, as one Parquet file. */
    private Path parquet(String name, List<Object[]> rows) {
        StructType schema = new StructType().add("chain", DataTypes.IntegerType).add("draw", DataTypes.IntegerType)
                .add("a", DataTypes.DoubleType).add("b", DataTypes.DoubleType);
        Path file = tmp.resolve(name + ".parquet");
        spark().createDataFrame(rows.stream().map(RowFactory::create).toList(), schema).coalesce(1).write()
                .parquet(file.toString());
        return file;
    }

    /** Writes (chain, draw, a, b) rows as a Parquet directory of {@code parts} part files, one chain per part. */
    private Path parquetParts(String name, List<Object[]> rows, int parts) {
        StructType schema = new StructType().add("chain", DataTypes.IntegerType).add("draw", DataTypes.IntegerType)
                .add("a", DataTypes.DoubleType).add("b", DataTypes.DoubleType);
        Path dir = tmp.resolve(name + ".parquet");
        spark().createDataFrame(rows.stream().map(RowFactory::create).toList(), schema)
                .repartition(parts, org.apache.spark.sql.functions.col("chain")).write().parquet(dir.toString());
        return dir;
    }

    /** Two chains of three draws. */
    private static List<Object[]> goodRows() {
        List<Object[]> rows = new ArrayList<>();
        for (int chain = 1; chain <= 2; chain++) {
            for (int draw = 1; draw <= 3; draw++) {
                rows.add(new Object[] {chain, draw, 0.1 * draw, (double) chain});
            }
        }
        return rows;
    }

    static Stream<Arguments> badParquet() {
        return Stream.of(
                Arguments.of("twice", 5, new Object[] {2, 2, 0.5, 2.0}, "chain 2 has draw 2 twice"),
                Arguments.of("gap", 5, new Object[] {2, 4, 0.5, 2.0}, "chain 2 has draws 1 to 4 but not draw 3"),
                Arguments.of("nulldraw", 4, new Object[] {2, null, 0.5, 2.0},
                        "chain 2 has 1 row(s) without a draw number"),
                Arguments.of("nullvalue", 4, new Object[] {2, 2, 0.5, null},
                        "chain 2, draw 2: column 'b' is null, not a number"),
                Arguments.of("nanvalue", 4, new Object[] {2, 2, Double.NaN, 1.0},
                        "chain 2, draw 2: column 'a': the draw is NaN; diagnostics need finite draws"),
                Arguments.of("infinitevalue", 1, new Object[] {1, 2, 0.5, Double.POSITIVE_INFINITY},
                        "chain 1, draw 2: column 'b': the draw is Infinity"),
                Arguments.of("nullchain", 0, new Object[] {null, 1, 0.5, 1.0}, "1 row(s) without a chain number"),
                Arguments.of("drawzero", 3, new Object[] {2, 0, 0.5, 2.0},
                        "chain and draw start at 1, found chain 2 with draw 0"),
                Arguments.of("chainzero", 0, new Object[] {0, 1, 0.5, 2.0},
                        "chain and draw start at 1, found chain 0"));
    }

    /** Parquet draws are checked as CSV draws are: exit 2 naming the input and the chain, nothing written. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("badParquet")
    void badParquetExitsTwoNamingInputAndChain(String name, int index, Object[] row, String expected) {
        List<Object[]> rows = goodRows();
        rows.set(index, row);
        Path file = parquet(name, rows);
        Path out = tmp.resolve("out-" + name);
        BadInputTest.Result r = BadInputTest.runCapturing("diagnose", file.toString(), "--out", out.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains(name + ".parquet: " + expected), "expected '" + expected + "' in " + r.err());
        assertFalse(r.err().contains("\tat "), r.err());
        assertFalse(Files.exists(out));
    }

    /** Parquet columns name parameters as a CSV header does: a.1 and a[1] are one parameter, and a name is needed. */
    @Test
    void parquetColumnsNamingOneParameterTwiceOrNoneExitTwo() {
        for (String[] columns : List.of(new String[] {"a.1", "a[1]"}, new String[] {"a", ""})) {
            StructType schema = new StructType().add("chain", DataTypes.IntegerType).add("draw", DataTypes.IntegerType)
                    .add(columns[0], DataTypes.DoubleType).add(columns[1], DataTypes.DoubleType);
            Path file = tmp.resolve("named-" + columns[1].length() + ".parquet");
            spark().createDataFrame(goodRows().stream().map(RowFactory::create).toList(), schema).coalesce(1).write()
                    .parquet(file.toString());
            Path out = tmp.resolve("out-named");
            BadInputTest.Result r = BadInputTest.runCapturing("diagnose", file.toString(), "--out", out.toString());
            assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
            assertTrue(r.err().contains(columns[1].isEmpty() ? "a parameter column has no name"
                    : "columns 'a.1' and 'a[1]' both name parameter 'a[1]'; each parameter needs its own column"),
                    r.err());
            assertFalse(Files.exists(out));
        }
    }

    /**
     * Chain numbers in a column of 64-bit integers beyond the 32 bits they are read as failed with exit 1 and Spark's
     * CAST_OVERFLOW trace; refused as CSV draws are, naming the file, the column and the limit.
     */
    @Test
    void parquetChainNumbersBeyond32BitsExitTwo() {
        StructType schema = new StructType().add("chain", DataTypes.LongType).add("draw", DataTypes.LongType)
                .add("a", DataTypes.DoubleType);
        List<org.apache.spark.sql.Row> rows = new ArrayList<>();
        for (long chain : new long[] {1, 99_999_999_999L}) {
            for (long draw = 1; draw <= 3; draw++) {
                rows.add(RowFactory.create(chain, draw, 0.1 * draw));
            }
        }
        Path file = tmp.resolve("hugechain.parquet");
        spark().createDataFrame(rows, schema).coalesce(1).write().parquet(file.toString());
        Path out = tmp.resolve("out-huge");
        BadInputTest.Result r = BadInputTest.runCapturing("diagnose", file.toString(), "--out", out.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("hugechain.parquet/part-") && r.err().contains(".parquet: column 'chain' holds "
                + "99999999999; chain and draw must be whole numbers from 1 to 2147483647"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
        assertFalse(Files.exists(out));
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
     * Parquet inputs whose columns differ are refused before Spark starts, naming what the later one lacks: Spark
     * read every input with one input's schema, and a parameter only some held was left out without a word.
     */
    @Test
    void parquetInputsWithOtherParametersExitTwo() throws IOException {
        Path both = parquet("both", goodRows());
        StructType schema = new StructType().add("chain", DataTypes.IntegerType).add("draw", DataTypes.IntegerType)
                .add("a", DataTypes.DoubleType);
        Path onlyA = tmp.resolve("only-a.parquet");
        spark().createDataFrame(List.of(RowFactory.create(3, 1, 0.1), RowFactory.create(3, 2, 0.2),
                RowFactory.create(3, 3, 0.3)), schema).coalesce(1).write().parquet(onlyA.toString());
        for (List<Path> order : List.of(List.of(both, onlyA), List.of(onlyA, both))) {
            Path out = tmp.resolve("mixed");
            BadInputTest.Result r = BadInputTest.runCapturing("diagnose", order.get(0).toString(),
                    order.get(1).toString(), "--out", out.toString());
            assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
            assertTrue(r.err().contains("has columns [a, chain, draw] but the first input, ")
                    || r.err().contains("has columns [a, b, chain, draw] but the first input, "), r.err());
            assertTrue(r.err().contains(order.get(0).equals(both) ? "it lacks [b]" : "it adds [b]"), r.err());
            assertFalse(Files.exists(out));
        }
        // Columns the reader leaves out may differ: a sampler column in one input, a text label in the other.
        StructType sampler = new StructType().add("chain", DataTypes.IntegerType).add("draw", DataTypes.IntegerType)
                .add("a", DataTypes.DoubleType).add("b", DataTypes.DoubleType)
                .add("accept_stat__", DataTypes.DoubleType);
        Path withSampler = tmp.resolve("sampler.parquet");
        spark().createDataFrame(List.of(RowFactory.create(3, 1, 0.1, 1.0, 0.9), RowFactory.create(3, 2, 0.2, 1.0, 0.8),
                RowFactory.create(3, 3, 0.3, 1.0, 0.7)), sampler).coalesce(1).write().parquet(withSampler.toString());
        StructType labelled = new StructType().add("chain", DataTypes.IntegerType).add("draw", DataTypes.IntegerType)
                .add("a", DataTypes.DoubleType).add("b", DataTypes.DoubleType).add("label", DataTypes.StringType);
        Path withLabel = tmp.resolve("label.parquet");
        spark().createDataFrame(List.of(RowFactory.create(4, 1, 0.4, 2.0, "x"), RowFactory.create(4, 2, 0.1, 2.0, "y"),
                RowFactory.create(4, 3, 0.2, 2.0, "z")), labelled).coalesce(1).write().parquet(withLabel.toString());
        JsonNode s = run(tmp.resolve("out-kept"), withSampler.toString(), withLabel.toString());
        assertEquals(List.of("a", "b"), s.get("parameters").findValuesAsText("name"));
    }

    /**
     * The same draws given twice would be each draw twice, not chains twice as long: refused before Spark reads them
     * (it was refused after, as "chain 1 has draw 1 twice").
     */
    @Test
    void parquetGivenTwiceExitsTwo() {
        Path file = parquet("good", goodRows());
        Path out = tmp.resolve("twice");
        BadInputTest.Result r = BadInputTest.runCapturing("diagnose", file.toString(), file.toString(), "--out",
                out.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("good.parquet is given twice (as '" + file + "' both times)"), r.err());
        assertFalse(Files.exists(out));
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

    /** A chains job's output and its own draws.parquet are one input given twice, refused before Spark reads it. */
    @Test
    void chainsOutputBesideItsDrawsIsGivenTwice() throws IOException {
        Path job = chainsOutputDirectory();
        Path out = tmp.resolve("o");
        BadInputTest.Result r = BadInputTest.runCapturing("diagnose", job.toString(),
                job.resolve("draws.parquet").toString(), "--out", out.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("draws.parquet is given twice (by '" + job + "' and by '"
                + job.resolve("draws.parquet") + "')"), r.err());
        assertFalse(Files.exists(out));
    }

    /** Forcing a text format on a chains job's output directory names what to pass instead of reading summary.csv. */
    @Test
    void chainsOutputDirectoryAsTextExitsTwo() throws IOException {
        Path job = chainsOutputDirectory();
        Path out = tmp.resolve("o");
        BadInputTest.Result r = BadInputTest.runCapturing("diagnose", job.toString(), "--format", "csv", "--out",
                out.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("chains-out is a chains job output") && r.err().contains("draws.parquet"),
                r.err());
        assertFalse(Files.exists(out));
    }

    /** A chains job's output directory as far as diagnose cares: draws.parquet (good rows) beside summaries. */
    private Path chainsOutputDirectory() throws IOException {
        Path job = Files.createDirectories(tmp.resolve("chains-out"));
        parquet("draws", goodRows());
        Files.move(tmp.resolve("draws.parquet"), job.resolve("draws.parquet"));
        Files.writeString(job.resolve("summary.csv"), "name,mean\na,0.2\n");
        Files.writeString(job.resolve("summary.json"), "{}");
        return job;
    }

    /** Cases of files Spark cannot read as Parquet: the name to look for in the message and extra arguments. */
    static Stream<Arguments> unreadableParquet() {
        return Stream.of(
                Arguments.of("truncated part file", "truncated.parquet", List.of()),
                Arguments.of("directory with a truncated second part", "part-00001", List.of()),
                Arguments.of("directory with a text file among the parts", "notes.parquet", List.of()),
                Arguments.of("CSV file with --format parquet", "draws.csv", List.of("--format", "parquet")));
    }

    /** A file Spark cannot read as Parquet exits 2 naming it, with no stack trace and nothing written. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("unreadableParquet")
    void unreadableParquetExitsTwoNamingTheFile(String label, String named, List<String> extra) throws IOException {
        Path dir = parquetParts("parts", goodRows(), 2);
        List<Path> parts;
        try (Stream<Path> list = Files.list(dir)) {
            parts = list.filter(f -> f.getFileName().toString().startsWith("part-")).sorted().toList();
        }
        assertEquals(2, parts.size());
        Path input = switch (named) {
            case "truncated.parquet" -> {
                Path file = tmp.resolve(named);
                byte[] bytes = Files.readAllBytes(parts.get(0));
                Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length / 2));
                yield file;
            }
            case "part-00001" -> {
                byte[] bytes = Files.readAllBytes(parts.get(1));
                Files.delete(parts.get(1));
                Files.deleteIfExists(dir.resolve("." + parts.get(1).getFileName() + ".crc"));
                Files.write(parts.get(1), java.util.Arrays.copyOf(bytes, bytes.length - 10));
                yield dir;
            }
            case "notes.parquet" -> {
                Files.writeString(dir.resolve(named), "not Parquet at all\n");
                yield dir;
            }
            default -> {
                Path file = tmp.resolve(named);
                Files.writeString(file, "chain,draw,a\n1,1,0.5\n2,1,0.4\n");
                yield file;
            }
        };
        Path out = tmp.resolve("out");
        List<String> args = new ArrayList<>(List.of("diagnose", input.toString()));
        args.addAll(extra);
        args.addAll(List.of("--out", out.toString()));
        BadInputTest.Result r = BadInputTest.runCapturing(args.toArray(String[]::new));
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains(named) && r.err().contains("is not readable Parquet"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
        assertFalse(Files.exists(out));
    }

    /** sparkmc's own chain,draw CSV forced as CmdStan CSV (one chain per file) is refused with the right --format. */
    @Test
    void chainDrawCsvForcedAsCmdStanExitsTwo() throws IOException {
        StringBuilder csv = new StringBuilder("chain,draw,a\n");
        for (int chain = 1; chain <= 4; chain++) {
            for (int draw = 1; draw <= 5; draw++) {
                csv.append(chain).append(',').append(draw).append(',').append(0.1 * draw * chain).append('\n');
            }
        }
        Path file = tmp.resolve("long.csv");
        Files.writeString(file, csv);
        Path out = tmp.resolve("o");
        BadInputTest.Result r = BadInputTest.runCapturing("diagnose", file.toString(), "--format", "cmdstan",
                "--out", out.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("long.csv:1: ") && r.err().contains("not CmdStan CSV")
                && r.err().contains("--format csv"), r.err());
        assertFalse(Files.exists(out));
        assertEquals(ExitCode.OK, BadInputTest.runCapturing("diagnose", file.toString(), "--format", "csv",
                "--out", out.toString()).code());
    }

    @Test
    void missingChainFileExitsTwo() {
        Path out = tmp.resolve("o");
        BadInputTest.Result r = BadInputTest.runCapturing("diagnose",
                TestPaths.sharedData().resolve("diagnostics/stan_bern/bern1.csv").toString(),
                tmp.resolve("bern2.csv").toString(), "--out", out.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("bern2.csv' does not exist"), r.err());
    }
}
