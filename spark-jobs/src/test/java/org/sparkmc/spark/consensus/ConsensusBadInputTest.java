package org.sparkmc.spark.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.cli.BadInputTest;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.io.FaultyFileSystem;

/**
 * A bad table exits with code 2, one message naming the file, the row (Parquet: its index in the file; CSV: its line
 * in the file), the column and the value, no stack trace, and nothing at --out. For each of issue 20's three kinds —
 * a missing column, a value that is not a number, a response outside the family's support — in CSV, also where the
 * file is compressed, one of several in a directory, or read in many partitions with more than one bad line.
 */
class ConsensusBadInputTest extends SparkTestBase {
    @TempDir
    Path tmp;

    /**
     * generate-glm's output directory given as --data said only that the format could not be told, or (as Parquet)
     * that it holds a directory; both now name the table inside it.
     */
    @Test
    void generateGlmsOutputDirectoryNamesTheTableInsideIt() throws IOException {
        Path generated = Files.createDirectories(tmp.resolve("glm"));
        Files.createDirectories(generated.resolve("data.parquet"));
        Files.writeString(generated.resolve("data.parquet/part-0.parquet"), "PAR1");
        Files.writeString(generated.resolve("truth.json"), "{}");
        assertBad(beforeSpark(generated.toString()), "cannot tell the format", "the table inside it");
        assertTrue(run(generated.toString()).err().contains("data.parquet, the table inside it"));
        assertBad(beforeSpark(generated.toString(), "--format", "parquet"), "holds a directory 'data.parquet'",
                "is that the table? give --data ");
    }

    /** A missing column is named with the header's file and line, before Spark starts (it was after). */
    @Test
    void aMissingColumnIsNamedWithTheHeadersFileAndLine() throws IOException {
        Path csv = Files.writeString(tmp.resolve("t.csv"), "y,x1,x2\n1,0.5,1\n0,0.1,2\n");
        assertBad(beforeSpark(csv.toString(), "--features", "x1,x3"),
                "t.csv line 1 (the header): no column 'x3' (--features); the columns are [y, x1, x2]");
        Path late = Files.writeString(tmp.resolve("late.csv"), "\n\ny,x1,x2\n1,0.5,1\n");
        assertBad(beforeSpark(late.toString(), "--response", "label"),
                "late.csv line 3 (the header): no column 'label' (--response)");
    }

    /**
     * A Parquet table's columns are checked from its files' footers before Spark starts: a missing column, and a
     * column whose declared type is not numeric, named with the file.
     */
    @Test
    void aParquetColumnMissingOrNotNumericIsRefusedFromTheFooter() {
        Path table = tmp.resolve("s.parquet");
        spark().createDataFrame(List.of(RowFactory.create(1.0, "a", 0.5), RowFactory.create(0.0, "b", 0.1)),
                DataTypes.createStructType(List.of(DataTypes.createStructField("y", DataTypes.DoubleType, false),
                        DataTypes.createStructField("x1", DataTypes.StringType, false),
                        DataTypes.createStructField("x2", DataTypes.DoubleType, false)))).coalesce(1).write()
                .parquet(table.toString());
        assertBad(beforeSpark(table.toString(), "--features", "x1,x2"), "s.parquet/part-",
                ": column 'x1' holds string values, expected numbers");
        assertBad(beforeSpark(table.toString(), "--response", "label"),
                ": no column 'label' (--response); the columns are [y, x1, x2]");
    }

    /**
     * gzip data under a name without .gz was read as text, its bytes shown as the table's column names; a .gz name
     * on plain text failed once Spark read it. Both are refused from the file's first bytes before Spark starts.
     */
    @Test
    void aFileWhoseNameAndBytesDisagreeAboutGzipIsRefused() throws IOException {
        Path zipped = Files.write(tmp.resolve("zipped.csv"), gzip("y,x1\n1,0.5\n0,0.1\n"));
        assertBad(beforeSpark(zipped.toString()), "zipped.csv: gzip data in a file whose name does not end in .gz; "
                + "add .gz to its name");
        Path plain = Files.writeString(tmp.resolve("plain.csv.gz"), "y,x1\n1,0.5\n0,0.1\n");
        assertBad(beforeSpark(plain.toString()), "plain.csv.gz: not a gzip file (its name ends in .gz");
    }

    /** A table without rows was refused as "shard 1 of 2 has no rows"; now as the table's, naming its files. */
    @Test
    void aTableWithoutRowsIsRefusedNamingItsFiles() throws IOException {
        Path header = Files.writeString(tmp.resolve("header.csv"), "y,x1\n\n");
        assertBad(beforeSpark(header.toString()), "the table " + header + " has no rows: its only line is the header "
                + "(line 1)");
        Path empty = Files.writeString(tmp.resolve("empty.csv"), "");
        assertBad(beforeSpark(empty.toString()), "the table " + empty + " has no rows: the file is empty");
        Path dir = Files.createDirectory(tmp.resolve("headers.csv"));
        Files.writeString(dir.resolve("a.csv"), "y,x1\n");
        Files.writeString(dir.resolve("b.csv"), "y,x1\n");
        Files.writeString(dir.resolve("_SUCCESS"), "");
        assertBad(beforeSpark(dir.toString()), "the table " + dir + " has no rows: none of its files has a line after "
                + "its header (a.csv, b.csv)");
        Path none = Files.createDirectory(tmp.resolve("none.csv"));
        assertBad(beforeSpark(none.toString()), "the table " + none + " has no rows: the directory holds no file");
        Path parquet = tmp.resolve("empty.parquet");
        spark().createDataFrame(List.<Row>of(), DataTypes.createStructType(List.of(
                DataTypes.createStructField("y", DataTypes.DoubleType, false),
                DataTypes.createStructField("x1", DataTypes.DoubleType, false)))).coalesce(1).write()
                .parquet(parquet.toString());
        assertBad(beforeSpark(parquet.toString()), "the table " + parquet + " has no rows: its Parquet footer counts "
                + "0 rows (part-");
    }

    /**
     * A line with more fields than the header (an unquoted comma in a value, say) is named: Spark's permissive reader
     * would drop the extra field without a word. (A line short of columns the model does not use is read: Spark
     * parses only the columns it needs.)
     */
    @Test
    void aLineWhoseFieldsDoNotMatchTheHeaderIsNamed() throws IOException {
        Path extra = Files.writeString(tmp.resolve("extra.csv"), "y,x1,x2\n1,0.5,1\n0,0.1,2,7\n1,0.2,3\n");
        assertBad(run(extra.toString()),
                "extra.csv line 3: the line has 4 fields, the header 3 (a comma inside a value needs quotes)");
        Path comma = Files.writeString(tmp.resolve("comma.csv"), "y,x1,x2\n1,0.5,1\n0,1,234.5,2\n");
        assertBad(run(comma.toString()), "comma.csv line 3: the line has 4 fields, the header 3");
    }

    /**
     * A Parquet file naming a column twice (names differing only in case count as one, as Spark matches them) is
     * refused from its footer, as a CSV header is (it failed with exit 1 and Spark's trace); so is a Parquet table
     * with fewer rows than shards (it was left to Spark, which took minutes to plan 10^5 shards of 3 rows).
     */
    @Test
    void aParquetColumnNamedTwiceAndFewerRowsThanShardsAreRefusedFromTheFooters() {
        Path twice = tmp.resolve("twice.parquet");
        spark().conf().set("spark.sql.caseSensitive", "true"); // only to write the file
        try {
            spark().createDataFrame(List.of(RowFactory.create(1.0, 0.5, 1.0), RowFactory.create(0.0, 0.1, 2.0)),
                    DataTypes.createStructType(List.of(DataTypes.createStructField("y", DataTypes.DoubleType, false),
                            DataTypes.createStructField("x1", DataTypes.DoubleType, false),
                            DataTypes.createStructField("X1", DataTypes.DoubleType, false)))).coalesce(1).write()
                    .parquet(twice.toString());
        } finally {
            spark().conf().unset("spark.sql.caseSensitive");
        }
        assertBad(beforeSpark(twice.toString()), "twice.parquet/part-", ": columns 2 and 3 are named 'x1' and 'X1', "
                + "which Spark takes for one name; each column needs its own name");
        Path three = tmp.resolve("three.parquet");
        spark().createDataFrame(List.of(RowFactory.create(1.0, 0.5), RowFactory.create(0.0, 0.1),
                RowFactory.create(1.0, 0.2)), DataTypes.createStructType(List.of(
                    DataTypes.createStructField("y", DataTypes.DoubleType, false),
                    DataTypes.createStructField("x1", DataTypes.DoubleType, false)))).coalesce(1).write()
                .parquet(three.toString());
        InvalidInputException few = assertThrows(InvalidInputException.class,
                () -> TableCheck.check(new Configuration(), new org.apache.hadoop.fs.Path(three.toString()), "parquet",
                        "y", List.of(), 4));
        assertTrue(few.getMessage().contains("three.parquet has 3 rows (its Parquet footer), fewer than --shards 4: "
                + "every shard needs rows; give at most 3 shards"), few.getMessage());
    }

    /**
     * A directory of the table that Spark would pass over (not a partition directory, column=value) is refused
     * before Spark: its files' rows were left out without a word. So are files beside partition directories, and a
     * CSV header with a column without a name (Spark named it _cI, then refused the header as unlike that name).
     */
    @Test
    void aSubdirectorySparkWouldPassOverAndANamelessColumnAreRefused() throws IOException {
        Path table = Files.createDirectory(tmp.resolve("mixed"));
        Files.writeString(table.resolve("a.csv"), "y,x1\n1,0.5\n0,0.1\n");
        Files.createDirectory(table.resolve("more"));
        Files.writeString(table.resolve("more/b.csv"), "y,x1\n1,0.2\n");
        assertBad(beforeSpark(table.toString(), "--format", "csv"), "mixed holds a directory 'more', whose files "
                + "would be left out; a table's files go directly in the directory given, or in partition directories "
                + "named column=value");
        Files.move(table.resolve("more"), table.resolve("k=1"));
        assertBad(beforeSpark(table.toString(), "--format", "csv"), "mixed holds both files and the partition "
                + "directory 'k=1'; put every file in a partition directory, or none");
        Path trailing = Files.writeString(tmp.resolve("trailing.csv"), "y,x1,x2,\n1,0.5,1,\n0,0.1,2,\n");
        assertBad(beforeSpark(trailing.toString()), "trailing.csv line 1 (the header): column 4 has no name (does "
                + "the header end in a comma?); each column needs a name");
        Path index = Files.writeString(tmp.resolve("index.csv"), ",y,x1\n0,1,0.5\n1,0,0.1\n");
        assertBad(beforeSpark(index.toString()), "index.csv line 1 (the header): column 1 has no name (an index "
                + "written without one, as pandas' to_csv does? write it with index=False)");
    }

    /** A header naming a column twice is named as the file has it (Spark would call the two x11 and x12). */
    @Test
    void aHeaderNamingAColumnTwiceIsNamed() throws IOException {
        Path twice = Files.writeString(tmp.resolve("twice.csv"), "y,x1,x1\n1,0.5,1\n0,0.1,2\n");
        assertBad(beforeSpark(twice.toString(), "--features", "x1"),
                "twice.csv line 1 (the header): columns 2 and 3 are both named 'x1'; each column needs its own name");
    }

    /**
     * A header or a value with a byte that is not UTF-8 (Latin-1's é) is named with its file, line and column: the
     * header's run went ahead with the column named x, U+FFFD, 2 in its outputs, and the value was "not a number" with
     * no word of the encoding. U+FFFD written as a character is UTF-8: a header may hold it, and in a value it is
     * not a number.
     */
    @Test
    void aByteThatIsNotUtf8IsNamedInAHeaderAndInAValue() throws IOException {
        Path header = Files.write(tmp.resolve("latin-header.csv"),
                "y,x1,x\u00e92\n1,0.5,1\n0,0.1,2\n".getBytes(StandardCharsets.ISO_8859_1));
        assertBad(beforeSpark(header.toString(), "--features", "x1"),
                "latin-header.csv line 1 column 7 (the header): a byte that is not UTF-8");
        Path value = Files.write(tmp.resolve("latin-value.csv"),
                "y,x1,x2\n1,0.5,1\n0,0.1,2\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        assertBad(run(value.toString()), "latin-value.csv line 3, column 'x2': value '2\uFFFD' has a byte that is not "
                + "UTF-8; sparkmc reads text as UTF-8");
        Path inValue = Files.writeString(tmp.resolve("character-value.csv"), "y,x1,x2\n1,0.5,1\n0,0.1,2\uFFFD\n");
        assertBad(run(inValue.toString()), "character-value.csv line 3, column 'x2': value is '2\uFFFD', "
                + "expected a number");
        Path character = Files.writeString(tmp.resolve("character.csv"), "y,x1,x\uFFFD2\n1,0.5,1\n0,0.1,2\n");
        BadInputTest.Result r = run(character.toString(), "--features", "x1");
        assertEquals(ExitCode.OK, r.code(), r.err());
        // in a column the model does not use, even in the first row (only the header is read before Spark): read
        Path unused = Files.write(tmp.resolve("latin-unused.csv"),
                "y,x1,name\n1,0.5,Jos\u00e9\n0,0.1,b\n".getBytes(StandardCharsets.ISO_8859_1));
        BadInputTest.Result u = run(unused.toString(), "--features", "x1", "--overwrite");
        assertEquals(ExitCode.OK, u.code(), u.err());
    }

    /** A row with fewer fields than the header lacks the columns at its end: its line and the first of them. */
    @Test
    void aRowWithoutAColumnsFieldIsNamedWithItsLine() throws IOException {
        Path csv = Files.writeString(tmp.resolve("short.csv"), "y,x1,x2\n1,0.5,1\n0,0.1\n1,0.2,3\n");
        assertBad(run(csv.toString()),
                "short.csv line 3, column 'x2': no value (the line has 2 fields, the header 3)");
    }

    @Test
    void aValueThatIsNotANumberIsNamedWithItsFileLineAndColumn() throws IOException {
        Path csv = Files.writeString(tmp.resolve("bad.csv"), "y,x1,x2\n1,0.5,1\n0,0.1,2\n1,0.3,abc\n0,1,1\n");
        BadInputTest.Result r = run(csv.toString());
        assertBad(r, "bad.csv line 4, column 'x2': value is 'abc', expected a number");
        Path spaced = Files.writeString(tmp.resolve("bad data.csv"), "y,x1,x2\n1,0.5,1\n0,abc,2\n");
        assertBad(run(spaced.toString()), "/bad data.csv line 3, column 'x1': value is 'abc'"); // not bad%20data
        Path empty = Files.writeString(tmp.resolve("empty.csv"), "y,x1,x2\n1,0.5,1\n0,,2\n");
        assertBad(run(empty.toString()), "empty.csv line 3, column 'x1': value is empty, expected a number");
        // quoted fields, Windows line ends and blank lines: the line number is the one an editor shows
        Path quoted = Files.writeString(tmp.resolve("quoted.csv"),
                "y,x1,x2\r\n\"1\",\"0.5\",\"1\"\r\n\r\n  \r\n0,0.1,\"1e400\"\r\n");
        assertBad(run(quoted.toString()),
                "quoted.csv line 5, column 'x2': value is Infinity, expected a finite number");
    }

    @Test
    void aResponseOutsideTheSupportInCsvIsNamedWithItsFileLineAndColumn() throws IOException {
        Path csv = Files.writeString(tmp.resolve("y.csv"), "y,x1\n1,0.5\n0,0.1\n2,0.3\n1,0.2\n");
        assertBad(run(csv.toString()), "y.csv line 4, column 'y': logistic response is 2.0, expected 0 or 1");
        Path counts = Files.writeString(tmp.resolve("counts.csv"), "x1,y\n0.5,3\n0.1,-1\n");
        assertBad(run(counts.toString(), "--family", "poisson"), "counts.csv line 3, column 'y': poisson response "
                + "is -1.0");
    }

    /**
     * A file read in many partitions, with bad values on lines 1,500 (not a number) and 2,900 (a response of 2):
     * whichever part an executor fails on first, the message names the file's first bad line; likewise inside a
     * gzip-compressed file (one partition) and in the second file of a directory.
     */
    @Test
    void theFirstBadLineOfTheFileIsNamedWhereverTheReaderMetABadValue() throws IOException {
        StringBuilder b = new StringBuilder("y,x1,x2\n");
        for (int line = 2; line <= 3000; line++) {
            String y = line == 2900 ? "2" : Integer.toString(line % 2);
            String x1 = line == 1500 ? "n/a" : Double.toString(line / 1000.0);
            b.append(y).append(',').append(x1).append(',').append(line % 7).append('\n');
        }
        Path csv = Files.writeString(tmp.resolve("long.csv"), b);
        spark().conf().set("spark.sql.files.maxPartitionBytes", "4096");
        try {
            assertBad(run(csv.toString()), "long.csv line 1500, column 'x1': value is 'n/a', expected a number");
        } finally {
            spark().conf().unset("spark.sql.files.maxPartitionBytes");
        }
        Path gz = tmp.resolve("long.csv.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(gz))) {
            out.write(b.toString().getBytes(StandardCharsets.UTF_8));
        }
        assertBad(run(gz.toString()), "long.csv.gz line 1500, column 'x1': value is 'n/a', expected a number");
        Path dir = Files.createDirectory(tmp.resolve("parts.csv"));
        Files.writeString(dir.resolve("part-1.csv"), "y,x1,x2\n1,0.5,1\n0,0.1,2\n");
        Files.writeString(dir.resolve("part-2.csv"), "y,x1,x2\n1,0.5,1\n0,0.1,2\n7,0.2,1\n");
        assertBad(run(dir.toString()), "part-2.csv line 4, column 'y': logistic response is 7.0, expected 0 or 1");
    }

    /**
     * Spark reads a CSV directory's files by column position under the first file's header: a file whose header
     * orders the columns differently would be read silently wrong (its x1 as x2). It is refused with its name.
     */
    @Test
    void aFileWhoseHeaderOrdersTheColumnsDifferentlyIsRefused() throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("mixed.csv"));
        Files.writeString(dir.resolve("part-1.csv"), "y,x1,x2\n1,0.5,1\n0,0.1,2\n");
        Files.writeString(dir.resolve("part-2.csv"), "y,x2,x1\n1,1,0.5\n0,2,0.1\n");
        assertBad(beforeSpark(dir.toString()), "part-2.csv line 1 (the header) names the columns [y, x2, x1], but "
                + "the first file's, ", "part-1.csv line 1 (the header), names [y, x1, x2]; Spark reads every file's "
                + "fields by position");
        // Spark took the header of the largest file, here with one more column: the smaller file was named
        Path wider = Files.createDirectory(tmp.resolve("wider.csv"));
        Files.writeString(wider.resolve("part-1.csv"), "y,x1,x2\n1,0.5,1\n0,0.1,2\n");
        Files.writeString(wider.resolve("part-2.csv"), "y,x1,x2,x3\n" + "1,0.5,1,7\n0,0.1,2,8\n".repeat(50));
        assertBad(beforeSpark(wider.toString()), "part-2.csv line 1 (the header) names the columns [y, x1, x2, x3]",
                "part-1.csv line 1 (the header), names [y, x1, x2]");
    }

    @Test
    void aResponseOutsideTheSupportIsNamedWithFileRowAndColumn() {
        List<Row> rows = List.of(RowFactory.create(1.0, 0.5), RowFactory.create(0.0, 0.1),
                RowFactory.create(2.0, 0.3), RowFactory.create(1.0, 0.2));
        Path table = tmp.resolve("t.parquet");
        spark().createDataFrame(rows, DataTypes.createStructType(List.of(
                DataTypes.createStructField("y", DataTypes.DoubleType, false),
                DataTypes.createStructField("x1", DataTypes.DoubleType, false)))).coalesce(1).write()
                .parquet(table.toString());
        BadInputTest.Result r = run(table.toString());
        assertBad(r, "row 3, column 'y': logistic response is 2.0, expected 0 or 1");
        assertTrue(r.err().contains(table.toUri().getPath().replaceAll("/$", "")) && r.err().contains(".parquet row 3"),
                r.err());
        assertBad(run(table.toString(), "--family", "poisson", "--response", "x1"),
                "column 'x1': poisson response is 0.5");
    }

    /**
     * A file that does not read as the table's format (truncated, CSV read as Parquet) is named, with the format to
     * try, instead of failing the run with exit 1 and Spark's trace; from its header or footer, before Spark starts.
     */
    @Test
    void aFileThatDoesNotReadInTheTablesFormatIsNamed() throws IOException {
        String rows = "y,x1,x2\n" + "1,0.5,1\n0,0.1,2\n1,0.3,4\n".repeat(700);
        byte[] whole = gzip(rows);
        Path truncated = Files.write(tmp.resolve("cut.csv.gz"), Arrays.copyOf(whole, whole.length / 2));
        assertBad(beforeSpark(truncated.toString(), "--format", "csv"), "cut.csv.gz is not readable CSV: reading it "
                + "failed (EOFException: Unexpected end of input stream); ",
                "check the file (a .gz file must be whole gzip), or for a Parquet table use --format parquet");
        Path csv = Files.writeString(tmp.resolve("rows.csv"), rows);
        assertBad(beforeSpark(csv.toString(), "--format", "parquet"), "rows.csv is not readable Parquet: its footer "
                + "cannot be read (not Parquet, or truncated); for a CSV table use --format csv");
        Path parquet = tmp.resolve("p.parquet"); // its bytes are no UTF-8, and converting them was no advice
        spark().read().option("header", "true").csv(csv.toString()).coalesce(1).write().parquet(parquet.toString());
        assertBad(beforeSpark(parquet.toString(), "--format", "csv"), ".parquet is a Parquet file (it starts with "
                + "Parquet's magic number), not CSV; for a Parquet table use --format parquet");
    }

    /**
     * A file system's failure while a header or footer is read (a lost connection to an object store) is no bad
     * input: exit 1, for a scheduler to retry (it was exit 2, "not readable CSV"); a CSV file's header is read
     * with one open, not two (one for its first bytes, one for its lines).
     */
    @Test
    void aFileSystemFailureReadingAHeaderOrFooterExitsOne() throws IOException {
        Path csv = Files.write(tmp.resolve("t.csv.gz"), gzip("y,x1\n1,0.5\n0,0.1\n"));
        Path parquet = tmp.resolve("t.parquet");
        spark().createDataFrame(List.of(RowFactory.create(1.0, 0.5), RowFactory.create(0.0, 0.1)),
                DataTypes.createStructType(List.of(DataTypes.createStructField("y", DataTypes.DoubleType, false),
                        DataTypes.createStructField("x1", DataTypes.DoubleType, false)))).coalesce(1).write()
                .parquet(parquet.toString());
        try {
            TableCheck.check(new Configuration(), new org.apache.hadoop.fs.Path(FaultyFileSystem.uri(csv)), "csv",
                    "y", List.of(), 1);
            assertEquals(1, FaultyFileSystem.opens(), "opens of t.csv.gz for its header");
            FaultyFileSystem.failReads(name -> name.startsWith("t.") || name.startsWith("part-"));
            for (Path table : List.of(csv, parquet)) {
                BadInputTest.Result r = run(FaultyFileSystem.uri(table));
                assertEquals(ExitCode.FAILURE, r.code(), r.err());
                assertTrue(r.err().contains("the file system failed to read it: Connection reset"), r.err());
                assertFalse(Files.exists(tmp.resolve("out")), "nothing written");
            }
        } finally {
            FaultyFileSystem.reset();
        }
    }

    /**
     * Only a directory's first {@value TableCheck#CHECKED_FILES} files are read before Spark starts (each a request
     * to an object store): a later file's header unlike the first's is left to Spark's header check, and the table
     * is not refused as without rows when only a later file has rows.
     */
    @Test
    void aDirectoryBeyondTheFilesCheckedBeforeSparkIsLeftToSpark() throws IOException {
        Path mixed = Files.createDirectory(tmp.resolve("mixed.csv"));
        Path headers = Files.createDirectory(tmp.resolve("headers.csv"));
        for (int i = 0; i <= TableCheck.CHECKED_FILES; i++) {
            boolean last = i == TableCheck.CHECKED_FILES;
            String name = String.format("part-%03d.csv", i);
            Files.writeString(mixed.resolve(name), (last ? "y,x2\n" : "y,x1\n") + "1,0.5\n0,0.1\n");
            Files.writeString(headers.resolve(name), "y,x1\n" + (last ? "1,0.5\n" : ""));
        }
        TableCheck.check(new Configuration(), new org.apache.hadoop.fs.Path(headers.toString()), "csv", "y",
                List.of(), 1);
        TableCheck.check(new Configuration(), new org.apache.hadoop.fs.Path(mixed.toString()), "csv", "y",
                List.of(), 1);
    }

    /** A header of more than 20,480 fields (Spark's most) failed with exit 1 and univocity's trace. */
    @Test
    void aHeaderWithMoreFieldsThanSparkTakesIsNamed() throws IOException {
        StringBuilder header = new StringBuilder("y");
        for (int i = 1; i <= 20480; i++) {
            header.append(",x").append(i);
        }
        Path wide = Files.writeString(tmp.resolve("wide.csv"), header + "\n1" + ",0".repeat(20480) + "\n");
        assertBad(beforeSpark(wide.toString()), "wide.csv line 1 (the header) does not parse as CSV: it has more "
                + "than 20480 fields, the most Spark's CSV reader takes");
    }

    /** Without --features, a later Parquet file without a column of the first is not said to miss a --features. */
    @Test
    void aParquetFileWithoutAColumnOfTheFirstFileNamesWhereTheColumnCameFrom() throws IOException {
        Path table = tmp.resolve("t.parquet");
        Path other = tmp.resolve("other.parquet");
        spark().createDataFrame(List.of(RowFactory.create(1.0, 0.5, 0.1)), DataTypes.createStructType(List.of(
                DataTypes.createStructField("y", DataTypes.DoubleType, false),
                DataTypes.createStructField("x1", DataTypes.DoubleType, false),
                DataTypes.createStructField("x2", DataTypes.DoubleType, false)))).coalesce(1).write()
                .parquet(table.toString());
        spark().createDataFrame(List.of(RowFactory.create(1.0, 0.5)), DataTypes.createStructType(List.of(
                DataTypes.createStructField("y", DataTypes.DoubleType, false),
                DataTypes.createStructField("x1", DataTypes.DoubleType, false)))).coalesce(1).write()
                .parquet(other.toString());
        try (var parts = Files.list(other)) {
            Path part = parts.filter(p -> p.getFileName().toString().startsWith("part-")).findFirst().orElseThrow();
            Files.move(part, table.resolve("zz.parquet"));
        }
        assertBad(beforeSpark(table.toString()), "zz.parquet: no column 'x2' (a numeric column of the first file, ",
                "t.parquet/part-");
    }

    @Test
    void badOptionsAreRefusedBeforeSpark() throws IOException {
        Path csv = Files.writeString(tmp.resolve("t.csv"), "y,x1\n1,0.5\n0,0.1\n");
        assertBad(run(csv.toString(), "--kernel", "gibbs"), "--kernel must be one of am, independence, laplace-rwm, "
                + "rwm, slice, slice-doubling, is 'gibbs'");
        assertBad(run(csv.toString(), "--combiner", "median"), "--combiner must be one of consensus, semiparametric, nonparametric, is 'median'");
        assertBad(run(csv.toString(), "--family", "probit"), "--family must be one of logistic, poisson, gaussian, "
                + "is 'probit'");
        assertBad(run(csv.toString(), "--chains", "1"), "--chains must be ≥ 2 for R-hat within a shard, is 1");
        assertBad(run(csv.toString(), "--prior-sd", "-2.5"), "--prior-sd must be a finite number > 0, is -2.5");
        assertBad(run(csv.toString(), "--format", "json"), "--format must be one of parquet, csv, is 'json'");
        assertBad(run(tmp.resolve("none.parquet").toString()), "no such file or directory");
        assertBad(run(Files.writeString(tmp.resolve("t.txt"), "y\n").toString()), "give --format parquet");
        assertBad(run(csv.toString(), "--family", "logistic", "--sigma-prior-scale", "3"), "--sigma-prior-scale is the "
                + "prior scale of the gaussian family's σ; the logistic family has no σ: drop the option");
        Path sigma = Files.writeString(tmp.resolve("sigma.conf"), "sigma-prior-scale = 3\n");
        assertBad(run(csv.toString(), "--conf", sigma.toString()), "the logistic family has no σ");
        assertBad(run(csv.toString(), "--model", "class:org.sparkmc.spark.consensus.UnitNoiseLinearLikelihood",
                "--sigma-prior-scale", "3"), "a --model class sets its own priors: drop the option");
        // an empty list in a config file ("no column ''") or an empty name on the command line
        Path conf = Files.writeString(tmp.resolve("empty.conf"), "features = []\n");
        assertBad(run(csv.toString(), "--conf", conf.toString()), "--features names an empty column ('')");
        assertBad(run(csv.toString(), "--features", "x1,,x2"), "--features 'x1,,x2' has an empty entry (a comma too "
                + "many?); expected COL[,COL...]");
    }

    private BadInputTest.Result run(String data, String... options) {
        return BadInputTest.runCapturing(ConsensusRuns.concat(new String[] {"consensus", "--data", data, "--out",
            tmp.resolve("out").toString(), "--warmup", "10", "--iterations", "10", "--shards", "1"}, options));
    }

    /**
     * {@link #run}, asserting that no Spark job ran: the refusal came before Spark (which runs one to read a CSV
     * header or a Parquet schema).
     */
    private BadInputTest.Result beforeSpark(String data, String... options) {
        BadInputTest.Result[] r = new BadInputTest.Result[1];
        int jobs = sparkJobs(() -> r[0] = run(data, options));
        assertEquals(0, jobs, "Spark jobs ran before the refusal: " + r[0].err());
        return r[0];
    }

    /** {@code text} in UTF-8, gzip-compressed. */
    private static byte[] gzip(String text) throws IOException {
        ByteArrayOutputStream gzip = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gzip)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return gzip.toByteArray();
    }

    private void assertBad(BadInputTest.Result r, String... expected) {
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        for (String e : expected) {
            assertTrue(r.err().contains(e), "expected '" + e + "' in: " + r.err());
        }
        assertFalse(r.err().contains("\tat "), "no stack trace for bad input: " + r.err());
        assertFalse(Files.exists(tmp.resolve("out")), "nothing written");
    }
}
