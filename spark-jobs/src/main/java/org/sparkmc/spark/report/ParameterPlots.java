package org.sparkmc.spark.report;

import java.io.Serializable;
import java.util.Arrays;

/**
 * What a report draws for one parameter, computed where its draws are (an executor) so only this reaches the
 * driver: trace lines (first {@value #MAX_CHAINS} chains, thinned to at most {@value #TRACE_POINTS} points), rank
 * histograms per chain (ranks over all chains pooled, {@value #RANK_BINS} bins: uniform when the chains agree) and a
 * kernel density per chain on a common grid.
 */
public final class ParameterPlots implements Serializable {
    private static final long serialVersionUID = 1L;
    public static final int MAX_CHAINS = 8;
    public static final int TRACE_POINTS = 400;
    public static final int RANK_BINS = 20;
    public static final int GRID = 120;

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
        int thin = Math.max(1, (n + TRACE_POINTS - 1) / TRACE_POINTS);
        double[][] traces = new double[chains][];
        for (int c = 0; c < chains; c++) {
            traces[c] = new double[(n + thin - 1) / thin];
            for (int i = 0, j = 0; i < n; i += thin, j++) {
                traces[c][j] = draws[c][i];
            }
        }
        return new ParameterPlots(thin, traces, rankCounts(draws, chains), grid(draws), null).withDensities(draws,
                chains);
    }

    private static int[][] rankCounts(double[][] draws, int chains) {
        int n = draws[0].length;
        double[] pooled = new double[draws.length * n];
        for (int c = 0; c < draws.length; c++) {
            System.arraycopy(draws[c], 0, pooled, c * n, n);
        }
        Arrays.sort(pooled);
        int[][] counts = new int[chains][RANK_BINS];
        for (int c = 0; c < chains; c++) {
            for (double x : draws[c]) {
                // average rank of x among the pooled draws (ties share their mean rank), scaled to [0, 1)
                int lo = lowerBound(pooled, x);
                int hi = upperBound(pooled, x);
                double rank = (lo + hi - 1) / 2.0;
                int bin = (int) Math.min(RANK_BINS - 1, Math.floor(rank / pooled.length * RANK_BINS));
                counts[c][bin]++;
            }
        }
        return counts;
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
        if (!(max > min)) {
            max = min + 1;
        }
        double[] grid = new double[GRID];
        for (int i = 0; i < GRID; i++) {
            grid[i] = min + (max - min) * i / (GRID - 1);
        }
        return grid;
    }

    /** Gaussian kernel densities with Silverman's bandwidth, from at most 2,000 evenly spaced draws per chain. */
    private ParameterPlots withDensities(double[][] draws, int chains) {
        double[][] dens = new double[chains][GRID];
        for (int c = 0; c < chains; c++) {
            double[] x = draws[c];
            int step = Math.max(1, x.length / 2000);
            int m = (x.length + step - 1) / step;
            double mean = 0;
            double sq = 0;
            for (int i = 0; i < x.length; i += step) {
                mean += x[i];
                sq += x[i] * x[i];
            }
            mean /= m;
            double sd = Math.sqrt(Math.max(sq / m - mean * mean, 0));
            double h = 1.06 * (sd > 0 ? sd : (grid[GRID - 1] - grid[0]) / 10) * Math.pow(m, -0.2);
            for (int g = 0; g < GRID; g++) {
                double sum = 0;
                for (int i = 0; i < x.length; i += step) {
                    double z = (grid[g] - x[i]) / h;
                    sum += Math.exp(-0.5 * z * z);
                }
                dens[c][g] = sum / (m * h * Math.sqrt(2 * Math.PI));
            }
        }
        return new ParameterPlots(thin, traces, rankCounts, grid, dens);
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
