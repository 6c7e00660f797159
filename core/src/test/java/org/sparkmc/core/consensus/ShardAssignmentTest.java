package org.sparkmc.core.consensus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.statistics.distribution.ChiSquaredDistribution;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.random.Rng;

/**
 * {@link ShardAssignment} on 20,000 synthetic logistic rows (an intercept and two N(0, 1) features): a row's shard
 * and its place in its shard depend on its values and the seed only, not on the order the rows arrive in; the shard
 * sizes are the multinomial(n, 1/S, …, 1/S) counts a uniform assignment gives; and another seed gives an assignment
 * unrelated to the first. On 20,000 rows of a discrete table (an intercept and one 0/1 feature: 4 distinct rows),
 * the copies of a row are spread over the shards as distinct rows would be, whatever the order and the split of the
 * rows.
 *
 * <p>Statistical checks, each against the exact law of a uniform, independent assignment: Pearson's chi-square of
 * the shard sizes against χ²(S − 1), refused above its 1 − 10⁻⁴ quantile, for S = 2, 7 and 32, on the continuous and
 * on the discrete table; on the discrete table also the chi-square of the counts of each distinct row's copies per
 * shard against χ²(4(S − 1)), refused likewise; and the number of rows two seeds put in the same shard against its
 * Binomial(n, 1/S) law, refused beyond 5 sds. For a random seed the false-failure rate is below
 * 9·10⁻⁴ + 6·10⁻⁷; the seeds are fixed, so the test is deterministic. The order checks are exact (no tolerance).
 */
class ShardAssignmentTest {
    private static final int ROWS = 20_000;
    private static final int P = 3;
    private static final long SEED = 41;

    /** Rows [y, intercept, x1, x2] from the logistic generator. */
    private static double[][] rows() {
        Glm glm = new LogisticGlm(Glm.coefficientNames(P));
        SyntheticGlmData.Rows r = new SyntheticGlmData(glm, new double[] {-0.5, 1, -1}, true, new RandomStreams(5))
                .rows(0, ROWS);
        double[][] rows = new double[ROWS][P + 1];
        for (int i = 0; i < ROWS; i++) {
            rows[i][0] = r.responses()[i];
            System.arraycopy(r.features(), i * P, rows[i], 1, P);
        }
        return rows;
    }

    /**
     * Rows [y, 1, x] of a discrete table: x is 0 or 1 with probability 1/2, y is 1 with probability
     * logistic(−1/2 + x); 4 distinct rows, each repeated thousands of times.
     */
    private static double[][] discreteRows() {
        Rng rng = new RandomStreams(6).rng("discrete table");
        double[][] rows = new double[ROWS][];
        for (int i = 0; i < ROWS; i++) {
            double x = rng.uniform() < 0.5 ? 0 : 1;
            double y = rng.uniform() < 1 / (1 + Math.exp(0.5 - x)) ? 1 : 0;
            rows[i] = new double[] {y, 1, x};
        }
        return rows;
    }

    /** A Fisher–Yates shuffle of the rows (the arrays themselves are shared, not copied). */
    private static double[][] shuffled(double[][] rows, long seed) {
        double[][] out = rows.clone();
        Rng rng = new RandomStreams(seed).rng("shuffle");
        for (int i = out.length - 1; i > 0; i--) {
            int k = (int) Math.min(i, Math.floor(rng.uniform() * (i + 1)));
            double[] t = out[i];
            out[i] = out[k];
            out[k] = t;
        }
        return out;
    }

    /** The rows of each shard, in the order they come, as the job's shuffle would collect them. */
    private static List<List<double[]>> byShard(double[][] rows, int shards, long seed) {
        List<List<double[]>> out = new ArrayList<>();
        for (int s = 0; s < shards; s++) {
            out.add(new ArrayList<>());
        }
        for (double[] row : rows) {
            out.get(ShardAssignment.shard(ShardAssignment.key(seed, row), shards)).add(row);
        }
        return out;
    }

    @Test
    void aRowsShardAndPlaceDoNotDependOnTheInputOrder() {
        double[][] rows = rows();
        int shards = 7;
        List<List<double[]>> original = byShard(rows, shards, SEED);
        List<List<double[]>> reordered = byShard(shuffled(rows, 2), shards, SEED);
        int total = 0;
        for (int s = 0; s < shards; s++) {
            assertEquals(original.get(s).size(), reordered.get(s).size(), "shard " + s + "'s size");
            SyntheticGlmData.Rows a = ShardAssignment.ordered(SEED, original.get(s).toArray(double[][]::new), P);
            SyntheticGlmData.Rows b = ShardAssignment.ordered(SEED, reordered.get(s).toArray(double[][]::new), P);
            assertArrayEquals(a.responses(), b.responses(), 0.0, "shard " + s + "'s responses");
            assertArrayEquals(a.features(), b.features(), 0.0, "shard " + s + "'s features");
            assertEquals(original.get(s).size() * P, a.features().length);
            total += a.responses().length;
        }
        assertEquals(ROWS, total);
    }

    /** Within a shard the order is by key: the same rows in any order come out sorted the same way. */
    @Test
    void orderedSortsByKeyAndKeepsEveryRow() {
        double[][] rows = shuffled(rows(), 3);
        double[][] some = java.util.Arrays.copyOf(rows, 500);
        SyntheticGlmData.Rows ordered = ShardAssignment.ordered(SEED, some.clone(), P);
        long previous = Long.MIN_VALUE;
        List<double[]> seen = new ArrayList<>();
        for (int i = 0; i < some.length; i++) {
            double[] row = new double[P + 1];
            row[0] = ordered.responses()[i];
            System.arraycopy(ordered.features(), i * P, row, 1, P);
            long key = ShardAssignment.key(SEED, row);
            assertTrue(key >= previous, "row " + i + " is out of key order");
            previous = key;
            seen.add(row);
        }
        java.util.Comparator<double[]> byValue = java.util.Arrays::compare;
        List<double[]> expected = new ArrayList<>(List.of(some));
        expected.sort(byValue);
        seen.sort(byValue);
        for (int i = 0; i < some.length; i++) {
            assertArrayEquals(expected.get(i), seen.get(i), 0.0, "row " + i);
        }
    }

    @Test
    void shardSizesAreMultinomialWithEqualProbabilities() {
        double[][] rows = rows();
        for (int shards : new int[] {2, 7, 32}) {
            assertUniform("S=" + shards, byShard(rows, shards, SEED).stream().mapToLong(List::size).toArray());
        }
    }

    /**
     * A discrete table's copies are spread over the shards as distinct rows are: the shard sizes are multinomial
     * with equal probabilities, and so are each distinct row's copies (with a hash of the values alone, all copies
     * of a row would share a shard: 4 non-empty shards at most).
     */
    @Test
    void theCopiesOfADiscreteTableAreSpreadMultinomially() {
        double[][] rows = discreteRows();
        Map<List<Double>, Integer> distinct = new HashMap<>();
        for (double[] row : rows) {
            distinct.putIfAbsent(List.of(row[0], row[1], row[2]), distinct.size());
        }
        assertEquals(4, distinct.size());
        for (int shards : new int[] {2, 7, 32}) {
            int[] shard = ShardAssignment.shards(SEED, rows, shards);
            long[] sizes = new long[shards];
            long[] copies = new long[distinct.size() * shards];
            for (int i = 0; i < rows.length; i++) {
                sizes[shard[i]]++;
                copies[distinct.get(List.of(rows[i][0], rows[i][1], rows[i][2])) * shards + shard[i]]++;
            }
            assertUniform("discrete, S=" + shards, sizes);
            double chi2 = 0;
            for (int v = 0; v < distinct.size(); v++) {
                long[] counts = Arrays.copyOfRange(copies, v * shards, (v + 1) * shards);
                chi2 += chiSquare(counts);
            }
            int df = distinct.size() * (shards - 1);
            double bound = ChiSquaredDistribution.of(df).inverseSurvivalProbability(1e-4);
            System.out.printf("discrete, S=%d: copies per shard, chi-square %.2f on %d df (bound %.2f)%n", shards,
                    chi2, df, bound);
            assertTrue(chi2 < bound, "S=" + shards + ": copies' chi-square " + chi2 + " ≥ " + bound);
        }
    }

    /** Pearson's chi-square of counts against equal expected counts. */
    private static double chiSquare(long[] counts) {
        double expected = (double) Arrays.stream(counts).sum() / counts.length;
        double chi2 = 0;
        for (long c : counts) {
            chi2 += (c - expected) * (c - expected) / expected;
        }
        return chi2;
    }

    /** Refuses shard sizes whose chi-square exceeds χ²(S − 1)'s 1 − 10⁻⁴ quantile. */
    private static void assertUniform(String what, long[] sizes) {
        double chi2 = chiSquare(sizes);
        double bound = ChiSquaredDistribution.of(sizes.length - 1).inverseSurvivalProbability(1e-4);
        System.out.printf("%s: chi-square %.2f on %d df (bound %.2f)%n", what, chi2, sizes.length - 1, bound);
        assertTrue(chi2 < bound, what + ": chi-square " + chi2 + " ≥ " + bound);
    }

    /**
     * Each shard's rows, copies included, are the same whatever the order of the rows and however they are split:
     * the whole table (4 distinct rows repeated, plus 2,000 distinct ones) in its order, against the rows in two
     * other orders, either whole or grouped by the shard of their key as the job's first shuffle groups them (each
     * group's copies counted in the order that group's rows come in).
     */
    @Test
    void theCopiesShardsDoNotDependOnTheOrderOrTheSplit() {
        double[][] continuous = rows();
        double[][] rows = Arrays.copyOf(discreteRows(), ROWS + 2000);
        for (int i = 0; i < 2000; i++) {
            rows[ROWS + i] = Arrays.copyOf(continuous[i], 3);
        }
        int shards = 7;
        List<List<double[]>> expected = assigned(List.<double[][]>of(rows), shards);
        for (long order : new long[] {2, 3}) {
            double[][] shuffled = shuffled(rows, order);
            List<List<double[]>> whole = assigned(List.<double[][]>of(shuffled), shards);
            List<double[][]> groups = new ArrayList<>();
            for (List<double[]> g : byShard(shuffled, shards, SEED)) {
                groups.add(g.toArray(double[][]::new));
            }
            List<List<double[]>> grouped = assigned(groups, shards);
            for (int s = 0; s < shards; s++) {
                SyntheticGlmData.Rows a = ShardAssignment.ordered(SEED, expected.get(s).toArray(double[][]::new), 2);
                for (List<List<double[]>> other : List.of(whole, grouped)) {
                    SyntheticGlmData.Rows b = ShardAssignment.ordered(SEED, other.get(s).toArray(double[][]::new), 2);
                    assertArrayEquals(a.responses(), b.responses(), 0.0, "shard " + s + "'s responses");
                    assertArrayEquals(a.features(), b.features(), 0.0, "shard " + s + "'s features");
                }
            }
        }
    }

    /** Each shard's rows when {@link ShardAssignment#shards} assigns each group of rows on its own. */
    private static List<List<double[]>> assigned(List<double[][]> groups, int shards) {
        List<List<double[]>> out = new ArrayList<>();
        for (int s = 0; s < shards; s++) {
            out.add(new ArrayList<>());
        }
        for (double[][] group : groups) {
            int[] to = ShardAssignment.shards(SEED, group, shards);
            for (int i = 0; i < group.length; i++) {
                out.get(to[i]).add(group[i]);
            }
        }
        return out;
    }

    /** Two seeds agree on a row's shard about n/S times, as two independent uniform assignments do. */
    @Test
    void anotherSeedGivesAnUnrelatedAssignment() {
        double[][] rows = rows();
        int shards = 8;
        int same = 0;
        for (double[] row : rows) {
            if (ShardAssignment.shard(ShardAssignment.key(SEED, row), shards)
                    == ShardAssignment.shard(ShardAssignment.key(SEED + 1, row), shards)) {
                same++;
            }
        }
        double mean = (double) ROWS / shards;
        double sd = Math.sqrt(ROWS * (1.0 / shards) * (1 - 1.0 / shards));
        System.out.printf("rows in the same shard under both seeds: %d (independent: %.0f ± %.0f)%n", same, mean, sd);
        assertTrue(Math.abs(same - mean) < 5 * sd, same + " rows share their shard, expected " + mean + " ± " + sd);
    }

    @Test
    void identicalRowsShareAKeyAndAShardCountBelowOneIsRefused() {
        double[] a = {1, 1, 0.25, -3};
        assertEquals(ShardAssignment.key(SEED, a), ShardAssignment.key(SEED, a.clone()));
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> ShardAssignment.shard(12, 0));
        assertTrue(e.getMessage().contains("shards must be ≥ 1, is 0"), e.getMessage());
        for (long key : new long[] {0, -1, Long.MIN_VALUE, Long.MAX_VALUE, 0x5555_5555_5555_5555L}) {
            int s = ShardAssignment.shard(key, 5);
            assertTrue(s >= 0 && s < 5, "key " + key + " → shard " + s);
        }
    }

    /** Distinct rows keep the shard of their key: counting copies changes nothing for a table without any. */
    @Test
    void aTableOfDistinctRowsIsShardedByItsKeys() {
        double[][] rows = shuffled(rows(), 4);
        int[] shard = ShardAssignment.shards(SEED, rows, 7);
        for (int i = 0; i < rows.length; i++) {
            assertEquals(ShardAssignment.shard(ShardAssignment.key(SEED, rows[i]), 7), shard[i], "row " + i);
        }
        assertEquals(42L, ShardAssignment.copyKey(42L, 0));
    }

    /**
     * Two different rows with the same key are not copies of each other: each row's copies are counted apart, so
     * both rows' three copies go to the shards of copy keys 0, 1 and 2 (counted together, one row would get copy
     * keys 0–2 and the other 3–5, and with 2²⁰ shards their shards would differ).
     */
    @Test
    void rowsThatShareAKeyButNotTheirValuesAreCountedApart() {
        double[][] pair = collidingRows();
        assertEquals(ShardAssignment.key(SEED, pair[0]), ShardAssignment.key(SEED, pair[1]), "the rows collide");
        double[][] rows = {pair[0], pair[1], pair[1].clone(), pair[0].clone(), pair[1].clone(), pair[0].clone()};
        int shards = 1 << 20;
        int[] shard = ShardAssignment.shards(SEED, rows, shards);
        long key = ShardAssignment.key(SEED, pair[0]);
        int[] expected = new int[3];
        for (int k = 0; k < 3; k++) {
            expected[k] = ShardAssignment.shard(ShardAssignment.copyKey(key, k), shards);
        }
        int[] first = {shard[0], shard[3], shard[5]};
        int[] second = {shard[1], shard[2], shard[4]};
        Arrays.sort(expected);
        Arrays.sort(first);
        Arrays.sort(second);
        assertEquals(3, Arrays.stream(expected).distinct().count());
        assertArrayEquals(expected, first, "the first row's copies");
        assertArrayEquals(expected, second, "the second row's copies");
    }

    /**
     * Two rows [a, b], [a', b'] with the same {@link ShardAssignment#key}: its chain of SplitMix64 steps is
     * h ← mix(h + bits(v)) per value, so b' = b + h(a) − h(a') makes the second step's input equal.
     */
    private static double[][] collidingRows() {
        long start = RandomStreams.mix(SEED ^ 0x636f6e73656e7375L); // ShardAssignment's salt, "consensu"
        long ha = RandomStreams.mix(start + Double.doubleToLongBits(0.5));
        for (double a2 = 1; ; a2++) {
            long b2 = ha + Double.doubleToLongBits(2.0) - RandomStreams.mix(start + Double.doubleToLongBits(a2));
            if (Double.isFinite(Double.longBitsToDouble(b2))) {
                return new double[][] {{0.5, 2.0}, {a2, Double.longBitsToDouble(b2)}};
            }
        }
    }
}
