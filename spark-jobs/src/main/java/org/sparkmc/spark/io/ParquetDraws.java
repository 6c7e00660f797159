package org.sparkmc.spark.io;

import static org.apache.spark.sql.functions.array;
import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.count;
import static org.apache.spark.sql.functions.count_distinct;
import static org.apache.spark.sql.functions.count_if;
import static org.apache.spark.sql.functions.exists;
import static org.apache.spark.sql.functions.isnan;
import static org.apache.spark.sql.functions.lit;
import static org.apache.spark.sql.functions.max;
import static org.apache.spark.sql.functions.min;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.LongType;
import org.sparkmc.core.InvalidInputException;
import scala.Tuple2;

/**
 * Draws in the layout the jobs write ({@code chain}, {@code draw}, then one double column per quantity) regrouped
 * per chain: each chain's draws as [quantity][iteration] in draw order. Shuffles primitive arrays, not rows.
 */
public final class ParquetDraws {
    private ParquetDraws() {
    }

    /**
     * The draws.parquet layout: {@code key} ({@code chain}, or {@code shard} and {@code chain}; integers), {@code draw}
     * (an integer), then one double column per name.
     */
    public static org.apache.spark.sql.types.StructType schema(List<String> keys, List<String> names) {
        List<org.apache.spark.sql.types.StructField> fields = new ArrayList<>();
        for (String key : keys) {
            fields.add(org.apache.spark.sql.types.DataTypes.createStructField(key,
                    org.apache.spark.sql.types.DataTypes.IntegerType, false));
        }
        fields.add(org.apache.spark.sql.types.DataTypes.createStructField("draw",
                org.apache.spark.sql.types.DataTypes.IntegerType, false));
        for (String name : names) {
            fields.add(org.apache.spark.sql.types.DataTypes.createStructField(name,
                    org.apache.spark.sql.types.DataTypes.DoubleType, false));
        }
        return org.apache.spark.sql.types.DataTypes.createStructType(fields);
    }

    /**
     * @param draws columns chain (int), draw (int), then {@code width} doubles (null read as NaN; draws from outside
     *     the jobs go through {@link #check} first)
     */
    public static JavaPairRDD<Integer, double[][]> byChain(Dataset<Row> draws, int width) {
        return draws.javaRDD()
                .mapToPair(r -> {
                    double[] drawAndValues = new double[width + 1];
                    drawAndValues[0] = r.getInt(1);
                    for (int p = 0; p < width; p++) {
                        drawAndValues[p + 1] = r.isNullAt(p + 2) ? Double.NaN : r.getDouble(p + 2);
                    }
                    return new Tuple2<>(r.getInt(0), drawAndValues);
                })
                .groupByKey()
                .mapValues(rows -> {
                    List<double[]> sorted = new ArrayList<>();
                    rows.forEach(sorted::add);
                    sorted.sort(Comparator.comparingDouble(r -> r[0]));
                    double[][] byQuantity = new double[width][sorted.size()];
                    for (int i = 0; i < sorted.size(); i++) {
                        for (int p = 0; p < width; p++) {
                            byQuantity[p][i] = sorted.get(i)[p + 1];
                        }
                    }
                    return byQuantity;
                });
    }

    /**
     * Checks draws chain by chain with one aggregation on the executors: every row has a chain and a draw number,
     * no draw appears twice, draw numbers have no gaps (from any start), and no value is null. Only on a failure is
     * a second query run, to name the draw at fault.
     *
     * @param draws columns chain (int), draw (int), then the doubles {@code names}
     * @param source the inputs, named in messages
     * @return each chain's number of draws, by chain
     * @throws InvalidInputException naming {@code source}, the chain and where there is one the draw
     */
    public static Map<Integer, Integer> check(Dataset<Row> draws, List<String> names, String source) {
        Column anyNull = exists(array(names.stream().map(n -> col(quoted(n))).toArray(Column[]::new)),
                v -> v.isNull().or(isnan(v)).or(v.isin(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY)));
        List<Row> chains = draws.groupBy("chain").agg(count(lit(1)), count(col("draw")),
                count_distinct(col("draw")), min("draw"), max("draw"), count_if(anyNull)).orderBy("chain")
                .collectAsList();
        Map<Integer, Integer> counts = new TreeMap<>();
        for (Row r : chains) {
            long rows = r.getLong(1);
            if (r.isNullAt(0)) {
                throw new InvalidInputException(source + ": " + rows + " row(s) without a chain number (null)");
            }
            int chain = r.getInt(0);
            String where = source + ": chain " + chain;
            Dataset<Row> own = draws.filter(col("chain").equalTo(chain));
            if (r.getLong(2) < rows) {
                throw new InvalidInputException(where + " has " + (rows - r.getLong(2))
                        + " row(s) without a draw number (null)");
            }
            if (r.getLong(3) < rows) {
                int twice = own.groupBy("draw").count().filter(col("count").gt(1)).agg(min("draw")).first().getInt(0);
                throw new InvalidInputException(where + " has draw " + twice + " twice");
            }
            int first = r.getInt(4);
            int last = r.getInt(5);
            if (chain < 1 || first < 1) {
                throw new InvalidInputException(source + ": chain and draw start at 1, found chain " + chain
                        + (first < 1 ? " with draw " + first : ""));
            }
            if ((long) last - first + 1 != rows) {
                Dataset<Row> numbers = own.select("draw");
                int missing = numbers.select(col("draw").plus(1).as("draw")).except(numbers).agg(min("draw"))
                        .first().getInt(0);
                throw new InvalidInputException(source + ": " + DrawFiles.gap(chain, first, last, missing));
            }
            if (r.getLong(6) > 0) {
                Row bad = own.filter(anyNull).orderBy("draw").first();
                int p = 0;
                while (!bad.isNullAt(p + 2) && Double.isFinite(((Number) bad.get(p + 2)).doubleValue())) {
                    p++;
                }
                throw new InvalidInputException(where + ", draw " + bad.getInt(1) + ": column '" + names.get(p)
                        + (bad.isNullAt(p + 2) ? "' is null, not a number"
                            : "': " + DrawFiles.notFinite(((Number) bad.get(p + 2)).doubleValue())));
            }
            counts.put(chain, (int) rows);
        }
        return counts;
    }

    /**
     * Refuses chain or draw numbers that do not fit the 32-bit ints they are read as (in a column of 64-bit integers:
     * Spark's cast would fail with CAST_OVERFLOW), naming the file, the column and the limit. Only 64-bit columns are
     * looked at, in one Spark job: the rows with such a number in any of them, the first by file, chain and draw taken.
     *
     * @param draws the draws as read, with their {@code _metadata}
     * @throws InvalidInputException naming the first file, by name, with such a number
     */
    public static void checkNumbersFitInts(Dataset<Row> draws) {
        List<String> wide = new ArrayList<>();
        for (String c : List.of("chain", "draw")) {
            if (draws.schema().apply(c).dataType() instanceof LongType) {
                wide.add(c);
            }
        }
        if (wide.isEmpty()) {
            return;
        }
        Column beyond = lit(false);
        List<Column> shown = new ArrayList<>(List.of(col("_metadata.file_path").as("file")));
        for (String c : wide) {
            beyond = beyond.or(col(c).gt(Integer.MAX_VALUE).or(col(c).lt(Integer.MIN_VALUE)));
            shown.add(col(c));
        }
        List<Row> bad = draws.filter(beyond).select(shown.toArray(Column[]::new))
                .orderBy("file", wide.toArray(String[]::new)).limit(1).collectAsList();
        if (bad.isEmpty()) {
            return;
        }
        Row first = bad.get(0);
        for (int i = 0; i < wide.size(); i++) {
            long n = first.isNullAt(i + 1) ? 0 : first.getLong(i + 1);
            if (n != (int) n) {
                throw new InvalidInputException(first.getString(0) + ": column '" + wide.get(i) + "' holds " + n
                        + "; " + DrawFiles.NUMBERING);
            }
        }
    }

    /** A column name quoted for Spark SQL, so that dots and backticks in it are taken literally. */
    public static String quoted(String name) {
        return "`" + name.replace("`", "``") + "`";
    }
}
