package org.sparkmc.spark.diagnose;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.spark.SparkTestBase;

/** The draws files the {@code diagnose} tests read: Parquet (chain, draw, a, b) tables and a chains job's output. */
abstract class DiagnoseTestBase extends SparkTestBase {
    @TempDir
    Path tmp;

    /** Writes (chain, draw, a, b) rows, nulls allowed, as one Parquet file. */
    Path parquet(String name, List<Object[]> rows) {
        StructType schema = new StructType().add("chain", DataTypes.IntegerType).add("draw", DataTypes.IntegerType)
                .add("a", DataTypes.DoubleType).add("b", DataTypes.DoubleType);
        Path file = tmp.resolve(name + ".parquet");
        spark().createDataFrame(rows.stream().map(RowFactory::create).toList(), schema).coalesce(1).write()
                .parquet(file.toString());
        return file;
    }

    /** Writes (chain, draw, a, b) rows as a Parquet directory of {@code parts} part files, one chain per part. */
    Path parquetParts(String name, List<Object[]> rows, int parts) {
        StructType schema = new StructType().add("chain", DataTypes.IntegerType).add("draw", DataTypes.IntegerType)
                .add("a", DataTypes.DoubleType).add("b", DataTypes.DoubleType);
        Path dir = tmp.resolve(name + ".parquet");
        spark().createDataFrame(rows.stream().map(RowFactory::create).toList(), schema)
                .repartition(parts, org.apache.spark.sql.functions.col("chain")).write().parquet(dir.toString());
        return dir;
    }

    /** Two chains of three draws. */
    static List<Object[]> goodRows() {
        List<Object[]> rows = new ArrayList<>();
        for (int chain = 1; chain <= 2; chain++) {
            for (int draw = 1; draw <= 3; draw++) {
                rows.add(new Object[] {chain, draw, 0.1 * draw, (double) chain});
            }
        }
        return rows;
    }

    /** A chains job's output directory as far as diagnose cares: draws.parquet (good rows) beside summaries. */
    Path chainsOutputDirectory() throws IOException {
        Path job = Files.createDirectories(tmp.resolve("chains-out"));
        parquet("draws", goodRows());
        Files.move(tmp.resolve("draws.parquet"), job.resolve("draws.parquet"));
        Files.writeString(job.resolve("summary.csv"), "name,mean\na,0.2\n");
        Files.writeString(job.resolve("summary.json"), "{}");
        return job;
    }
}
