package org.sparkmc.spark.smc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.smc.ObservationCsv;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.TestPaths;
import org.sparkmc.spark.cli.BadInputTest;
import org.sparkmc.spark.cli.ExitCode;

/**
 * Bad input exits with code 2, one message that says what and where, no stack trace and no output directory; a
 * weight collapse exits with code 1 naming the time step.
 */
class SmcBadInputTest extends SparkTestBase {
    @TempDir
    Path tmp;

    static Stream<Arguments> cases() {
        String nile = SmcTestData.nileFile().toString();
        return Stream.of(
                Arguments.of("zero particles", List.of("--data", nile, "--particles", "0"), "--particles must be ≥ 1, is 0"),
                Arguments.of("a column twice", List.of("--data", nile, "--columns", "flow,flow"),
                        "--columns names 'flow' twice; name each observation column once"),
                Arguments.of("unknown sync-via", List.of("--data", nile, "--sync-via", "barrier"),
                        "--sync-via must be auto, relay or jobs, is 'barrier'"),
                // it ran out of memory (exit 52) after Spark started
                Arguments.of("particles beyond the heap", List.of("--data", nile, "--particles", "2000000000",
                        "--master", "local[2]"), "--particles 2000000000: the particles' states and weights take at "
                        + "least 29.8 GiB, and local mode holds them in this JVM, whose heap is at most "),
                Arguments.of("negative particles", List.of("--data", nile, "--particles", "-5"),
                        "--particles must be ≥ 1, is -5"),
                Arguments.of("zero block size", List.of("--data", nile, "--block-size", "0"), "--block-size must be ≥ 1, is 0"),
                Arguments.of("negative partitions", List.of("--data", nile, "--partitions", "-1"),
                        "--partitions must be ≥ 0 (0: Spark's default parallelism), is -1"),
                Arguments.of("too many partitions", List.of("--data", nile, "--particles", "100", "--block-size",
                        "50", "--partitions", "3"), "partitions (3) exceed the 2 blocks"),
                Arguments.of("ESS threshold above 1", List.of("--data", nile, "--ess-threshold", "1.5"),
                        "--ess-threshold must be in [0, 1], is 1.5"),
                Arguments.of("ESS threshold not a number", List.of("--data", nile, "--ess-threshold", "NaN"),
                        "--ess-threshold must be in [0, 1], is NaN"),
                Arguments.of("lineage never cut", List.of("--data", nile, "--lineage-every", "0"),
                        "--lineage-every must be ≥ 1, is 0"),
                Arguments.of("checkpoint every 0 steps", List.of("--data", nile, "--checkpoint-every", "0"),
                        "--checkpoint-every must be a whole number ≥ 1 or auto, is '0'"),
                Arguments.of("poll every 0 seconds", List.of("--data", nile, "--poll-seconds", "0"),
                        "--poll-seconds must be a finite number > 0, is 0"),
                Arguments.of("negative idle timeout", List.of("--data", nile, "--idle-timeout", "-1.5"),
                        "--idle-timeout must be a finite number ≥ 0, is -1.5"),
                Arguments.of("unknown model", List.of("--data", nile, "--model", "garch"), "unknown model 'garch'"),
                Arguments.of("unknown filter", List.of("--data", nile, "--filter", "auxiliary"), "unknown filter"),
                Arguments.of("unknown scheme", List.of("--data", nile, "--resampling", "wheel"),
                        "--resampling: unknown resampling scheme 'wheel'"),
                Arguments.of("unknown missing policy", List.of("--data", nile, "--missing", "ignore"),
                        "--missing: unknown missing-observation policy 'ignore'"),
                Arguments.of("guided SV", List.of("--data", nile, "--model", "stochastic-volatility", "--filter",
                        "guided"), "no guided proposal"),
                Arguments.of("no data", List.of(), "--data PATH is required"),
                Arguments.of("missing data", List.of("--data", "/nonexistent/nile.csv"), "/nonexistent/nile.csv"),
                Arguments.of("follow a file", List.of("--data", nile, "--follow"), "--follow needs a directory"),
                Arguments.of("vector not a list", List.of("--conf", TestPaths.conf("smc-nile-trend.conf").toString(),
                        "--data", nile, "--param", "m0=x"), "'m0' must be an array"),
                Arguments.of("matrix not a list", List.of("--conf", TestPaths.conf("smc-nile-trend.conf").toString(),
                        "--data", nile, "--param", "F=3"), "'F' must be a matrix as a non-empty list of rows"),
                Arguments.of("list not closed", List.of("--conf", TestPaths.conf("smc-nile-trend.conf").toString(),
                        "--data", nile, "--param", "F=[[1, 1], [0, 1]"), "--param F=[[1, 1], [0, 1]: a value in "
                        + "brackets must be a list as in the config file, e.g. [1, 2] or [[1, 0], [0, 1]] ("),
                Arguments.of("word after a list", List.of("--data", nile, "--param", "level_variance=[1] x"),
                        "--param level_variance=[1] x: a word after a list or an object on its line is not read as "
                        + "written"),
                Arguments.of("old --checkpoint-interval", List.of("--data", nile, "--checkpoint-interval", "25"),
                        "--checkpoint-interval was renamed --lineage-every"),
                Arguments.of("old --checkpoint-dir", List.of("--data", nile, "--checkpoint-dir", "/tmp/cuts"),
                        "--checkpoint-dir was renamed --lineage-dir"),
                Arguments.of("non-positive variance", List.of("--data", nile, "--param", "level_variance=-1"),
                        "--param level_variance=-1: model 'local-level': model parameter 'level_variance' must be a "
                        + "number > 0 but is '-1'"),
                Arguments.of("misspelt parameter", List.of("--data", nile, "--param", "observation_varaince=100"),
                        "model 'local-level' does not read parameter 'observation_varaince'"),
                Arguments.of("parameter of another model", List.of("--conf",
                        TestPaths.conf("smc-nile-trend.conf").toString(), "--data", nile, "--param", "phi=0.9"),
                        "does not read parameter 'phi'"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void exitsTwoWithAClearMessage(String name, List<String> args, String expected) {
        Path out = tmp.resolve("out");
        BadInputTest.Result r = run(out, args.toArray(String[]::new));
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains(expected), "expected '" + expected + "' in: " + r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace for bad input: " + r.err());
        assertFalse(Files.exists(out), "nothing written");
    }

    @Test
    void malformedObservationNamesFileAndLine() throws IOException {
        Path data = Files.writeString(tmp.resolve("flow.csv"), "year,flow\n1871,1120\n1872,1160\n1873,96x3\n");
        BadInputTest.Result r = run(tmp.resolve("o"), "--data", data.toString(), "--time-column", "year");
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("flow.csv line 4") && r.err().contains("'96x3'"), r.err());
        Path ragged = Files.writeString(tmp.resolve("ragged.csv"), "year,flow\n1871,1120\n1872\n");
        r = run(tmp.resolve("o"), "--data", ragged.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("ragged.csv line 3") && r.err().contains("1 fields, expected 2"), r.err());
    }

    /**
     * The observations' header, rows and cells are checked when the feed is opened, before the command starts Spark
     * (they were read only by the job's first step, after Spark's start): a whole file, a directory's first file, and
     * a followed directory's first file if it is there already.
     */
    @Test
    void observationErrorsAreFoundBeforeSpark() throws IOException {
        Path data = Files.writeString(tmp.resolve("flow.csv"), "year,flow\n1871,1120\n1872,11x0\n");
        ObservationCsv.Options year = ObservationCsv.Options.defaults().withTimeColumn("year");
        assertEquals(data + " line 1: no observation column 'nope'; the columns are year,flow",
                feedError(data, year.withValueColumns(List.of("nope")), false));
        assertEquals(data + " line 3: column 'flow' holds '11x0', expected a number (or NA for a missing value)",
                feedError(data, year, false));
        Path dir = Files.createDirectories(tmp.resolve("batches"));
        Files.writeString(dir.resolve("b1.csv"), "year,flow\n1871,1120\n1872,1160,3\n");
        for (boolean follow : new boolean[] {false, true}) {
            String said = feedError(dir, year, follow);
            assertTrue(said.endsWith(dir + "/b1.csv line 3: 3 fields, expected 2 (as in the header year,flow)"), said);
        }
        // A subdirectory's batch files were skipped without a word, and their time steps with them.
        Path nested = Files.createDirectories(tmp.resolve("nested/sub"));
        Files.writeString(nested.resolveSibling("b1.csv"), "year,flow\n1871,1120\n");
        Files.writeString(nested.resolve("b2.csv"), "year,flow\n1872,1160\n");
        for (boolean follow : new boolean[] {false, true}) {
            String said = feedError(nested.getParent(), year, follow);
            assertTrue(said.contains(" holds a directory 'sub', whose files would be left out; batch files go "
                    + "directly in the directory given"), said);
        }
    }

    /** The message with which opening the feed refuses {@code data}. */
    private static String feedError(Path data, ObservationCsv.Options options, boolean follow) {
        return assertThrows(InvalidInputException.class, () -> ObservationFeed.open(data.toString(), options,
                new ObservationFeed.Follow(follow, 1, 0), 1, new Configuration())).getMessage();
    }

    /** A --param value in brackets is a list, as in the config file: a matrix can be given on the command line. */
    @Test
    void aMatrixParameterIsGivenInBrackets() {
        Path out = tmp.resolve("o");
        BadInputTest.Result r = run(out, "--conf", TestPaths.conf("smc-nile-trend.conf").toString(), "--data",
                SmcTestData.nileFile().toString(), "--particles", "200", "--param", "F=[[1, 0.5], [0, 1]]",
                "--param", "m0=[1000, 0]");
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertTrue(Files.exists(out.resolve("_SUCCESS")));
    }

    /**
     * The time column must increase strictly: an unsorted or repeated time is refused with the file, both lines and
     * both times, within a file and across the batch files of a directory (it used to be filtered in file order).
     */
    @Test
    void unsortedOrRepeatedTimesAreRefused() throws IOException {
        Path unsorted = Files.writeString(tmp.resolve("unsorted.csv"), "year,flow\n1871,1120\n1873,1160\n"
                + "# a comment\n1872,963\n1874,1210\n");
        BadInputTest.Result r = run(tmp.resolve("o"), "--data", unsorted.toString(), "--particles", "200");
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains(unsorted + " line 5: time 'year' is 1872, before 1873 at line 3; the times must "
                + "increase strictly (sort the rows by time)"), r.err());
        Path repeated = Files.writeString(tmp.resolve("repeated.csv"), "year,flow\n1871,1120\n1872,1160\n"
                + "1872,963\n");
        r = run(tmp.resolve("o"), "--data", repeated.toString(), "--particles", "200");
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains(repeated + " line 4: time 'year' is 1872 again (as at line 3); the times must "
                + "increase strictly (merge or drop the repeated rows)"), r.err());
        Path batches = Files.createDirectories(tmp.resolve("batches"));
        Files.writeString(batches.resolve("b1.csv"), "year,flow\n1871,1120\n1872,1160\n");
        Files.writeString(batches.resolve("b2.csv"), "year,flow\n1870,963\n");
        r = run(tmp.resolve("o"), "--data", batches.toString(), "--particles", "200");
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("b2.csv line 2: time 'year' is 1870, before 1872 at "), r.err());
        assertTrue(r.err().contains("b1.csv line 3; the times must increase strictly"), r.err());
        assertFalse(Files.exists(tmp.resolve("o")));
    }

    /** The old names get neither picocli's suggestion of the resumable options nor its usage. */
    @Test
    void renamedOptionsNameTheirNewNames() throws IOException {
        String nile = SmcTestData.nileFile().toString();
        BadInputTest.Result r = run(tmp.resolve("o"), "--data", nile, "--checkpoint-interval", "25");
        assertFalse(r.err().contains("Possible solutions"), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        Path conf = Files.writeString(tmp.resolve("old.conf"), "checkpoint-dir = \"/tmp/cuts\"\n");
        r = run(tmp.resolve("o"), "--conf", conf.toString(), "--data", nile);
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("--checkpoint-dir was renamed --lineage-dir (config key lineage-dir)"), r.err());
        assertFalse(Files.exists(tmp.resolve("o")));
    }

    @Test
    void observationColumnsMustMatchTheModel() throws IOException {
        Path data = Files.writeString(tmp.resolve("two.csv"), "t,a,b\n0,1,2\n1,3,4\n");
        BadInputTest.Result r = run(tmp.resolve("o"), "--data", data.toString(), "--time-column", "t");
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("two.csv: 2 observation column(s) [a, b], the model expects 1 (choose them "
                + "with --columns)"), r.err());
        r = run(tmp.resolve("o"), "--data", data.toString(), "--columns", "b", "--particles", "200");
        assertEquals(ExitCode.OK, r.code(), r.err());
    }

    /** A surplus column that looks like a time index (by name, or evenly spaced whole numbers) is named. */
    @Test
    void aSurplusTimeIndexColumnIsSuggestedAsTheTimeColumn() throws IOException {
        Path out = tmp.resolve("o");
        String nile = SmcTestData.nileFile().toString();
        BadInputTest.Result r = BadInputTest.runCapturing("smc", "--model", "nile", "--data", nile, "--out",
                out.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("2 observation column(s) [year, flow], the model expects 1; 'year' looks like a "
                + "time index: pass --time-column year"), r.err());
        Path spaced = Files.writeString(tmp.resolve("spaced.csv"), "k,flow\n10,1120\n20,1160\n30,963\n");
        r = BadInputTest.runCapturing("smc", "--data", spaced.toString(), "--out", out.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("'k' looks like a time index: pass --time-column k"), r.err());
        Path uneven = Files.writeString(tmp.resolve("uneven.csv"), "k,flow\n10,1120\n20,1160\n25,963\n");
        r = BadInputTest.runCapturing("smc", "--data", uneven.toString(), "--out", out.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("(choose them with --columns)") && !r.err().contains("time index"), r.err());
        assertFalse(Files.exists(out));
    }

    @Test
    void missingObservationFailsOrIsSkippedByOption() throws IOException {
        Path data = Files.writeString(tmp.resolve("gap.csv"), "year,flow\n1871,1120\n1872,NA\n1873,963\n");
        BadInputTest.Result r = run(tmp.resolve("fail"), "--data", data.toString(), "--particles", "500");
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("gap.csv line 3") && r.err().contains("missing"), r.err());
        assertFalse(Files.exists(tmp.resolve("fail")));

        Path out = tmp.resolve("skip");
        r = run(out, "--data", data.toString(), "--particles", "500", "--missing", "skip");
        assertEquals(ExitCode.OK, r.code(), r.err());
        List<String> lines = Files.readAllLines(out.resolve("filter.csv"));
        assertTrue(lines.get(2).matches("1,1872\\.0,.*,0\\.0,false,NA"), lines.get(2));
        assertTrue(lines.get(3).endsWith(",true,963.0"), lines.get(3));
    }

    /**
     * An observation variance of 1e-300 leaves every step's weights on one particle without any weight reaching 0:
     * it exited 0 printing log p̂ as a 300-digit number, without a word. Still exit 0 (nothing collapsed), now with a
     * WARN and log p̂ in scientific notation.
     */
    @Test
    void aDegenerateFilterIsWarnedOf() throws Exception {
        BadInputTest.Result[] r = new BadInputTest.Result[1];
        List<String> warnings = org.sparkmc.spark.LoggedLines.of(SmcCommand.class,
                org.apache.logging.log4j.Level.WARN, () -> r[0] = BadInputTest.runCapturingOut("smc", "--data",
                        SmcTestData.nileFile().toString(), "--time-column", "year", "--particles", "200",
                        "--param", "observation_variance=1e-300", "--out", tmp.resolve("degenerate").toString()));
        assertEquals(ExitCode.OK, r[0].code(), r[0].err());
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("smc: the filter degenerated: at ") && warnings.get(0).contains(
                "observed steps the weights' ESS was about 1 of 200 particles"), warnings.get(0));
        assertTrue(r[0].err().matches("(?s).*log p̂\\(y\\) = -\\d\\.\\d{6}e\\+\\d+ over 100 steps.*"), r[0].err());
    }

    /** Every observation missing under --missing skip exited 0 with log p̂ 0 and no word of why. */
    @Test
    void aSeriesWithNoObservationIsWarnedOf() throws Exception {
        Path data = Files.writeString(tmp.resolve("none.csv"), "year,flow\n1871,NA\n1872,NA\n");
        BadInputTest.Result[] r = new BadInputTest.Result[1];
        List<String> warnings = org.sparkmc.spark.LoggedLines.of(SmcCommand.class,
                org.apache.logging.log4j.Level.WARN, () -> r[0] = run(tmp.resolve("none"), "--data", data.toString(),
                        "--particles", "500", "--missing", "skip"));
        assertEquals(ExitCode.OK, r[0].code(), r[0].err());
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("every one of the 2 observations was missing (--missing skip)"),
                warnings.get(0));
    }

    /** An observation of 1e200 has density 0 (its squared error overflows) under every particle at step 2. */
    @Test
    void weightCollapseExitsOneNamingTheTimeStep() throws IOException {
        Path data = Files.writeString(tmp.resolve("outlier.csv"), "year,flow\n1871,1120\n1872,1160\n1873,1e200\n");
        Path out = tmp.resolve("collapse");
        BadInputTest.Result r = run(out, "--data", data.toString(), "--particles", "500");
        assertEquals(ExitCode.FAILURE, r.code(), r.err());
        assertTrue(r.err().contains("weight collapse at time step 2"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
        assertFalse(Files.exists(out), "nothing written");
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(1, left.count(), "no staging directory left behind");
        }
    }

    /**
     * A model whose log-weights become NaN (F = 1e308 overflows the slope) fails as a weight collapse does: exit 1 and
     * one line naming the time step, on each engine (one task, a job per step, relayed), without a failed task: it
     * used to fail the task, which Spark retried (a barrier stage four times) and logged with traces.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void nonFiniteWeightsExitOneNamingTheTimeStep(String engine, List<String> options) throws Exception {
        Path out = tmp.resolve("nan");
        List<String> args = new java.util.ArrayList<>(List.of("--conf", TestPaths.conf("smc-nile-trend.conf")
                .toString(), "--data", SmcTestData.nileFile().toString(), "--particles", "200", "--param",
                "F=[[1, 1], [0, 1e308]]"));
        args.addAll(options);
        FailedTasks failed = new FailedTasks();
        jsc().sc().addSparkListener(failed);
        try {
            BadInputTest.Result r = run(out, args.toArray(String[]::new));
            assertEquals(ExitCode.FAILURE, r.code(), r.err());
            assertEquals("sparkmc smc failed: non-finite weights at time step 1 (0-based): the model gave a particle "
                    + "of block 0 the log-weight NaN (its densities returned NaN or +Infinity), so the weights cannot "
                    + "be normalised; with these model parameters its numbers overflow or are undefined: check them "
                    + "(values near ±1e308, a variance of 0) or the model", r.err().strip());
            assertFalse(Files.exists(out), "nothing written");
            jsc().sc().listenerBus().waitUntilEmpty();
            assertEquals(0, failed.count.get(), "failed tasks");
        } finally {
            jsc().sc().removeSparkListener(failed);
        }
    }

    static Stream<Arguments> engines() {
        return Stream.of(Arguments.of("one task", List.of()),
                Arguments.of("a job per step", List.of("--block-size", "50", "--partitions", "2", "--sync-via",
                        "jobs")),
                Arguments.of("relayed", List.of("--block-size", "50", "--partitions", "2", "--sync-via", "relay")));
    }

    /** Counts the tasks that ended other than in success. */
    private static final class FailedTasks extends org.apache.spark.scheduler.SparkListener {
        private final java.util.concurrent.atomic.AtomicInteger count = new java.util.concurrent.atomic.AtomicInteger();

        @Override
        public void onTaskEnd(org.apache.spark.scheduler.SparkListenerTaskEnd end) {
            if (!(end.reason() instanceof org.apache.spark.Success$)) {
                count.incrementAndGet();
            }
        }
    }

    @Test
    void helpListsEveryOption() {
        BadInputTest.Result r = BadInputTest.runCapturingOut("smc", "--help");
        assertEquals(ExitCode.OK, r.code());
        for (String option : SmcCommand.optionNames()) {
            assertTrue(r.err().contains(option), option + " missing from help:\n" + r.err());
        }
    }

    /** Runs smc with the arguments, --time-column year unless given, and --out. */
    private static BadInputTest.Result run(Path out, String... args) {
        boolean time = List.of(args).contains("--time-column") || List.of(args).contains("--columns");
        String[] all = new String[args.length + (time ? 3 : 5)];
        all[0] = "smc";
        System.arraycopy(args, 0, all, 1, args.length);
        if (!time) {
            all[args.length + 3] = "--time-column";
            all[args.length + 4] = "year";
        }
        all[args.length + 1] = "--out";
        all[args.length + 2] = out.toString();
        return BadInputTest.runCapturing(all);
    }
}
