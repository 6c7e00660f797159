package org.sparkmc.core.lda;

import java.util.Arrays;

/**
 * Sorts a run of ints into decreasing order: the canonical order of a packed topic–word row
 * ({@code count << topicBits | topic}, largest count first), which every exported slice and merged table is put in.
 * Short runs take an insertion sort; longer runs of non-negative values a least-significant-digit radix sort by bytes
 * that skips the bytes no two values differ in. On rows like those of a random start on the NYTimes shape at
 * K = 1,000 (one word slice; dense rows in topic order, hash rows shuffled) it took a quarter to a third of the time
 * of {@link Arrays#sort(int[], int, int)} followed by a reversal, the sort it replaces. The order is total, so every
 * branch gives the same result and the counts stay bit for bit what they were.
 */
final class DescendingSort {
    /** Runs shorter than this take the insertion sort. */
    static final int INSERTION_BELOW = 48;
    private static final int RADIX = 256;

    private DescendingSort() {
    }

    /** Sorts {@code a[from, to)} into decreasing order. */
    static void sort(int[] a, int from, int to) {
        int n = to - from;
        if (n < INSERTION_BELOW) {
            insertion(a, from, to);
            return;
        }
        int or = 0;
        int and = -1;
        for (int i = from; i < to; i++) {
            or |= a[i];
            and &= a[i];
        }
        if (or < 0) { // a negative value: the byte-wise order below would put it first
            Arrays.sort(a, from, to);
            reverse(a, from, to);
            return;
        }
        radix(a, from, n, or ^ and);
    }

    /** LSD radix sort of the non-negative {@code a[from, from + n)} by the bytes set in {@code varying}. */
    private static void radix(int[] a, int from, int n, int varying) {
        int[] src = a;
        int srcFrom = from;
        int[] dst = new int[n];
        int dstFrom = 0;
        int[] next = new int[RADIX];
        for (int shift = 0; shift < Integer.SIZE && varying >>> shift != 0; shift += 8) {
            if ((varying >>> shift & (RADIX - 1)) == 0) {
                continue; // every value has this byte: the pass would not move anything
            }
            // bucket RADIX - 1 - digit, so that larger digits come first
            Arrays.fill(next, 0);
            for (int i = srcFrom; i < srcFrom + n; i++) {
                next[RADIX - 1 - (src[i] >>> shift & (RADIX - 1))]++;
            }
            int at = dstFrom;
            for (int b = 0; b < RADIX; b++) {
                int count = next[b];
                next[b] = at;
                at += count;
            }
            for (int i = srcFrom; i < srcFrom + n; i++) {
                int x = src[i];
                dst[next[RADIX - 1 - (x >>> shift & (RADIX - 1))]++] = x;
            }
            int[] swap = src;
            src = dst;
            dst = swap;
            int swapFrom = srcFrom;
            srcFrom = dstFrom;
            dstFrom = swapFrom;
        }
        if (src != a) {
            System.arraycopy(src, srcFrom, a, from, n);
        }
    }

    private static void insertion(int[] a, int from, int to) {
        for (int i = from + 1; i < to; i++) {
            int x = a[i];
            int j = i - 1;
            while (j >= from && a[j] < x) {
                a[j + 1] = a[j];
                j--;
            }
            a[j + 1] = x;
        }
    }

    private static void reverse(int[] a, int from, int to) {
        for (int i = from, j = to - 1; i < j; i++, j--) {
            int t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }
}
