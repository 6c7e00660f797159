package org.sparkmc.spark.report;

import java.io.Serializable;
import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * What a report draws for one parameter, computed where its draws are (an executor) so only this reaches the
 * driver: trace lines (first {@value #MAX_CHAINS} chains, thinned to at most {@value #TRACE_POINTS} points), rank
 * histograms per chain ({@value #RANK_BINS} bins: uniform when the chains agree) and a kernel density per chain on
 * a common grid.
 *
 * <p>Its memory is bounded whatever the number of draws: each plotted chain is thinned to at most
 * {@value #DENSITY_POINTS} evenly spaced draws for its density and ranks, and the ranks are taken among at most
 * {@value #RANK_POOL} draws spaced evenly over all chains, never a copy of every draw. Values that are not finite
 * are left out of the ranks, densities and grid.
 */
public final class ParameterPlots implements Serializable {
    private static final long serialVersionUID = 1L;
    public static final int MAX_CHAINS = 8;
    public static final int TRACE_POINTS = 400;
    public static final int RANK_BINS = 20;
    public static final int GRID = 120;
    /** At most this many draws per plotted chain for its density and rank histogram. */
    public static final int DENSITY_POINTS = 2000;
    /** At most this many draws, spaced evenly over all chains, against which ranks are taken. */
    public static final int RANK_POOL = 20_000;

    private final int thin;
    private final double[][] traces;
    private final int[][] rankCounts;
    private final double[] grid;
    private final double[][] densities;

    private ParameterPlots(int thin, double[][] traces, int[][] rankCounts, double[] grid, double[][] densities) {
        this.thin = thin;
        this.traces = traces;
        this.rankCounts = rankCounts;
        this.grid = grid;
        this.densities = densities;
    }

    /** Plot data of draws [chain][iteration]. */
    public static ParameterPlots of(double[][] draws) {
        int chains = Math.min(draws.length, MAX_CHAINS);
        int n = draws[0].length;
        int thin = stride(n, TRACE_POINTS);
        double[][] traces = new double[chains][];
        double[][] thinned = new double[chains][];
        for (int c = 0; c < chains; c++) {
            traces[c] = new double[(n + thin - 1) / thin];
            for (int i = 0, j = 0; i < n; i += thin, j++) {
                traces[c][j] = draws[c][i];
            }
            thinned[c] = finiteThinned(draws[c], DENSITY_POINTS);
        }
        double[] grid = grid(draws);
        return new ParameterPlots(thin, traces, rankCounts(thinned, pool(draws)), grid, densities(thinned, grid));
    }

    /** The step that keeps at most {@code max} of n evenly spaced items. */
    static int stride(int n, int max) {
        return Math.max(1, (n + max - 1) / max);
    }

    /** The finite values among at most {@code max} evenly spaced draws of a chain. */
    static double[] finiteThinned(double[] chain, int max) {
        int step = stride(chain.length, max);
        return IntStream.iterate(0, i -> i < chain.length, i -> i + step).mapToDouble(i -> chain[i])
                .filter(Double::isFinite).toArray();
    }

    /** The finite values among at most {@value #RANK_POOL} draws spaced evenly over every chain, sorted. */
    static double[] pool(double[][] draws) {
        long n = draws[0].length;
        long total = draws.length * n;
        int size = (int) Math.min(total, RANK_POOL);
        double[] pooled = IntStream.range(0, size).mapToLong(j -> j * total / size)
                .mapToDouble(t -> draws[(int) (t / n)][(int) (t % n)]).filter(Double::isFinite).toArray();
        Arrays.sort(pooled);
        return pooled;
    }

    private static int[][] rankCounts(double[][] thinned, double[] pooled) {
        int[][] counts = new int[thinned.length][RANK_BINS];
        if (pooled.length == 0) {
            return counts;
        }
        for (int c = 0; c < thinned.length; c++) {
            for (double x : thinned[c]) {
                // average rank of x among the pooled draws (ties share their mean rank), scaled to [0, 1]
                double rank = (lowerBound(pooled, x) + upperBound(pooled, x)) / 2.0;
                int bin = (int) Math.min(RANK_BINS - 1, Math.floor(rank / pooled.length * RANK_BINS));
                counts[c][bin]++;
            }
        }
        return counts;
    }

    /**
     * Kernel densities of several samples on one grid spanning them all (each thinned to at most
     * {@value #DENSITY_POINTS} draws): row k of the result is sample k's density, the last row the grid.
     */
    public static double[][] densitiesOnCommonGrid(double[][] samples) {
        double[] grid = grid(samples);
        double[][] thinned = new double[samples.length][];
        for (int k = 0; k < samples.length; k++) {
            thinned[k] = finiteThinned(samples[k], DENSITY_POINTS);
        }
        double[][] dens = densities(thinned, grid);
        double[][] out = java.util.Arrays.copyOf(dens, dens.length + 1);
        out[dens.length] = grid;
        return out;
    }

    private static double[] grid(double[][] draws) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (double[] chain : draws) {
            for (double x : chain) {
                if (Double.isFinite(x)) {
                    min = Math.min(min, x);
                    max = Math.max(max, x);
                }
            }
        }
        if (!Double.isFinite(min)) {
            min = 0;
        }
        if (!(max > min)) { // a constant: a unit to its right, or 1% toward 0 where its rounding loses a unit
            if (min + 1 > min) {
                max = min + 1;
            } else if (min > 0) {
                min *= 0.99;
            } else {
                max = min * 0.99;
            }
        }
        boolean overflows = !Double.isFinite((max - min) * (GRID - 1)); // draws near ±1e308
        double[] grid = new double[GRID];
        for (int i = 0; i < GRID; i++) {
            double t = (double) i / (GRID - 1);
            grid[i] = overflows ? min * (1 - t) + max * t : min + (max - min) * i / (GRID - 1);
        }
        return grid;
    }

    /**
     * Gaussian kernel densities with Silverman's bandwidth, one per chain's thinned draws. They are computed on the
     * draws times a power of two that brings the largest magnitude near 1, which changes no bit of the result but
     * keeps sums and squares of draws near ±1e308 finite; a density too large for a double (draws spread over less
     * than about 1e-308) is +∞, and the chart leaves it out.
     */
    private static double[][] densities(double[][] thinned, double[] grid) {
        double largest = Math.max(Math.abs(grid[0]), Math.abs(grid[GRID - 1]));
        double scale = Math.scalb(1.0, -Math.getExponent(largest));
        double[] scaledGrid = Arrays.stream(grid).map(g -> g * scale).toArray();
        double[][] dens = new double[thinned.length][GRID];
        for (int c = 0; c < thinned.length; c++) {
            double[] x = Arrays.stream(thinned[c]).map(v -> v * scale).toArray();
            int m = x.length;
            if (m == 0) {
                continue;
            }
            double mean = Arrays.stream(x).sum() / m;
            double sq = Arrays.stream(x).map(v -> (v - mean) * (v - mean)).sum();
            double sd = Math.sqrt(sq / m);
            double h = 1.06 * (sd > 0 ? sd : (scaledGrid[GRID - 1] - scaledGrid[0]) / 10) * Math.pow(m, -0.2);
            for (int g = 0; g < GRID; g++) {
                double sum = 0;
                for (double v : x) {
                    double z = (scaledGrid[g] - v) / h;
                    sum += Math.exp(-0.5 * z * z);
                }
                dens[c][g] = sum / (m * h * Math.sqrt(2 * Math.PI)) * scale;
            }
        }
        return dens;
    }

    private static int lowerBound(double[] sorted, double x) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] < x) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private static int upperBound(double[] sorted, double x) {
        int lo = 0;
        int hi = sorted.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted[mid] <= x) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    public int thin() {
        return thin;
    }

    public double[][] traces() {
        return traces;
    }

    public int[][] rankCounts() {
        return rankCounts;
    }

    public double[] grid() {
        return grid;
    }

    public double[][] densities() {
        return densities;
    }
}
