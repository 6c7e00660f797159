package org.sparkmc.core.diagnostics;

/**
 * Sorts an array of values ascending together with a parallel array of indices, so that ranks can be assigned in
 * one pass afterwards. The values' bits are mapped to keys whose unsigned order is the numeric order (negative
 * values with all bits flipped, others with the sign bit set) and sorted by bytes, stably. Values must not be NaN.
 *
 * <p>A range larger than {@value #CACHED} keys is split by its most significant byte that varies (most-significant-
 * digit radix sort), so each part fits a core's cache before it is sorted further. A part of at most
 * {@value #CACHED} keys is sorted by its remaining bytes from the least significant (LSD radix sort), skipping
 * bytes all its keys share; a part of at most {@value #INSERTION} keys by insertion. Every step is stable, so the
 * result is the one stable order whatever the split. Measured on 2 million draws of one parameter of the
 * {@code diagnose} row, eight LSD passes over the whole array were 43% of the summaries' CPU; scattering out of
 * cache was the cost, and the split removes it.
 */
final class IndexSort {
    private static final int DIGIT_BITS = 8;
    private static final int BUCKETS = 1 << DIGIT_BITS;
    private static final int DIGITS = Long.SIZE / DIGIT_BITS;
    /** Largest range sorted by LSD passes: keys, indices and their buffers (24 bytes a key) within 1.5 MB. */
    private static final int CACHED = 1 << 16;
    /** Largest range sorted by insertion. */
    private static final int INSERTION = 32;

    private IndexSort() {
    }

    static void sort(double[] values, int[] index) {
        int n = values.length;
        long[] keys = new long[n];
        for (int i = 0; i < n; i++) {
            long bits = Double.doubleToRawLongBits(values[i]);
            keys[i] = bits ^ ((bits >> 63) | Long.MIN_VALUE);
        }
        sortRange(keys, index, new long[n], new int[n], 0, n, DIGITS - 1);
        for (int i = 0; i < n; i++) {
            long key = keys[i];
            values[i] = Double.longBitsToDouble(key ^ ((~key >> 63) | Long.MIN_VALUE));
        }
    }

    /**
     * Sorts keys [from, to) with their indices by digits {@code digit} down to 0 (the higher digits are equal
     * within the range); the result ends in {@code keys} and {@code index}, the buffers are scratch.
     */
    private static void sortRange(long[] keys, int[] index, long[] keyBuf, int[] indexBuf, int from, int to,
            int digit) {
        int n = to - from;
        if (n <= INSERTION) {
            insertion(keys, index, from, to);
            return;
        }
        if (n <= CACHED) {
            lsd(keys, index, keyBuf, indexBuf, from, to, digit);
            return;
        }
        int shift = digit * DIGIT_BITS;
        int[] ends = new int[BUCKETS];
        for (int i = from; i < to; i++) {
            ends[(int) (keys[i] >>> shift) & (BUCKETS - 1)]++;
        }
        if (ends[(int) (keys[from] >>> shift) & (BUCKETS - 1)] == n) {
            if (digit > 0) {
                sortRange(keys, index, keyBuf, indexBuf, from, to, digit - 1);
            }
            return;
        }
        scatter(keys, index, keyBuf, indexBuf, from, to, shift, ends);
        System.arraycopy(keyBuf, from, keys, from, n);
        System.arraycopy(indexBuf, from, index, from, n);
        if (digit == 0) {
            return;
        }
        int start = from;
        for (int b = 0; b < BUCKETS; b++) {
            if (ends[b] - start > 1) {
                sortRange(keys, index, keyBuf, indexBuf, start, ends[b], digit - 1);
            }
            start = ends[b];
        }
    }

    /** Stable LSD passes over digits 0..{@code digit} of keys [from, to), skipping digits they all share. */
    private static void lsd(long[] keys, int[] index, long[] keyBuf, int[] indexBuf, int from, int to, int digit) {
        int n = to - from;
        int[][] counts = new int[digit + 1][BUCKETS];
        for (int i = from; i < to; i++) {
            long key = keys[i];
            for (int p = 0; p <= digit; p++) {
                counts[p][(int) (key >>> (p * DIGIT_BITS)) & (BUCKETS - 1)]++;
            }
        }
        long[] k = keys;
        long[] kb = keyBuf;
        int[] ix = index;
        int[] ib = indexBuf;
        for (int p = 0; p <= digit; p++) {
            int[] count = counts[p];
            int shift = p * DIGIT_BITS;
            if (count[(int) (k[from] >>> shift) & (BUCKETS - 1)] == n) {
                continue; // every key has this digit: the pass would not move anything
            }
            scatter(k, ix, kb, ib, from, to, shift, count);
            long[] tk = k;
            k = kb;
            kb = tk;
            int[] ti = ix;
            ix = ib;
            ib = ti;
        }
        if (k != keys) {
            System.arraycopy(k, from, keys, from, n);
            System.arraycopy(ix, from, index, from, n);
        }
    }

    /**
     * Moves keys [from, to) with their indices into the same range of {@code keyTo} and {@code indexTo}, stably
     * ordered by the digit at {@code shift}. {@code counts} holds each digit's count on entry and the end of its run
     * on return.
     */
    private static void scatter(long[] keys, int[] index, long[] keyTo, int[] indexTo, int from, int to, int shift,
            int[] counts) {
        int sum = from;
        for (int b = 0; b < BUCKETS; b++) {
            int c = counts[b];
            counts[b] = sum;
            sum += c;
        }
        for (int i = from; i < to; i++) {
            long key = keys[i];
            int at = counts[(int) (key >>> shift) & (BUCKETS - 1)]++;
            keyTo[at] = key;
            indexTo[at] = index[i];
        }
    }

    /** Stable insertion sort of keys [from, to) by unsigned value, indices along. */
    private static void insertion(long[] keys, int[] index, int from, int to) {
        for (int i = from + 1; i < to; i++) {
            long key = keys[i];
            int id = index[i];
            int j = i - 1;
            while (j >= from && Long.compareUnsigned(keys[j], key) > 0) {
                keys[j + 1] = keys[j];
                index[j + 1] = index[j];
                j--;
            }
            keys[j + 1] = key;
            index[j + 1] = id;
        }
    }
}
