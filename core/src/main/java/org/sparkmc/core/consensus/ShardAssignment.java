package org.sparkmc.core.consensus;

import java.util.Arrays;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.random.RandomStreams;

/**
 * Which shard a data row belongs to, and the order of a shard's rows: functions of the row's values and the root
 * seed alone, so that neither the files a table is cut into, nor their order, nor Spark's partitions change a
 * shard's rows or their order (and so not a single draw).
 *
 * <p>A row's key is a 64-bit hash (SplitMix64 steps, {@link RandomStreams#mix}) of the seed and the bit patterns of
 * its response and features; its shard is the key's high bits scaled to [0, S) (Lemire's multiply-shift, uniform for
 * a uniform key). Assignment by a hash of the content is as good as random for the combination: it does not look at
 * the response's meaning, so the shards hold exchangeable rows, and each holds close to n/S of them (a multinomial
 * count). Identical rows share a shard. Within a shard, rows are sorted by key, then by value, so that the shard's
 * log density sums its rows in one order (floating-point sums depend on it).
 */
public final class ShardAssignment {
    private static final long SALT = 0x636f6e73656e7375L; // "consensu"

    private ShardAssignment() {
    }

    /** The key of the row {@code row[0]} = response, {@code row[1..p]} = features. */
    public static long key(long seed, double[] row) {
        long h = RandomStreams.mix(seed ^ SALT);
        for (double v : row) {
            h = RandomStreams.mix(h + Double.doubleToLongBits(v));
        }
        return RandomStreams.mix(h + row.length);
    }

    /** The shard in [0, shards) of a row's key. */
    public static int shard(long key, int shards) {
        if (shards < 1) {
            throw new InvalidInputException("the number of shards must be ≥ 1, is " + shards);
        }
        return (int) Math.multiplyHigh(key >>> 1, (long) shards << 1);
    }

    /**
     * A shard's rows in their canonical order (by key, then by value), unpacked: {@code features} row-major, one
     * response per row.
     *
     * @param rows each {@code [response, feature 1, …, feature p]}; sorted in place
     */
    public static SyntheticGlmData.Rows ordered(long seed, double[][] rows, int p) {
        long[] keys = new long[rows.length];
        Integer[] order = new Integer[rows.length];
        for (int i = 0; i < rows.length; i++) {
            keys[i] = key(seed, rows[i]);
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> {
            int byKey = Long.compare(keys[a], keys[b]);
            return byKey != 0 ? byKey : Arrays.compare(rows[a], rows[b]);
        });
        double[] features = new double[rows.length * p];
        double[] responses = new double[rows.length];
        for (int i = 0; i < rows.length; i++) {
            double[] row = rows[order[i]];
            responses[i] = row[0];
            System.arraycopy(row, 1, features, i * p, p);
        }
        return new SyntheticGlmData.Rows(features, responses);
    }
}
