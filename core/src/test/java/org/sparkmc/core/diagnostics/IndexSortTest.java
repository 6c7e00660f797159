package org.sparkmc.core.diagnostics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.stream.DoubleStream;
import org.junit.jupiter.api.Test;

/**
 * The radix sort orders values as {@link Arrays#sort(double[])} does, returns each value's input position and keeps
 * equal values in their input order. Together the three checks fix the output exactly. The cases cover both ways a
 * range is sorted: arrays of at most 32,768 values by LSD passes or insertion, and larger ones split by their most
 * significant varying byte first (spread values, values sharing their top bytes, large runs of ties, all equal), and
 * values whose keys differ only in the low bits the positions are packed into.
 */
class IndexSortTest {
    @Test
    void sortsLikeArraysSortAndKeepsEachValuesIndex() {
        SplittableRandom random = new SplittableRandom(17);
        Random gaussian = new Random(17);
        double[][] cases = {
            {},
            {3.0},
            {2.0, -1.0, 2.0, 0.0, -0.0, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, Double.MIN_VALUE,
                -Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, 1e-300, -1e300},
            random.doubles(100_000, -5, 5).toArray(),
            random.ints(50_000, 0, 7).asDoubleStream().toArray(), // many ties
            random.doubles(20_000).map(u -> Math.exp(700 * (u - 0.5)) * (u < 0.3 ? -1 : 1)).toArray(),
            DoubleStream.generate(gaussian::nextGaussian).limit(300_000).toArray(),
            random.doubles(200_000).map(u -> 1000 + 1e-9 * u).toArray(), // the top five bytes shared
            random.ints(300_000, 0, 3).asDoubleStream().toArray(), // runs of 100,000 equal values
            random.ints(300_000, -40, 40).asDoubleStream().map(v -> v / 8).toArray(),
            repeated(random, 250_000),
            new double[100_000], // all equal
            random.doubles(32_768, -1, 1).toArray(),
            random.doubles(32_769, -1, 1).toArray(),
            nearlyTied(random, 100_000, 1), // one run sharing the keys' top bits, differing in the lowest 10
            nearlyTied(random, 200_000, 40), // 40 such runs, half of them negative
            nearlyTied(random, 5_000, 2_000), // many short runs
        };
        for (double[] values : cases) {
            double[] sorted = values.clone();
            int[] index = IndexSort.sort(sorted);
            double[] expected = values.clone();
            Arrays.sort(expected);
            assertArrayEquals(expected, sorted, "length " + values.length);
            for (int i = 0; i < values.length; i++) {
                assertEquals(Double.doubleToRawLongBits(values[index[i]]), Double.doubleToRawLongBits(sorted[i]));
            }
            for (int i = 1; i < values.length; i++) {
                if (sorted[i] == sorted[i - 1] && Double.compare(sorted[i], sorted[i - 1]) == 0) {
                    assertEquals(true, index[i] > index[i - 1], "stable among equal values");
                }
            }
        }
    }

    /**
     * Values a few units in the last place apart around {@code bases} integers (negative ones too), with ties: the
     * keys' top bits tie in runs that only the low bits, which the sort packs positions into, can order.
     */
    private static double[] nearlyTied(SplittableRandom random, int n, int bases) {
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            double base = random.nextInt(bases) - bases / 2 + 0.5;
            values[i] = Double.longBitsToDouble(Double.doubleToRawLongBits(base) + random.nextInt(1_000));
        }
        return values;
    }

    /** A random walk that repeats its value about half the time, as a Metropolis chain's rejections do. */
    private static double[] repeated(SplittableRandom random, int n) {
        double[] walk = new double[n];
        for (int i = 1; i < n; i++) {
            walk[i] = random.nextBoolean() ? walk[i - 1] : walk[i - 1] + random.nextDouble(-1, 1);
        }
        return walk;
    }
}
