package org.sparkmc.spark.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.spark.SparkTestBase;

/**
 * {@link PlainParquet#writer} writes draws without dictionary pages and reads back unchanged. The draws repeat few
 * values (a chain that rejects keeps its value), so Parquet's default writer would keep a dictionary for every
 * column here: the test fails for a writer that does not switch it off.
 */
class PlainParquetTest extends SparkTestBase {
    @TempDir
    Path dir;

    @Test
    void writesDrawsWithoutDictionariesAndReadsThemBack() throws IOException {
        List<Row> rows = new ArrayList<>();
        for (int chain = 0; chain < 2; chain++) {
            for (int draw = 1; draw <= 1000; draw++) {
                rows.add(RowFactory.create(chain, draw, (double) (draw / 10), chain + 0.5));
            }
        }
        Dataset<Row> draws = spark().createDataFrame(rows, ParquetDraws.schema(List.of("chain"), List.of("x", "y")));
        String path = dir.resolve("draws.parquet").toString();
        PlainParquet.writer(draws.coalesce(1)).parquet(path);

        assertEquals(rows, spark().read().parquet(path).orderBy("chain", "draw").collectAsList());
        List<Encoding> encodings = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir.resolve("draws.parquet"))) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".parquet")).toList()) {
                try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(
                        new org.apache.hadoop.fs.Path(file.toUri()), new Configuration()))) {
                    for (BlockMetaData block : reader.getFooter().getBlocks()) {
                        for (ColumnChunkMetaData column : block.getColumns()) {
                            assertFalse(column.hasDictionaryPage(), column.getPath().toDotString());
                            encodings.addAll(column.getEncodings());
                        }
                    }
                }
            }
        }
        assertFalse(encodings.isEmpty(), "no column chunks read");
        assertTrue(encodings.stream().noneMatch(Encoding::usesDictionary), encodings.toString());
    }
}
