package org.sparkmc.core.testing;

import java.util.Arrays;
import java.util.function.DoubleUnaryOperator;
import org.apache.commons.statistics.distribution.ChiSquaredDistribution;

/** Goodness-of-fit helpers for the statistical tests. */
public final class ChiSquare {
    private ChiSquare() {
    }

    /**
     * The chi-square test's p-value for draws against a continuous CDF, with {@code bins} bins of equal
     * probability under that CDF.
     */
    public static double pValue(double[] draws, DoubleUnaryOperator cdf, int bins) {
        return pValue(draws, cdf, bins, 1);
    }

    /**
     * As {@link #pValue(double[], DoubleUnaryOperator, int)} for autocorrelated draws (a Markov chain's): the
     * statistic is multiplied by {@code effectiveFraction} (ESS / n, at most 1), as a chain's bin counts vary
     * about n / ESS times as much as independent draws' do.
     */
    public static double pValue(double[] draws, DoubleUnaryOperator cdf, int bins, double effectiveFraction) {
        if (!(effectiveFraction > 0 && effectiveFraction <= 1)) {
            throw new IllegalArgumentException("the effective fraction must be in (0, 1], is " + effectiveFraction);
        }
        long[] counts = new long[bins];
        for (double x : draws) {
            double u = cdf.applyAsDouble(x);
            if (!Double.isFinite(x) || !(u >= 0 && u <= 1)) {
                throw new AssertionError("draw " + x + " has CDF " + u + ": not a finite draw inside the support");
            }
            int b = (int) Math.min(bins - 1, Math.floor(u * bins));
            counts[b]++;
        }
        double[] equal = new double[bins];
        Arrays.fill(equal, 1);
        return survival(bins, effectiveFraction * statistic(counts, equal));
    }

    /** The p-value of counts against equal expected counts. */
    public static double pValue(long[] counts) {
        double[] equal = new double[counts.length];
        Arrays.fill(equal, 1);
        return pValue(counts, equal);
    }

    /** The p-value of counts against expected counts proportional to {@code weights} (all positive). */
    public static double pValue(long[] counts, double[] weights) {
        return survival(counts.length, statistic(counts, weights));
    }

    private static double survival(int bins, double statistic) {
        return ChiSquaredDistribution.of(bins - 1).survivalProbability(statistic);
    }

    private static double statistic(long[] counts, double[] weights) {
        double total = 0;
        long n = 0;
        for (int k = 0; k < counts.length; k++) {
            total += weights[k];
            n += counts[k];
        }
        double stat = 0;
        for (int k = 0; k < counts.length; k++) {
            double e = n * weights[k] / total;
            stat += (counts[k] - e) * (counts[k] - e) / e;
        }
        return stat;
    }

    /**
     * As {@link #pValue(long[], double[])} with the cells expected fewer than 5 times pooled into one, so that the
     * chi-square approximation holds: the cells are pooled in increasing order of weight while one is expected fewer
     * than 5 times or the pool is, so every cell of the statistic (the pool included) is expected 5 times or more.
     */
    public static double pooledPValue(long[] counts, double[] weights) {
        double total = Arrays.stream(weights).sum();
        long n = Arrays.stream(counts).sum();
        Integer[] order = new Integer[counts.length];
        Arrays.setAll(order, k -> k);
        Arrays.sort(order, (a, b) -> Double.compare(weights[a], weights[b]));
        long[] keptCounts = new long[counts.length + 1];
        double[] keptWeights = new double[counts.length + 1];
        int cells = 0;
        long pooledCount = 0;
        double pooledWeight = 0;
        for (int k : order) {
            if (n * weights[k] / total < 5 || (pooledWeight > 0 && n * pooledWeight / total < 5)) {
                pooledCount += counts[k];
                pooledWeight += weights[k];
            } else {
                keptCounts[cells] = counts[k];
                keptWeights[cells++] = weights[k];
            }
        }
        if (pooledWeight > 0) {
            keptCounts[cells] = pooledCount;
            keptWeights[cells++] = pooledWeight;
        }
        if (cells < 2) {
            throw new IllegalArgumentException("fewer than 2 cells once those expected under 5 times are pooled");
        }
        return pValue(Arrays.copyOf(keptCounts, cells), Arrays.copyOf(keptWeights, cells));
    }
}
