package org.sparkmc.spark.io;

import org.apache.spark.sql.DataFrameWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * Parquet writers for columns of sampled doubles (draws, particles): without dictionary pages. Such a column holds
 * too many distinct values for a dictionary to pay: Parquet builds one, finds it no smaller and drops it, page after
 * page. Without it, eight schools' draws were written in 40% less time and 13% less space, and 10^6 particles of a
 * checkpoint in 30% less time and the same space (BENCHMARKS.md).
 */
public final class PlainParquet {
    private PlainParquet() {
    }

    /** {@code rows.write()}, without dictionaries. */
    public static DataFrameWriter<Row> writer(Dataset<Row> rows) {
        return rows.write().option("parquet.enable.dictionary", "false");
    }
}
