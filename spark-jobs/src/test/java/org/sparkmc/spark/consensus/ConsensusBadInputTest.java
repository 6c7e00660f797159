package org.sparkmc.spark.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.cli.BadInputTest;
import org.sparkmc.spark.cli.ExitCode;

/**
 * A bad table exits with code 2, one message naming the file, the column (and for Parquet the row) and the value,
 * no stack trace, and nothing at --out.
 */
class ConsensusBadInputTest extends SparkTestBase {
    @TempDir
    Path tmp;

    @Test
    void aMissingColumnIsNamed() throws IOException {
        Path csv = Files.writeString(tmp.resolve("t.csv"), "y,x1,x2\n1,0.5,1\n0,0.1,2\n");
        BadInputTest.Result r = run(csv.toString(), "--features", "x1,x3");
        assertBad(r, csv.toString(), "no column 'x3' (--features); the columns are [y, x1, x2]");
        r = run(csv.toString(), "--response", "label");
        assertBad(r, csv.toString(), "no column 'label' (--response)");
    }

    @Test
    void aValueThatIsNotANumberIsNamedWithItsFileAndColumn() throws IOException {
        Path csv = Files.writeString(tmp.resolve("bad.csv"), "y,x1,x2\n1,0.5,1\n0,0.1,2\n1,0.3,abc\n0,1,1\n");
        BadInputTest.Result r = run(csv.toString());
        assertBad(r, "bad.csv, column 'x2': value is 'abc', expected a number");
        Path empty = Files.writeString(tmp.resolve("empty.csv"), "y,x1,x2\n1,0.5,1\n0,,2\n");
        assertBad(run(empty.toString()), "empty.csv, column 'x1': value is empty, expected a number");
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

    @Test
    void badOptionsAreRefusedBeforeSpark() throws IOException {
        Path csv = Files.writeString(tmp.resolve("t.csv"), "y,x1\n1,0.5\n0,0.1\n");
        assertBad(run(csv.toString(), "--kernel", "gibbs"), "unknown kernel 'gibbs' for consensus");
        assertBad(run(csv.toString(), "--combiner", "median"), "unknown --combiner 'median'");
        assertBad(run(csv.toString(), "--family", "probit"), "unknown GLM family 'probit'");
        assertBad(run(csv.toString(), "--chains", "1"), "chains must be at least 2");
        assertBad(run(tmp.resolve("none.parquet").toString()), "no such file or directory");
        assertBad(run(Files.writeString(tmp.resolve("t.txt"), "y\n").toString()), "give --format parquet");
    }

    private BadInputTest.Result run(String data, String... options) {
        return BadInputTest.runCapturing(ConsensusRuns.concat(new String[] {"consensus", "--data", data, "--out",
            tmp.resolve("out").toString(), "--warmup", "10", "--iterations", "10", "--shards", "1"}, options));
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
