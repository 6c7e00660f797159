package org.sparkmc.spark.consensus;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.function.PairFlatMapFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructField;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.consensus.RowLikelihood;
import org.sparkmc.core.consensus.ShardAssignment;
import scala.Tuple2;

/**
 * The {@code consensus} job's data table, read by Spark (Parquet, or CSV with a header) and checked row by row on
 * the executors as it is cut into shards: no row ever reaches the driver.
 *
 * <p>Before Spark: the path exists and its format is known ({@code --format}, or the name's extension). Once Spark
 * has the schema: every named column exists, a Parquet column is numeric (a CSV's are text, parsed per value).
 * Per row, on the executors: every value is present and a finite number, and the response is in the model's
 * support; a failure names the file, the row (Parquet: its index in the file from 1; Spark's CSV reader gives no
 * line numbers), the column and the value, and ends the job with exit 2.
 */
final class GlmTable {
    private final String location;
    private final String format;
    private final String response;
    private final List<String> features;

    private GlmTable(String location, String format, String response, List<String> features) {
        this.location = location;
        this.format = format;
        this.response = response;
        this.features = features;
    }

    /**
     * Reads the schema and checks the columns.
     *
     * @param features the feature columns, or empty for every other numeric column (CSV: every other column)
     */
    static GlmTable open(SparkSession spark, String location, String format, String response, List<String> features) {
        Dataset<Row> table = read(spark, location, format);
        List<String> columns = List.of(table.columns());
        List<String> chosen = new ArrayList<>(features);
        if (chosen.isEmpty()) {
            for (StructField f : table.schema().fields()) {
                if (!f.name().equals(response) && (format.equals("csv") || f.dataType() instanceof NumericType)) {
                    chosen.add(f.name());
                }
            }
        }
        List<String> needed = new ArrayList<>();
        needed.add(response);
        needed.addAll(chosen);
        for (String c : needed) {
            if (!columns.contains(c)) {
                throw new InvalidInputException(location + ": no column '" + c + "' (" + (c.equals(response)
                        ? "--response" : "--features") + "); the columns are " + columns);
            }
            DataType type = table.schema().apply(c).dataType();
            if (format.equals("parquet") && !(type instanceof NumericType)) {
                throw new InvalidInputException(location + ": column '" + c + "' holds " + type.simpleString()
                        + " values, expected numbers");
            }
        }
        if (chosen.isEmpty()) {
            throw new InvalidInputException(location + ": no feature columns besides the response '" + response
                    + "'; name them with --features");
        }
        if (chosen.contains(response) || chosen.stream().distinct().count() != chosen.size()) {
            throw new InvalidInputException("--features names a column twice or names the response: " + chosen);
        }
        return new GlmTable(location, format, response, List.copyOf(chosen));
    }

    private static Dataset<Row> read(SparkSession spark, String location, String format) {
        spark.sparkContext().setJobDescription("consensus: read the table's schema");
        return format.equals("parquet") ? spark.read().parquet(location)
                : spark.read().option("header", "true").option("inferSchema", "false").csv(location);
    }

    List<String> features() {
        return features;
    }

    /**
     * The rows, {@code [response, features…]} each, checked on the executors and keyed by the shard of their
     * {@link ShardAssignment#key}, which all copies of a row share ({@link ShardedRows} spreads the copies).
     *
     * @param seed the root seed of the row keys ({@link ShardAssignment})
     */
    JavaPairRDD<Integer, double[]> byShard(SparkSession spark, RowLikelihood likelihood, int shards, long seed) {
        Dataset<Row> table = read(spark, location, format);
        List<Column> cols = new ArrayList<>();
        cols.add(functions.col("_metadata.file_path"));
        cols.add(format.equals("parquet") ? functions.col("_metadata.row_index")
                : functions.lit(null).cast(DataTypes.LongType));
        List<String> names = new ArrayList<>();
        names.add(response);
        names.addAll(features);
        for (String c : names) {
            Column col = table.col("`" + c.replace("`", "``") + "`");
            cols.add(format.equals("parquet") ? col.cast(DataTypes.DoubleType) : col);
        }
        return table.select(cols.toArray(Column[]::new)).javaRDD()
                .mapPartitionsToPair(new CheckedRows(names, likelihood, shards, seed));
    }

    /** Each row's values checked and keyed by its shard (a named function: no closure to clean or capture). */
    private static final class CheckedRows implements PairFlatMapFunction<Iterator<Row>, Integer, double[]> {
        private static final long serialVersionUID = 1L;
        private final List<String> names;
        private final RowLikelihood likelihood;
        private final int shards;
        private final long seed;

        CheckedRows(List<String> names, RowLikelihood likelihood, int shards, long seed) {
            this.names = names;
            this.likelihood = likelihood;
            this.shards = shards;
            this.seed = seed;
        }

        @Override
        public Iterator<Tuple2<Integer, double[]>> call(Iterator<Row> rows) {
            return new Iterator<>() {
                @Override
                public boolean hasNext() {
                    return rows.hasNext();
                }

                @Override
                public Tuple2<Integer, double[]> next() {
                    Row row = rows.next();
                    double[] values = new double[names.size()];
                    for (int k = 0; k < values.length; k++) {
                        Object v = row.get(k + 2);
                        double x;
                        if (v == null) {
                            throw bad(row, k, "is empty, expected a number");
                        } else if (v instanceof String s) {
                            try {
                                x = Double.parseDouble(s.trim());
                            } catch (NumberFormatException e) {
                                throw bad(row, k, "is '" + s + "', expected a number");
                            }
                        } else {
                            x = ((Number) v).doubleValue();
                        }
                        if (!Double.isFinite(x)) {
                            throw bad(row, k, "is " + x + ", expected a finite number");
                        }
                        if (k == 0 && !likelihood.inSupport(x)) {
                            throw likelihood.badResponse(where(row, 0), x);
                        }
                        values[k] = x;
                    }
                    return new Tuple2<>(ShardAssignment.shard(ShardAssignment.key(seed, values), shards), values);
                }
            };
        }

        private InvalidInputException bad(Row row, int k, String what) {
            return new InvalidInputException(where(row, k) + ": value " + what);
        }

        /** "FILE row N, column 'c'" (Parquet), "FILE, column 'c'" (CSV). */
        private String where(Row row, int k) {
            String file = row.getString(0);
            return file + (row.isNullAt(1) ? "" : " row " + (row.getLong(1) + 1)) + ", column '" + names.get(k) + "'";
        }
    }
}
