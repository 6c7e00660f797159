package org.sparkmc.core.consensus;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.random.RandomStreams;

/**
 * Which shard a data row belongs to, and the order of a shard's rows: functions of the multiset of rows and the root
 * seed alone, so that neither the files a table is cut into, nor their order, nor Spark's partitions change a
 * shard's rows or their order (and so not a single draw).
 *
 * <p>A row's key is a 64-bit hash (SplitMix64 steps, {@link RandomStreams#mix}) of the seed and the bit patterns of
 * its response and features; its shard is the key's high bits scaled to [0, S) (Lemire's multiply-shift, uniform for
 * a uniform key). Assignment by a hash of the content is as good as random for the combination: it does not look at
 * the response's meaning, so the shards hold exchangeable rows, and each holds close to n/S of them (a multinomial
 * count).
 *
 * <p>A table with discrete features repeats rows, and a hash of the values alone would put every copy of a row in
 * one shard (20,000 logistic rows with an intercept and one 0/1 feature have 4 distinct rows: at most 4 non-empty
 * shards, and with 2 shards whole responses in one). Identical rows are interchangeable, so the k-th copy of a row
 * (k = 0, 1, 2, … among the rows with the same values, in any order) gets its own key, {@link #copyKey}(key, k),
 * and its own shard ({@link #shards}): every copy is placed as a distinct row would be, and the result still depends
 * only on the multiset of rows. Copy 0 keeps the row's key, so a table of distinct rows is sharded by {@link #key}
 * alone. Rows are identical when their values' bit patterns are (a shared key is not enough: the values are
 * compared).
 *
 * <p>Within a shard, rows are sorted by key, then by value, so that the shard's log density sums its rows in one
 * order (floating-point sums depend on it; copies of a row are adjacent, and which copy comes first does not
 * matter).
 */
public final class ShardAssignment {
    private static final long SALT = 0x636f6e73656e7375L; // "consensu"
    /** SplitMix64's increment: the keys of a row's copies are SplitMix64's outputs from the row's key. */
    private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;

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

    /**
     * The key of copy {@code copy} (0, 1, 2, …) of a row whose key is {@code key}: the key itself for copy 0, else
     * the {@code copy}-th output of a SplitMix64 generator seeded with the key, mix(key + copy·γ).
     */
    public static long copyKey(long key, long copy) {
        return copy == 0 ? key : RandomStreams.mix(key + copy * GOLDEN_GAMMA);
    }

    /**
     * Each row's shard, counting copies: a row preceded in {@code rows} by k rows with the same values goes to
     * shard(copyKey(key, k)), so a row's first copy goes to shard(key). Identical rows are interchangeable, so the
     * multiset of (row, shard) pairs — each shard's rows — does not depend on the order. {@code rows} must hold
     * every copy of each of its rows: a whole table, or every row of the table whose {@link #key} is in a set, such
     * as the rows of one shard of {@link #key}.
     *
     * <p>Costs a key per row and a sort of the keys; only rows whose key occurs twice are compared by value.
     *
     * @param rows each {@code [response, feature 1, …, feature p]}; not modified
     * @return the shard in [0, shards) of each row
     */
    public static int[] shards(long seed, double[][] rows, int shards) {
        long[] keys = new long[rows.length];
        for (int i = 0; i < rows.length; i++) {
            keys[i] = key(seed, rows[i]);
        }
        long[] repeated = repeatedKeys(keys);
        Map<Copies, int[]> seen = new HashMap<>();
        int[] out = new int[rows.length];
        for (int i = 0; i < rows.length; i++) {
            long copy = 0;
            if (repeated.length > 0 && Arrays.binarySearch(repeated, keys[i]) >= 0) {
                copy = seen.computeIfAbsent(new Copies(keys[i], rows[i]), c -> new int[1])[0]++;
            }
            out[i] = shard(copyKey(keys[i], copy), shards);
        }
        return out;
    }

    /** The keys that occur more than once, sorted. */
    private static long[] repeatedKeys(long[] keys) {
        long[] sorted = keys.clone();
        Arrays.sort(sorted);
        long[] repeated = new long[sorted.length / 2];
        int n = 0;
        for (int i = 1; i < sorted.length; i++) {
            if (sorted[i] == sorted[i - 1] && (n == 0 || repeated[n - 1] != sorted[i])) {
                repeated[n++] = sorted[i];
            }
        }
        return Arrays.copyOf(repeated, n);
    }

    /** A row's values as a map key: equal when the values' bit patterns are, whatever their keys' collisions. */
    private record Copies(long key, double[] values) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Copies c && c.key == key && Arrays.equals(c.values, values);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(key);
        }

        @Override
        public String toString() {
            return Arrays.toString(values);
        }
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
