package org.sparkmc.spark.consensus;

import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.function.Supplier;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.function.PairFlatMapFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.NumericType;
import org.apache.spark.sql.types.StructType;
import org.sparkmc.core.DecimalNumbers;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.consensus.RowLikelihood;
import org.sparkmc.core.consensus.ShardAssignment;
import org.sparkmc.spark.io.UnreadableFiles;
import scala.Tuple2;

/**
 * The {@code consensus} job's data table, read by Spark (Parquet, or CSV with a header) and checked row by row on
 * the executors as it is cut into shards: no row ever reaches the driver.
 *
 * <p>Before Spark: the path exists and its format is known ({@code --format}, or the name's extension), and the
 * files' headers or footers name every column, of a numeric type, and count rows ({@link TableCheck}). Once Spark
 * has the schema, the columns are chosen by the same rules from it (the only check of a partitioned directory's).
 * Per row, on the executors: every value is present and a finite number, and the response is in the model's
 * support; a failure names the file, the row, the column and the value, and ends the job with exit 2. A Parquet row
 * is its index in the file, from 1. Spark's CSV reader gives no line numbers, so for a CSV file the driver reads the
 * file again, on the error path only, and names the line of its first bad value ({@link CsvLines}).
 */
final class GlmTable {
    /** The column the CSV reader puts a malformed line in ({@link #byShard}). */
    private static final String MALFORMED = "_sparkmc_malformed_line";

    private final String location;
    private final String format;
    private final String response;
    private final List<String> features;
    /** The table's columns, as its schema or the CSV files' header names them. */
    private final List<String> columns;
    /** The response's and the features' places among the table's columns (a CSV line's fields). */
    private final int[] positions;

    private GlmTable(String location, String format, String response, List<String> features, List<String> columns,
            int[] positions) {
        this.location = location;
        this.format = format;
        this.response = response;
        this.features = features;
        this.columns = columns;
        this.positions = positions;
    }

    /**
     * Reads the schema and checks the columns.
     *
     * @param features the feature columns, or empty for every other numeric column (CSV: every other column)
     */
    static GlmTable open(SparkSession spark, String location, String format, String response, List<String> features) {
        Dataset<Row> table = read(spark, location, format);
        List<String> columns = List.of(table.columns());
        boolean csv = format.equals("csv");
        List<String> chosen = TableCheck.features(location, columns, c -> {
            DataType type = table.schema().apply(c).dataType();
            return csv || type instanceof NumericType ? null : type.simpleString();
        }, c -> csv ? CsvLines.headerWithout(spark.sparkContext().hadoopConfiguration(), location, c) : null,
                response, features, "--features");
        List<String> needed = new ArrayList<>();
        needed.add(response);
        needed.addAll(chosen);
        return new GlmTable(location, format, response, chosen, columns,
                needed.stream().mapToInt(columns::indexOf).toArray());
    }

    private static Dataset<Row> read(SparkSession spark, String location, String format) {
        spark.sparkContext().setJobDescription("consensus: read the table's schema");
        return readable(format, () -> format.equals("parquet") ? spark.read().parquet(location)
                : trimmed(spark.read()).option("header", "true").option("inferSchema", "false")
                        // each file's header must name the first file's columns in the same order: Spark reads
                        // the fields by position, so a file with its columns in another order would be read wrong
                        .option("enforceSchema", "false").csv(location));
    }

    /**
     * The CSV table with every column as text and one more, {@value #MALFORMED}, holding each line whose fields do not
     * match the header's (Spark's permissive reader would drop a field too many without a word, and read an unquoted
     * comma's halves as two values), null for a good line.
     */
    private Dataset<Row> readCsvMarkingMalformedLines(SparkSession spark) {
        StructType schema = new StructType();
        for (String c : columns) {
            schema = schema.add(c, DataTypes.StringType);
        }
        StructType withMalformed = schema.add(MALFORMED, DataTypes.StringType);
        return readable(format, () -> trimmed(spark.read()).option("header", "true").option("enforceSchema", "false")
                .option("mode", "PERMISSIVE").option("columnNameOfCorruptRecord", MALFORMED).schema(withMalformed)
                .csv(location));
    }

    /**
     * A CSV reader that drops white space around a field, the header's too (ignoreLeading/TrailingWhiteSpace): a header
     * {@code y, intercept, x1} named its parameters ' intercept' and ' x1'; diagnose drops it as well.
     */
    private static DataFrameReader trimmed(DataFrameReader reader) {
        return reader.option("ignoreLeadingWhiteSpace", "true").option("ignoreTrailingWhiteSpace", "true");
    }

    /** {@code reading}'s table; a file Spark cannot read is bad input naming it ({@link #unreadable}). */
    private static Dataset<Row> readable(String format, Supplier<Dataset<Row>> reading) {
        try {
            return reading.get();
        } catch (Exception e) { // Spark's SparkException is checked in Java but thrown undeclared from Scala
            InvalidInputException unreadable = unreadable(e, format);
            if (unreadable != null) {
                throw unreadable;
            }
            throw e;
        }
    }

    /** The bad-input error for a file of the table Spark could not read ({@link UnreadableFiles}); or null. */
    private static InvalidInputException unreadable(Throwable failure, String format) {
        return format.equals("parquet") ? UnreadableFiles.of(failure, "Parquet", TableCheck.PARQUET_HINT)
                : UnreadableFiles.of(failure, "CSV", TableCheck.CSV_HINT);
    }

    List<String> features() {
        return features;
    }

    /** The response's column, then the features'. */
    private List<String> names() {
        List<String> names = new ArrayList<>();
        names.add(response);
        names.addAll(features);
        return names;
    }

    /**
     * The rows, {@code [response, features…]} each, checked on the executors and keyed by the shard of their
     * {@link ShardAssignment#key}, which all copies of a row share ({@link ShardedRows} spreads the copies).
     *
     * @param seed the root seed of the row keys ({@link ShardAssignment})
     */
    JavaPairRDD<Integer, double[]> byShard(SparkSession spark, RowLikelihood likelihood, int shards, long seed) {
        Dataset<Row> table = format.equals("csv") ? readCsvMarkingMalformedLines(spark)
                : read(spark, location, format);
        List<Column> cols = new ArrayList<>();
        cols.add(functions.col("_metadata.file_path"));
        cols.add(format.equals("parquet") ? functions.col("_metadata.row_index")
                : functions.lit(null).cast(DataTypes.LongType));
        List<String> names = names();
        for (String c : names) {
            Column col = table.col("`" + c.replace("`", "``") + "`");
            cols.add(format.equals("parquet") ? col.cast(DataTypes.DoubleType) : col);
        }
        cols.add(format.equals("csv") ? functions.col(MALFORMED) : functions.lit(null).cast(DataTypes.StringType));
        return table.select(cols.toArray(Column[]::new)).javaRDD()
                .mapPartitionsToPair(new CheckedRows(names, likelihood, shards, seed));
    }

    /**
     * What to report when the job that read the rows failed with {@code failure}: for a bad value in a CSV file, the
     * first bad line of that file, found by reading it again through Hadoop's FileSystem (the line the executor
     * met may be a later one: a file is read in parts); else the failure itself.
     */
    RuntimeException located(SparkSession spark, RowLikelihood likelihood, RuntimeException failure) {
        BadValue bad = null;
        for (Throwable t = failure; t != null && bad == null; t = t.getCause()) {
            bad = t instanceof BadValue b ? b : null;
            if (t instanceof IllegalArgumentException e && e.getMessage() != null
                    && (e.getMessage().startsWith("CSV header does not conform to the schema")
                        || e.getMessage().startsWith("Number of column in CSV header is not equal"))) {
                InvalidInputException header = new InvalidInputException("the table " + location + ": a file's "
                        + "header orders or names the columns differently from the first file's, which Spark would "
                        + "read by position; " + e.getMessage().replace('\n', ' ').replaceAll(" +", " ").trim());
                header.initCause(failure);
                return header;
            }
        }
        InvalidInputException unreadable = unreadable(failure, format);
        if (unreadable != null) {
            return unreadable;
        }
        if (bad == null || !format.equals("csv")) {
            return failure;
        }
        InvalidInputException found;
        try {
            found = CsvLines.firstBadLine(spark.sparkContext().hadoopConfiguration(), bad.file, names(), positions,
                    likelihood);
        } catch (UncheckedIOException e) {
            failure.addSuppressed(e);
            return failure;
        }
        if (found == null) {
            return failure;
        }
        found.initCause(failure);
        return found;
    }

    /**
     * Value {@code v} of column {@code k} (0: the response) as a number, checked: present, a finite number, and for
     * the response in the model's support. The same checks on the executors and on the driver's error path.
     *
     * @param v     a {@link Number}, a CSV field's text, or null for a missing or empty one
     * @param where where the value is ("FILE row N", "FILE line N"), asked for only when the value is refused
     * @throws InvalidInputException naming where, the column, the value and what was expected
     */
    static double checked(Object v, int k, String column, RowLikelihood likelihood, Supplier<String> where) {
        double x;
        if (v == null) {
            throw refused(where, column, "is empty, expected a number");
        } else if (v instanceof String s) {
            try {
                x = DecimalNumbers.parse(s.trim());
            } catch (NumberFormatException e) {
                throw refused(where, column, "is '" + s + "', expected a number");
            }
        } else {
            x = ((Number) v).doubleValue();
        }
        if (!Double.isFinite(x)) {
            throw refused(where, column, "is " + x + ", expected a finite number");
        }
        if (k == 0 && !likelihood.inSupport(x)) {
            throw likelihood.badResponse(where.get() + ", column '" + column + "'", x);
        }
        return x;
    }

    private static InvalidInputException refused(Supplier<String> where, String column, String what) {
        return new InvalidInputException(where.get() + ", column '" + column + "': value " + what);
    }

    /** A value refused on an executor, with the file it is in (for {@link #located}). */
    static final class BadValue extends InvalidInputException {
        private static final long serialVersionUID = 1L;
        private final String file;

        BadValue(String file, InvalidInputException refusal) {
            super(refusal.getMessage(), refusal);
            this.file = file;
        }
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
                private Row current;
                private final Supplier<String> where = this::where;

                @Override
                public boolean hasNext() {
                    return rows.hasNext();
                }

                @Override
                public Tuple2<Integer, double[]> next() {
                    current = rows.next();
                    int malformed = names.size() + 2;
                    if (!current.isNullAt(malformed)) { // the driver finds the line and says what is wrong with it
                        throw new BadValue(current.getString(0), new InvalidInputException(where() + ": a line whose "
                                + "fields do not match the header's: " + current.getString(malformed)));
                    }
                    double[] values = new double[names.size()];
                    for (int k = 0; k < values.length; k++) {
                        try {
                            values[k] = checked(current.get(k + 2), k, names.get(k), likelihood, where);
                        } catch (InvalidInputException e) {
                            throw new BadValue(current.getString(0), e);
                        }
                    }
                    return new Tuple2<>(ShardAssignment.shard(ShardAssignment.key(seed, values), shards), values);
                }

                /** "FILE row N" (Parquet), "FILE" (CSV: the driver finds the line). */
                private String where() {
                    String file = CsvLines.shown(current.getString(0));
                    return current.isNullAt(1) ? file : file + " row " + (current.getLong(1) + 1);
                }
            };
        }
    }
}
