package org.sparkmc.spark.consensus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.core.consensus.Glm;
import org.sparkmc.core.consensus.ShardAssignment;
import org.sparkmc.core.consensus.SyntheticGlmData;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.random.Rng;
import org.sparkmc.spark.SparkTestBase;

/**
 * The consensus job on a table with a discrete feature, whose rows repeat: 20,000 logistic rows with an intercept
 * and one 0/1 feature x (probability 1/2), y = 1 with probability logistic(−1/2 + x), so 4 distinct rows repeated
 * 3,000–7,000 times each. Sharded by a hash of the values alone, all copies of a row shared a shard: with 8 shards
 * at most 4 held rows, and with 2 shards whole responses sat in one shard. Here each copy gets a shard of its own.
 */
class ConsensusDiscreteTableTest extends SparkTestBase {
    private static final int ROWS = 20_000;
    private static final List<String> NAMES = List.of("intercept", "x");
    private static final int ITERATIONS = 2000;
    private static final int REFERENCE_ITERATIONS = 4000;

    @TempDir
    Path tmp;

    /** Rows {y, 1, x} of the table. */
    private static List<double[]> rows() {
        Rng rng = new RandomStreams(21).rng("discrete table");
        List<double[]> rows = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            double x = rng.uniform() < 0.5 ? 0 : 1;
            double y = rng.uniform() < 1 / (1 + Math.exp(0.5 - x)) ? 1 : 0;
            rows.add(new double[] {y, 1, x});
        }
        return rows;
    }

    /** The rows as Parquet in {@code files} files, in their order. */
    private String parquet(List<double[]> rows, String name, int files) {
        List<Row> table = rows.stream().map(r -> RowFactory.create(r[0], r[1], r[2])).toList();
        String path = tmp.resolve(name).toString();
        spark().createDataFrame(table, DataTypes.createStructType(List.of(
                DataTypes.createStructField("y", DataTypes.DoubleType, false),
                DataTypes.createStructField("intercept", DataTypes.DoubleType, false),
                DataTypes.createStructField("x", DataTypes.DoubleType, false)))).coalesce(files).write().parquet(path);
        return path;
    }

    /**
     * S = 2, 3, 4 and 8 against the full-data posterior of the same rows, sampled on one machine by core's
     * ShardSampler with S = 1 (2 chains × 4,000 independence draws): every combined mean within 0.1 posterior sd
     * of the reference mean, every combined sd within 10% of the reference sd; and each shard holds the rows
     * {@link ShardAssignment#shards} gives it (summary.json's row counts).
     *
     * <p>Every run uses the independence kernel, 4 chains × 2,000 draws; the test also requires R-hat < 1.01 and
     * bulk ESS ≥ 2,000 for every combined parameter (summary.csv). Monte Carlo error: with ESS ≥ 2,000 on both
     * sides the difference of two means has sd ≤ √(2/2000) ≈ 0.032 posterior sds, so 0.1 is ≥ 3.1 sds; with the
     * ESS measured (combined 7,100–7,500, reference 7,400–7,600) it is 6 sds, two-sided 2·10⁻⁹ per mean. An sd's
     * relative error is about 1/√(2·ESS) ≈ 0.8% each, so 10% is about 9 sds. Over 8 means and 8 sds the
     * false-failure rate is below 2·10⁻⁸ for a random seed; the seeds are fixed, so the test is deterministic.
     * What it detects: shards holding whole responses (with all copies of a row in one shard, S = 2 left shards of
     * separated data, whose sub-posteriors run off to large coefficients) or an empty shard (S = 8: exit 2).
     */
    @Test
    void aDiscreteTableMatchesTheFullDataPosteriorWithTwoToEightShards() throws IOException {
        List<double[]> rows = rows();
        String data = parquet(rows, "table.parquet", 2);
        double[] features = new double[2 * ROWS];
        double[] responses = new double[ROWS];
        for (int i = 0; i < ROWS; i++) {
            responses[i] = rows.get(i)[0];
            features[2 * i] = rows.get(i)[1];
            features[2 * i + 1] = rows.get(i)[2];
        }
        double[][] reference = ConsensusFamiliesTest.reference(Glm.of("logistic", NAMES, 1),
                new SyntheticGlmData.Rows(features, responses), 10, REFERENCE_ITERATIONS);
        long seed = 6;
        for (int shards : new int[] {2, 3, 4, 8}) {
            Path out = tmp.resolve("s" + shards);
            ConsensusRuns.consensus(data, out, "--shards", Integer.toString(shards), "--kernel", "independence",
                    "--chains", "4", "--warmup", "200", "--iterations", Integer.toString(ITERATIONS), "--seed",
                    Long.toString(seed));
            List<Row> draws = ConsensusRuns.draws(spark(), out);
            for (int j = 0; j < NAMES.size(); j++) {
                double[] x = ConsensusRuns.column(draws, NAMES.get(j));
                double z = (ConsensusRuns.mean(x) - reference[0][j]) / reference[1][j];
                double ratio = ConsensusRuns.sd(x) / reference[1][j];
                System.out.printf("S=%d %s: mean %.5f (reference %.5f, %.3f sd), sd ratio %.4f (reference ESS %.0f)%n",
                        shards, NAMES.get(j), ConsensusRuns.mean(x), reference[0][j], z, ratio, reference[2][j]);
                assertTrue(Math.abs(z) < 0.1, "S=" + shards + " " + NAMES.get(j) + ": mean off by " + z + " sd");
                assertTrue(Math.abs(ratio - 1) < 0.1, "S=" + shards + " " + NAMES.get(j) + ": sd ratio " + ratio);
            }
            for (String line : Files.readString(out.resolve("summary.csv")).lines().skip(1).toList()) {
                String[] f = line.split(",");
                System.out.println("S=" + shards + " summary: " + line);
                assertTrue(Double.parseDouble(f[6]) < 1.01 && Double.parseDouble(f[7]) >= 2000, line);
            }
            assertArrayEquals(expectedShardSizes(rows, shards, seed), jobShardSizes(out), "S=" + shards);
        }
    }

    /**
     * The draws depend on the multiset of rows, the seed and the number of shards only: the table as one Parquet
     * file, as three files of the rows in another order read in many small partitions, and as a CSV file give
     * identical draws.
     */
    @Test
    void aDiscreteTablesDrawsDoNotDependOnOrderFilesOrPartitions() throws Exception {
        List<double[]> rows = rows();
        String one = parquet(rows, "one.parquet", 1);
        List<double[]> shuffled = new ArrayList<>(rows);
        Rng rng = new RandomStreams(3).rng("shuffle");
        for (int i = shuffled.size() - 1; i > 0; i--) {
            Collections.swap(shuffled, i, (int) Math.min(i, Math.floor(rng.uniform() * (i + 1))));
        }
        String three = parquet(shuffled, "three.parquet", 3);
        List<Row> draws = ConsensusRuns.sameDrawsFromEveryCopy(spark(), tmp, one, three, "4096", "--shards", "3",
                "--chains", "2", "--warmup", "100", "--iterations", "300", "--seed", "4");
        assertEquals(2 * 300, draws.size());
        long[] sizes = expectedShardSizes(rows, 3, 4);
        assertArrayEquals(sizes, jobShardSizes(tmp.resolve("b")));
        assertArrayEquals(sizes, jobShardSizes(tmp.resolve("c")));
    }

    /** The rows of each shard by core's assignment of the whole table. */
    private static long[] expectedShardSizes(List<double[]> rows, int shards, long seed) {
        long[] sizes = new long[shards];
        for (int s : ShardAssignment.shards(seed, rows.toArray(double[][]::new), shards)) {
            sizes[s]++;
        }
        return sizes;
    }

    /** The rows of each shard in the job's summary.json. */
    private static long[] jobShardSizes(Path out) throws IOException {
        JsonNode shards = ConsensusFamiliesTest.summary(out).get("shard_results");
        long[] sizes = new long[shards.size()];
        for (JsonNode s : shards) {
            sizes[s.get("shard").asInt()] = s.get("rows").asLong();
        }
        return sizes;
    }
}
