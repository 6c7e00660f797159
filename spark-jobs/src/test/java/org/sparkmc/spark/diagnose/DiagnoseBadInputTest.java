package org.sparkmc.spark.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.sparkmc.spark.TestPaths;
import org.sparkmc.spark.cli.BadInputTest;
import org.sparkmc.spark.cli.ExitCode;

/**
 * {@code sparkmc diagnose} on bad draws and bad arguments: exit 2 naming the file, line or chain and what was
 * expected, with nothing written.
 */
class DiagnoseBadInputTest extends DiagnoseTestBase {
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
                // CmdStan's own spellings (C++ streams) said "'nan' in column 'theta' is not a number".
                Arguments.of("stan-nan.csv", "# comment\nlp__,theta\n-1,0.5\n-2,-nan\n",
                        "stan-nan.csv:4, column 2 ('theta'): the draw is NaN; diagnostics need finite draws"),
                Arguments.of("stan-inf.csv", "# comment\nlp__,theta\n-1,0.5\n-2,-inf\n",
                        "stan-inf.csv:4, column 2 ('theta'): the draw is -Infinity"),
                Arguments.of("twice.csv", header + "1,1,0.5,0.1\n1,1,0.5,0.1\n2,1,1,1\n", "twice.csv:3: chain 1 has "
                        + "draw 1 twice"),
                Arguments.of("gap.csv", header + "1,1,0.5,0.1\n1,2,0.5,0.1\n2,1,1,1\n2,3,1,1\n", "gap.csv: chain 2 has "
                        + "draws 1 to 3 but not draw 2"),
                Arguments.of("short.csv", header + "1,1,0.5,0.1\n1,2,0.5,0.1\n2,1,1,1\n",
                        "has 1 draws but chain 1 has 2"),
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
        JsonNode s = DiagnoseTest.run(tmp.resolve("out-kept"), withSampler.toString(), withLabel.toString());
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
