package org.sparkmc.core.diagnostics;

import java.util.Arrays;
import org.apache.commons.statistics.distribution.NormalDistribution;

/**
 * Draws {@code [chain][iteration]} with their pooled values sorted once, so that quantiles, the median, ranks,
 * folded ranks and order statistics all come from one O(S log S) sort. Package-private working object shared by
 * the public diagnostics and the summaries.
 */
final class PooledDraws {
    private static final NormalDistribution STANDARD_NORMAL = NormalDistribution.of(0.0, 1.0);
    /** Blom's fractional offset used by posterior's rank normalisation. */
    private static final double RANK_OFFSET = 3.0 / 8.0;

    final double[][] draws;
    final int chains;
    final int iterations;
    final int size;
    /** all draws, ascending (NaN last when present) */
    final double[] sorted;
    final boolean anyNaN;

    private PooledDraws(double[][] draws) {
        Draws.validate(draws);
        this.draws = draws;
        this.chains = draws.length;
        this.iterations = draws[0].length;
        this.size = chains * iterations;
        double[] all = new double[size];
        for (int c = 0; c < chains; c++) {
            System.arraycopy(draws[c], 0, all, c * iterations, iterations);
        }
        Arrays.sort(all);
        this.sorted = all;
        this.anyNaN = Double.isNaN(all[size - 1]);
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

    /** The pooled draws kept by posterior's chain splitting (for odd lengths each chain's middle draw is dropped), sorted. */
    private double[] sortedKept() {
        if (iterations % 2 == 0 || iterations == 1) {
            return sorted;
        }
        int middle = iterations / 2;
        double[] dropped = new double[chains];
        for (int c = 0; c < chains; c++) {
            dropped[c] = draws[c][middle];
        }
        Arrays.sort(dropped);
        double[] kept = new double[size - chains];
        int j = 0;
        int k = 0;
        for (double v : sorted) {
            // both arrays are sorted, so each dropped value is met in order; Double.compare keeps -0.0/0.0 apart
            if (j < chains && Double.compare(v, dropped[j]) == 0) {
                j++;
            } else {
                kept[k++] = v;
            }
        }
        return kept;
    }

    /**
     * posterior's {@code z_scale(.split_chains(x))}: the split chains with every draw replaced by
     * Φ⁻¹((r − 3/8)/(S − 3/4 + 1)), where r is its rank among the S kept draws (ties get their average rank).
     * Null when any draw is NaN (posterior returns NA).
     */
    double[][] rankNormalizedSplit() {
        if (anyNaN) {
            return null;
        }
        double[] kept = sortedKept();
        return normalizeRanks(Draws.split(draws), kept, v -> v);
    }

    /**
     * posterior's {@code z_scale(.split_chains(fold_draws(x)))}: as {@link #rankNormalizedSplit()} for the folded
     * draws |x − median(x)|, the median taken over all draws. Null where posterior returns NA (a NaN draw, or an
     * infinite median, which folds infinite draws to NaN).
     */
    double[][] foldedRankNormalizedSplit() {
        double median = median();
        if (!Double.isFinite(median)) {
            return null;
        }
        double[] kept = sortedKept();
        // the folded values of a sorted array are sorted after merging the two runs that leave the median
        int n = kept.length;
        double[] folded = new double[n];
        int right = 0;
        while (right < n && kept[right] < median) {
            right++;
        }
        int left = right - 1;
        for (int k = 0; k < n; k++) {
            double fl = left >= 0 ? Math.abs(kept[left] - median) : Double.NaN;
            double fr = right < n ? Math.abs(kept[right] - median) : Double.NaN;
            if (right >= n || (left >= 0 && fl <= fr)) {
                folded[k] = fl;
                left--;
            } else {
                folded[k] = fr;
                right++;
            }
        }
        return normalizeRanks(Draws.split(draws), folded, v -> Math.abs(v - median));
    }

    /**
     * Replaces each split draw by its normal score: {@code transform} maps a draw to the value that is ranked,
     * {@code sortedValues} holds all those values ascending.
     */
    private static double[][] normalizeRanks(double[][] split, double[] sortedValues,
            java.util.function.DoubleUnaryOperator transform) {
        int total = sortedValues.length;
        double denominator = total - 2 * RANK_OFFSET + 1;
        double[][] out = new double[split.length][];
        for (int c = 0; c < split.length; c++) {
            double[] chain = split[c];
            double[] z = new double[chain.length];
            for (int i = 0; i < chain.length; i++) {
                double v = transform.applyAsDouble(chain[i]);
                int lo = lowerBound(sortedValues, v);
                int hi = upperBound(sortedValues, v);
                double rank = (lo + 1 + hi) / 2.0; // average of 1-based ranks lo+1 … hi
                z[i] = STANDARD_NORMAL.inverseCumulativeProbability((rank - RANK_OFFSET) / denominator);
            }
            out[c] = z;
        }
        return out;
    }

    /** First index whose value is not below v (primitive comparison: -0.0 equals 0.0, as R's rank). */
    private static int lowerBound(double[] a, double v) {
        int lo = 0;
        int hi = a.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] < v) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** First index whose value is above v. */
    private static int upperBound(double[] a, double v) {
        int lo = 0;
        int hi = a.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (a[mid] <= v) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** The split chains of the indicator {@code x <= threshold} (1 or 0). */
    double[][] indicatorSplit(double threshold) {
        return Draws.split(Draws.map(draws, v -> v <= threshold ? 1.0 : 0.0));
    }

    /**
     * The k-th smallest pooled draw, 1-based as in R ({@code sort(x)[k]}).
     */
    double orderStatistic(int k) {
        return sorted[k - 1];
    }
}
