package org.sparkmc.core.lda;

import java.util.Arrays;

/**
 * A set of topics in [0, K) as one bit a topic, emptied in increasing topic order by {@link #drainTo}: the rows' code
 * visits the topics a row may hold this way, in O(topics + K/64) rather than O(K) and without sorting. Keeps the
 * range of 64-bit words in use, so a set that holds a few nearby topics is drained without scanning all K/64 words.
 * Not thread-safe.
 */
final class TopicSet {
    private final int numTopics;
    private final long[] bits;
    /** The 64-bit words that may be non-zero: from lo to hi (empty when lo > hi). */
    private int lo;
    private int hi = -1;

    TopicSet(int numTopics) {
        this.numTopics = numTopics;
        this.bits = new long[(numTopics + 63) >>> 6];
        this.lo = bits.length;
    }

    void add(int k) {
        int i = k >>> 6;
        bits[i] |= 1L << k;
        if (i < lo) {
            lo = i;
        }
        if (i > hi) {
            hi = i;
        }
    }

    /** Adds every topic in [0, K). */
    void addAll() {
        Arrays.fill(bits, -1L);
        if ((numTopics & 63) != 0) {
            bits[bits.length - 1] = (1L << (numTopics & 63)) - 1;
        }
        lo = 0;
        hi = bits.length - 1;
    }

    /** Adds the topics of word w's packed row in {@code counts} (a wide row's K cells are not topics: not for it). */
    void addRow(TopicWordCounts counts, int w) {
        int[] starts = counts.rowStarts();
        int[] cells = counts.entries();
        int mask = (1 << counts.topicBits()) - 1;
        for (int e = starts[w]; e < starts[w + 1]; e++) {
            add(cells[e] & mask);
        }
    }

    /**
     * Writes the set's topics into {@code out} in increasing order and empties the set; returns how many. {@code out}
     * has room for K.
     */
    int drainTo(int[] out) {
        int n = 0;
        for (int i = lo; i <= hi; i++) {
            for (long m = bits[i]; m != 0; m &= m - 1) {
                out[n++] = i << 6 | Long.numberOfTrailingZeros(m);
            }
            bits[i] = 0;
        }
        lo = bits.length;
        hi = -1;
        return n;
    }
}
