package org.sparkmc.spark.consensus;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.sparkmc.core.consensus.SyntheticGlmData;

/**
 * Writes {@code generate-glm}'s table from the executors: blocks of {@link SyntheticGlmData#ROWS_PER_STREAM} rows,
 * each a pure function of the seed and its index, as Parquet. Kept apart from the command so that a refused run
 * loads no Spark class beyond {@code SparkSession}.
 */
final class GlmTableWriter {
    private GlmTableWriter() {
    }

    /** Writes {@code rows} rows (response y, then the {@code names} features) to {@code path}. */
    static void write(SparkSession spark, SyntheticGlmData generator, long rows, List<String> names, int partitions,
            String path) {
        long blocks = (rows + SyntheticGlmData.ROWS_PER_STREAM - 1) / SyntheticGlmData.ROWS_PER_STREAM;
        int parts = (int) Math.min(blocks, partitions > 0 ? partitions : spark.sparkContext().defaultParallelism());
        JavaRDD<Row> table = spark.range(0, blocks, 1, parts).javaRDD()
                .flatMap(new BlockRows(generator, rows, names.size()));
        List<StructField> fields = new ArrayList<>();
        fields.add(DataTypes.createStructField("y", DataTypes.DoubleType, false));
        for (String name : names) {
            fields.add(DataTypes.createStructField(name, DataTypes.DoubleType, false));
        }
        spark.createDataFrame(table, DataTypes.createStructType(fields)).write().parquet(path);
    }

    /** The rows of stream block k (a named function: nothing captured but what it holds). */
    private static final class BlockRows implements FlatMapFunction<Long, Row> {
        private static final long serialVersionUID = 1L;
        private final SyntheticGlmData generator;
        private final long rows;
        private final int p;

        BlockRows(SyntheticGlmData generator, long rows, int p) {
            this.generator = generator;
            this.rows = rows;
            this.p = p;
        }

        @Override
        public Iterator<Row> call(Long block) {
            long first = block * SyntheticGlmData.ROWS_PER_STREAM;
            int count = (int) Math.min(SyntheticGlmData.ROWS_PER_STREAM, rows - first);
            SyntheticGlmData.Rows r = generator.rows(first, count);
            List<Row> out = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                Object[] values = new Object[p + 1];
                values[0] = r.responses()[i];
                for (int j = 0; j < p; j++) {
                    values[j + 1] = r.features()[i * p + j];
                }
                out.add(RowFactory.create(values));
            }
            return out.iterator();
        }
    }
}
