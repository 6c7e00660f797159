package org.sparkmc.spark.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.sparkmc.spark.cli.BadInputTest;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.cli.Main;

/** Shared steps of the consensus tests: generate a table, run the job, read its draws. */
final class ConsensusRuns {
    private ConsensusRuns() {
    }

    /** generate-glm into {@code out}; returns the table's path. */
    static String generate(Path out, String... options) {
        BadInputTest.Result r = BadInputTest.runCapturing(concat(new String[] {"generate-glm", "--out",
            out.toString()}, options));
        assertEquals(ExitCode.OK, r.code(), r.err());
        return out.resolve("data.parquet").toString();
    }

    /** consensus on {@code data} into {@code out}. */
    static void consensus(String data, Path out, String... options) {
        int code = Main.run(concat(new String[] {"consensus", "--data", data, "--out", out.toString()}, options));
        assertEquals(ExitCode.OK, code);
    }

    /**
     * The job on the table {@code one}, on the same rows {@code three} read in partitions of at most
     * {@code partitionBytes} bytes, on a CSV copy of {@code three}, and on a CSV copy in 40 files (more than the 32
     * paths Spark would list with a job of its own), into {@code tmp}/a, b, c and d: asserts that the four runs' draws
     * are identical, and returns them.
     */
    static List<Row> sameDrawsFromEveryCopy(SparkSession spark, Path tmp, String one, String three,
            String partitionBytes, String... run) {
        Path csv = tmp.resolve("table.csv");
        spark.read().parquet(three).coalesce(1).write().option("header", "true").csv(csv.toString());
        Path files = tmp.resolve("files.csv");
        spark.read().parquet(three).withColumn("order", functions.monotonically_increasing_id())
                .repartitionByRange(40, functions.col("order")).sortWithinPartitions("order").drop("order").write()
                .option("header", "true").csv(files.toString());
        consensus(one, tmp.resolve("a"), run);
        spark.conf().set("spark.sql.files.maxPartitionBytes", partitionBytes);
        try {
            consensus(three, tmp.resolve("b"), run);
        } finally {
            spark.conf().unset("spark.sql.files.maxPartitionBytes");
        }
        consensus(csv.toString(), tmp.resolve("c"), concat(run, "--format", "csv"));
        consensus(files.toString(), tmp.resolve("d"), concat(run, "--format", "csv"));
        List<Row> a = draws(spark, tmp.resolve("a"));
        assertEquals(a, draws(spark, tmp.resolve("b")));
        assertEquals(a, draws(spark, tmp.resolve("c")));
        assertEquals(a, draws(spark, tmp.resolve("d")));
        return a;
    }

    /** draws.parquet's rows sorted by chain and draw. */
    static List<Row> draws(SparkSession spark, Path out) {
        return spark.read().parquet(out.resolve("draws.parquet").toString()).orderBy("chain", "draw")
                .collectAsList();
    }

    /** Column {@code name} of draws.parquet as an array. */
    static double[] column(List<Row> rows, String name) {
        int k = rows.get(0).fieldIndex(name);
        return rows.stream().mapToDouble(r -> r.getDouble(k)).toArray();
    }

    static double mean(double[] x) {
        return Arrays.stream(x).average().orElse(Double.NaN);
    }

    static double sd(double[] x) {
        double m = mean(x);
        return Math.sqrt(Arrays.stream(x).map(v -> (v - m) * (v - m)).sum() / (x.length - 1));
    }

    static String[] concat(String[] a, String... b) {
        String[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
