package org.sparkmc.spark.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.spark.SparkTestBase;

/**
 * {@link ParquetDraws#checkNumbersFitInts} runs on every diagnose of pandas' or pyarrow's draws (64-bit chain and
 * draw columns): one Spark job, whether the numbers fit or not, and the file it names is the first by name with a
 * number beyond 32 bits in either column (it ran a job per column, and named a later file's chain before an earlier
 * file's draw).
 */
class ParquetDrawsTest extends SparkTestBase {
    @TempDir
    Path tmp;

    @Test
    void oneJobLooksAtBothColumnsAndNamesTheFirstFileWithANumberBeyond32Bits() {
        Dataset<Row> fits = read(write("fits", 1, 1, 2, 3));
        assertEquals(1, sparkJobs(() -> ParquetDraws.checkNumbersFitInts(fits)));

        Dataset<Row> beyond = read(write("a", 1, 1, 1, 99_999_999_999L), write("b", 99_999_999_998L, 1, 1, 1));
        InvalidInputException[] thrown = new InvalidInputException[1];
        assertEquals(1, sparkJobs(() -> thrown[0] = assertThrows(InvalidInputException.class,
                () -> ParquetDraws.checkNumbersFitInts(beyond))));
        String message = thrown[0].getMessage();
        assertTrue(message.contains("/a/part-") && message.contains(".parquet: column 'draw' holds 99999999999; chain "
                + "and draw must be whole numbers from 1 to 2147483647"), message);
    }

    /** Two rows (chain, draw), (chain2, draw2) of 64-bit integers with a value, in a directory {@code name}. */
    private String write(String name, long chain, long draw, long chain2, long draw2) {
        StructType schema = new StructType().add("chain", DataTypes.LongType).add("draw", DataTypes.LongType)
                .add("x", DataTypes.DoubleType);
        String path = tmp.resolve(name).toString();
        spark().createDataFrame(List.of(RowFactory.create(chain, draw, 0.5), RowFactory.create(chain2, draw2, 0.1)),
                schema).coalesce(1).write().parquet(path);
        return path;
    }

    private Dataset<Row> read(String... paths) {
        return spark().read().parquet(paths);
    }
}
