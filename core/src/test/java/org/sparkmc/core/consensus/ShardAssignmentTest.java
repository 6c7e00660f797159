package org.sparkmc.core.consensus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.statistics.distribution.ChiSquaredDistribution;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.random.Rng;

/**
 * {@link ShardAssignment} on 20,000 synthetic logistic rows (an intercept and two N(0, 1) features): a row's shard
 * and its place in its shard depend on its values and the seed only, not on the order the rows arrive in; the shard
 * sizes are the multinomial(n, 1/S, …, 1/S) counts a uniform assignment gives; and another seed gives an assignment
 * unrelated to the first.
 *
 * <p>Statistical checks, each against the exact law of a uniform, independent assignment: Pearson's chi-square of
 * the shard sizes against χ²(S − 1), refused above its 1 − 10⁻⁴ quantile, for S = 2, 7 and 32; and the number of
 * rows two seeds put in the same shard against its Binomial(n, 1/S) law, refused beyond 5 sds. For a random seed the
 * false-failure rate is below 3·10⁻⁴ + 6·10⁻⁷; the seeds are fixed, so the test is deterministic. The order checks
 * are exact (no tolerance).
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
            double expected = (double) ROWS / shards;
            double chi2 = 0;
            for (List<double[]> shard : byShard(rows, shards, SEED)) {
                chi2 += (shard.size() - expected) * (shard.size() - expected) / expected;
            }
            double bound = ChiSquaredDistribution.of(shards - 1).inverseSurvivalProbability(1e-4);
            System.out.printf("S=%d: chi-square %.2f on %d df (bound %.2f)%n", shards, chi2, shards - 1, bound);
            assertTrue(chi2 < bound, "S=" + shards + ": chi-square " + chi2 + " ≥ " + bound);
        }
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
    void identicalRowsShareAShardAndAShardCountBelowOneIsRefused() {
        double[] a = {1, 1, 0.25, -3};
        assertEquals(ShardAssignment.key(SEED, a), ShardAssignment.key(SEED, a.clone()));
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> ShardAssignment.shard(12, 0));
        assertTrue(e.getMessage().contains("shards must be ≥ 1, is 0"), e.getMessage());
        for (long key : new long[] {0, -1, Long.MIN_VALUE, Long.MAX_VALUE, 0x5555_5555_5555_5555L}) {
            int s = ShardAssignment.shard(key, 5);
            assertTrue(s >= 0 && s < 5, "key " + key + " → shard " + s);
        }
    }
}
