package org.sparkmc.core.diagnostics;

/**
 * Sorts an array of values ascending together with a parallel array of indices (bottom-up merge sort with
 * insertion-sorted runs, stable, O(n log n)), so that ranks can be assigned in one pass afterwards. Values must not
 * be NaN.
 */
final class IndexSort {
    private static final int RUN = 32;

    private IndexSort() {
    }

    static void sort(double[] values, int[] index) {
        int n = values.length;
        for (int lo = 0; lo < n; lo += RUN) {
            insertionSort(values, index, lo, Math.min(lo + RUN, n));
        }
        double[] v = values;
        int[] ix = index;
        double[] vBuf = new double[n];
        int[] ixBuf = new int[n];
        for (int width = RUN; width < n; width <<= 1) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                int mid = Math.min(lo + width, n);
                int hi = Math.min(lo + 2 * width, n);
                merge(v, ix, vBuf, ixBuf, lo, mid, hi);
            }
            double[] tv = v;
            v = vBuf;
            vBuf = tv;
            int[] ti = ix;
            ix = ixBuf;
            ixBuf = ti;
        }
        if (v != values) {
            System.arraycopy(v, 0, values, 0, n);
            System.arraycopy(ix, 0, index, 0, n);
        }
    }

    private static void insertionSort(double[] v, int[] ix, int lo, int hi) {
        for (int i = lo + 1; i < hi; i++) {
            double key = v[i];
            int keyIndex = ix[i];
            int j = i - 1;
            while (j >= lo && v[j] > key) {
                v[j + 1] = v[j];
                ix[j + 1] = ix[j];
                j--;
            }
            v[j + 1] = key;
            ix[j + 1] = keyIndex;
        }
    }

    private static void merge(double[] v, int[] ix, double[] outV, int[] outIx, int lo, int mid, int hi) {
        int i = lo;
        int j = mid;
        int k = lo;
        while (i < mid && j < hi) {
            if (v[j] < v[i]) {
                outV[k] = v[j];
                outIx[k++] = ix[j++];
            } else {
                outV[k] = v[i];
                outIx[k++] = ix[i++];
            }
        }
        while (i < mid) {
            outV[k] = v[i];
            outIx[k++] = ix[i++];
        }
        while (j < hi) {
            outV[k] = v[j];
            outIx[k++] = ix[j++];
        }
    }
}
