package org.sparkmc.core.diagnostics;

import java.util.Arrays;

/**
 * Draws {@code [chain][iteration]} with their pooled values sorted once, so that quantiles, the median, ranks,
 * folded ranks and order statistics all come from one O(S log S) sort. Package-private working object shared by
 * the public diagnostics and the summaries.
 */
final class PooledDraws {

    final double[][] draws;
    final int chains;
    final int iterations;
    final int size;
    /** all draws, ascending (NaN last when present) */
    final double[] sorted;
    /** pooled index {@code chain * iterations + iteration} of each element of {@link #sorted}; null with NaN */
    private final int[] order;
    final boolean anyNaN;
    /** {@link #rankNormalizedSplit()}, once computed */
    private double[][] rankNormalized;

    private PooledDraws(double[][] draws) {
        Draws.validate(draws);
        this.draws = draws;
        this.chains = draws.length;
        this.iterations = draws[0].length;
        this.size = Math.multiplyExact(chains, iterations);
        double[] all = new double[size];
        for (int c = 0; c < chains; c++) {
            System.arraycopy(draws[c], 0, all, c * iterations, iterations);
        }
        boolean nan = false;
        for (double v : all) {
            nan |= Double.isNaN(v);
        }
        this.anyNaN = nan;
        if (nan) {
            Arrays.sort(all);
            this.order = null;
        } else {
            this.order = IndexSort.sort(all);
        }
        this.sorted = all;
    }

    /** Validates and sorts; the caller must not change {@code draws} while this object is in use. */
    static PooledDraws of(double[][] draws) {
        return new PooledDraws(draws);
    }

    /**
     * R's default quantile (type 7) of the pooled draws: with h = 1 + (S−1)p, the linear interpolation
     * {@code (1−f) x_(lo) + f x_(hi)} between the order statistics around h; NaN when any draw is NaN.
     */
    double quantile(double p) {
        Draws.validateProbability(p);
        if (anyNaN) {
            return Double.NaN;
        }
        return quantileOfSorted(sorted, p);
    }

    static double quantileOfSorted(double[] sorted, double p) {
        int n = sorted.length;
        double index = 1.0 + Math.max(n - 1, 0) * p; // 1-based as in R
        double lo = Math.floor(index);
        double hi = Math.ceil(index);
        double q = sorted[(int) lo - 1];
        double upper = sorted[(int) hi - 1];
        if (index > lo && upper != q) {
            double h = index - lo;
            q = (1.0 - h) * q + h * upper;
        }
        return q;
    }

    /** R's median of the pooled draws (mean of the two middle values for an even count); NaN if any is NaN. */
    double median() {
        if (anyNaN) {
            return Double.NaN;
        }
        return medianOfSorted(sorted);
    }

    static double medianOfSorted(double[] sorted) {
        int n = sorted.length;
        int half = (n + 1) / 2;
        if (n % 2 == 1) {
            return sorted[half - 1];
        }
        return (sorted[half - 1] + sorted[half]) / 2.0;
    }

    /**
     * posterior's {@code z_scale(.split_chains(x))}: the split chains with every draw replaced by
     * Φ⁻¹((r − 3/8)/(S − 3/4 + 1)), where r is its rank among the S kept draws (ties get their average rank).
     * Null when any draw is NaN, and when the kept draws all tie (their scores would be constant): there posterior's
     * diagnostics of the scores return NA. So scores returned are finite and not constant.
     */
    double[][] rankNormalizedSplit() {
        if (anyNaN) {
            return null;
        }
        if (rankNormalized != null) {
            return rankNormalized;
        }
        int kept = keptCount();
        if (kept == size) { // nothing dropped: the sorted draws are the values to rank
            rankNormalized = normalScores(sorted, order);
            return rankNormalized;
        }
        double[] values = new double[kept];
        int[] index = new int[kept];
        int k = 0;
        for (int j = 0; j < size; j++) {
            if (!dropped(order[j])) {
                values[k] = sorted[j];
                index[k++] = order[j];
            }
        }
        rankNormalized = normalScores(values, index);
        return rankNormalized;
    }

    /**
     * posterior's {@code z_scale(.split_chains(fold_draws(x)))}: as {@link #rankNormalizedSplit()} for the folded
     * draws |x − median(x)|, the median taken over all draws. Null where posterior returns NA (a NaN draw, or an
     * infinite median, which folds infinite draws to NaN) and where the folded draws all tie.
     */
    double[][] foldedRankNormalizedSplit() {
        double median = median();
        if (!Double.isFinite(median)) {
            return null;
        }
        int kept = keptCount();
        double[] values = new double[kept];
        int[] index = new int[kept];
        int[] k = {0};
        inFoldedOrder(median, j -> {
            if (!dropped(order[j])) {
                values[k[0]] = Math.abs(sorted[j] - median);
                index[k[0]++] = order[j];
            }
            return true;
        });
        return normalScores(values, index);
    }

    /**
     * Visits the positions in {@link #sorted} in ascending order of |x − centre|, merging the two runs that leave
     * {@code centre} (so the folded draws need no sort of their own), until {@code visit} returns false.
     */
    void inFoldedOrder(double centre, java.util.function.IntPredicate visit) {
        int right = countSorted(centre, false);
        int left = right - 1;
        boolean more = true;
        while (more && (left >= 0 || right < size)) {
            if (right >= size || left >= 0 && Math.abs(sorted[left] - centre) <= Math.abs(sorted[right] - centre)) {
                more = visit.test(left--);
            } else {
                more = visit.test(right++);
            }
        }
    }

    /**
     * The number of draws below {@code value}, or at most {@code value} when {@code inclusive}, found by bisection:
     * the first position in {@link #sorted} whose draw is not below it (not at most it, when inclusive).
     */
    private int countSorted(double value, boolean inclusive) {
        int low = 0;
        int high = size;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (sorted[mid] < value || inclusive && sorted[mid] == value) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    /** Number of draws kept by posterior's chain splitting. */
    private int keptCount() {
        return iterations % 2 == 1 && iterations > 1 ? size - chains : size;
    }

    /** Whether splitting drops the draw with this pooled index (the middle draw of an odd-length chain). */
    private boolean dropped(int pooledIndex) {
        return iterations % 2 == 1 && iterations > 1 && pooledIndex % iterations == iterations / 2;
    }

    /**
     * Normal scores in split-chain layout: {@code values} ascending with the pooled index of each; tied values get
     * their average 1-based rank. Null when all the values tie.
     */
    private double[][] normalScores(double[] values, int[] index) {
        int total = values.length;
        if (values[0] == values[total - 1]) {
            return null;
        }
        double[] untied = NormalScores.of(total);
        int half = Draws.splitLength(iterations);
        int splitChains = Draws.splitCount(chains, iterations);
        double[] scores = new double[size]; // by pooled index; a dropped middle draw's slot stays unused
        int start = 0;
        while (start < total) {
            int end = start + 1;
            while (end < total && values[end] == values[start]) {
                end++;
            }
            double rank = (start + 1 + end) / 2.0; // average of ranks start+1 … end
            double z = end == start + 1 ? untied[start] : NormalScores.score(rank, total);
            for (int k = start; k < end; k++) {
                scores[index[k]] = z;
            }
            start = end;
        }
        double[][] out = new double[splitChains][half];
        for (int c = 0; c < chains; c++) {
            System.arraycopy(scores, c * iterations, out[c], 0, half);
            if (splitChains > chains) {
                System.arraycopy(scores, c * iterations + iterations - half, out[chains + c], 0, half);
            }
        }
        return out;
    }

    /**
     * Whether every draw the split chains keep lies on one side of {@code threshold}, so that their indicator
     * {@code x <= threshold} is constant: counted from the sorted draws, less the middle draws an odd chain length
     * drops. The draws must hold no NaN.
     */
    boolean splitAllOnOneSide(double threshold) {
        int below = countSorted(threshold, true);
        if (keptCount() < size) {
            for (double[] chain : draws) {
                if (chain[iterations / 2] <= threshold) {
                    below--;
                }
            }
        }
        return below == 0 || below == keptCount();
    }

    /** {@link Draws#shouldReturnNaN} of the draws, read from the sorted values' ends (NaN sorts last). */
    boolean shouldReturnNaN() {
        double min = sorted[0];
        double max = sorted[size - 1];
        return !Double.isFinite(min) || !Double.isFinite(max) || Math.abs(max - min) < Draws.CONSTANT_TOLERANCE;
    }

    /**
     * The k-th smallest pooled draw, 1-based as in R ({@code sort(x)[k]}).
     */
    double orderStatistic(int k) {
        return sorted[k - 1];
    }
}
