package org.sparkmc.core.diagnostics;

/**
 * {@link ChainAutocovariance} of the split chains of a quantile's indicator {@code x <= q} (posterior's
 * {@code ess_quantile}), counted rather than summed: each split chain is kept as bits, and with x̄ = S/N for S ones
 * in N draws, Σ_{i<N−t} (x_i − x̄)(x_{i+t} − x̄) = C_t − x̄ (A_t + B_t) + x̄² (N − t), where C_t counts the pairs
 * (i, i+t) of ones, A_t the ones before position N − t and B_t the ones from position t on. A lag then costs a
 * popcount over N/64 words a chain instead of N multiply-adds, and needs no FFT however slowly the chains mix.
 * The counts are exact, so the values agree with the summed ones up to the sums' rounding. The chains are laid out
 * as {@link Draws#indicatorSplit}: first halves of chains 0 … M−1, then their second halves (an odd length drops its
 * middle draw); a chain of one draw is not split.
 */
final class IndicatorAutocovariance implements ChainAutocovariance {
    private final long[][] bits;
    private final int[] ones;
    private final int n;

    IndicatorAutocovariance(double[][] draws, double threshold) {
        int m = draws.length;
        int iterations = draws[0].length;
        n = Draws.splitLength(iterations);
        bits = new long[Draws.splitCount(m, iterations)][(n + 63) >>> 6];
        ones = new int[bits.length];
        for (int c = 0; c < m; c++) {
            fill(c, draws[c], 0, threshold);
            if (iterations > 1) {
                fill(m + c, draws[c], iterations - n, threshold);
            }
        }
    }

    /** Sets bit i of the chain for each draw {@code from + i} at most the threshold, a word at a time, no branch. */
    private void fill(int chain, double[] draws, int from, double threshold) {
        long[] words = bits[chain];
        int count = 0;
        for (int w = 0; w < words.length; w++) {
            long word = 0L;
            int start = w << 6;
            int end = Math.min(start + 64, n);
            for (int i = start; i < end; i++) {
                word |= (draws[from + i] <= threshold ? 1L : 0L) << (i - start);
            }
            words[w] = word;
            count += Long.bitCount(word);
        }
        ones[chain] = count;
    }

    /** Number of split chains. */
    int chains() {
        return bits.length;
    }

    /** Draws per split chain. */
    int length() {
        return n;
    }

    @Override
    public double mean(int c) {
        return (double) ones[c] / n;
    }

    @Override
    public double at(int lag) {
        double sum = 0.0;
        for (int c = 0; c < bits.length; c++) {
            long[] x = bits[c];
            double mean = mean(c);
            long pairs = pairs(x, lag);
            long early = onesBefore(x, n - lag);
            long late = ones[c] - onesBefore(x, lag);
            sum += pairs - mean * (early + late) + mean * mean * (n - lag);
        }
        return sum / ((double) n * bits.length);
    }

    /** C_t: positions i with bits i and i + lag both set. */
    private static long pairs(long[] x, int lag) {
        int wordShift = lag >>> 6;
        int bitShift = lag & 63;
        long count = 0;
        for (int i = 0; i + wordShift < x.length; i++) {
            long shifted = x[i + wordShift] >>> bitShift;
            if (bitShift != 0 && i + wordShift + 1 < x.length) {
                shifted |= x[i + wordShift + 1] << (64 - bitShift);
            }
            count += Long.bitCount(x[i] & shifted);
        }
        return count;
    }

    /** Ones at positions below {@code end}. */
    private static long onesBefore(long[] x, int end) {
        long count = 0;
        int full = end >>> 6;
        for (int i = 0; i < full; i++) {
            count += Long.bitCount(x[i]);
        }
        if ((end & 63) != 0) {
            count += Long.bitCount(x[full] & ((1L << end) - 1));
        }
        return count;
    }
}
