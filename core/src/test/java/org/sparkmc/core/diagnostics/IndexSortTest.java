package org.sparkmc.core.diagnostics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The radix sort orders values as {@link Arrays#sort(double[])} does and carries each value's index along. */
class IndexSortTest {
    @Test
    void sortsLikeArraysSortAndKeepsEachValuesIndex() {
        SplittableRandom random = new SplittableRandom(17);
        double[][] cases = {
            {},
            {3.0},
            {2.0, -1.0, 2.0, 0.0, -0.0, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, Double.MIN_VALUE,
                -Double.MIN_VALUE, Double.MAX_VALUE, -Double.MAX_VALUE, 1e-300, -1e300},
            random.doubles(100_000, -5, 5).toArray(),
            random.ints(50_000, 0, 7).asDoubleStream().toArray(), // many ties
            random.doubles(20_000).map(u -> Math.exp(700 * (u - 0.5)) * (u < 0.3 ? -1 : 1)).toArray(),
        };
        for (double[] values : cases) {
            double[] sorted = values.clone();
            int[] index = new int[values.length];
            Arrays.setAll(index, i -> i);
            IndexSort.sort(sorted, index);
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
}
