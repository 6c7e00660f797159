package org.sparkmc.core.lda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.random.RandomStreams;

/** The row sort gives exactly what sorting and reversing gives, on every branch, and leaves the rest alone. */
class DescendingSortTest {
    /**
     * Runs of lengths 0 to 3, on both sides of the insertion threshold, and up to 10,000, of values that differ in
     * every byte, in one byte, in a few values with many ties, in none, packed rows as the samplers write them, and
     * runs holding negative values, each inside a longer array whose other cells must not move.
     */
    @Test
    void equalsSortThenReverseOnEveryKindOfRun() {
        UniformRandomProvider rng = new RandomStreams(11).stream("descending-sort", 0);
        int[] lengths = {0, 1, 2, 3, DescendingSort.INSERTION_BELOW - 1, DescendingSort.INSERTION_BELOW,
            DescendingSort.INSERTION_BELOW + 1, 100, 1_000, 10_000};
        int bits = TopicWordCounts.topicBits(1_000);
        for (int n : lengths) {
            for (int kind = 0; kind < 6; kind++) {
                int[] run = new int[n];
                for (int i = 0; i < n; i++) {
                    run[i] = switch (kind) {
                        case 0 -> rng.nextInt(Integer.MAX_VALUE); // every byte varies
                        case 1 -> rng.nextInt(200) << 8; // only the second byte varies
                        case 2 -> 0x5A5A_0000 | rng.nextInt(3); // few distinct values, many ties
                        case 3 -> 7; // all equal
                        case 4 -> (1 + rng.nextInt(rng.nextBoolean() ? 5 : 5_000)) << bits | rng.nextInt(1_000);
                        default -> rng.nextInt(); // negative values too
                    };
                }
                int[] padded = new int[n + 6];
                Arrays.fill(padded, -3);
                System.arraycopy(run, 0, padded, 3, n);
                int[] expected = padded.clone();
                Arrays.sort(expected, 3, 3 + n);
                for (int i = 3, j = 3 + n - 1; i < j; i++, j--) {
                    int t = expected[i];
                    expected[i] = expected[j];
                    expected[j] = t;
                }
                DescendingSort.sort(padded, 3, 3 + n);
                assertArrayEquals(expected, padded, "length " + n + ", kind " + kind);
            }
        }
    }
}
