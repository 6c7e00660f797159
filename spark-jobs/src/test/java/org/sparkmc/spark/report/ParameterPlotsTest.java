package org.sparkmc.spark.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

/** The report's plot data: bounded whatever the number of draws, and robust to draws that are not finite. */
class ParameterPlotsTest {
    /**
     * Huge chains reached the report whole (a pooled copy for the ranks, every draw for the densities: out of
     * memory after 197 s, exit 52). The plotting input is now at most a fixed number of points per chain.
     */
    @Test
    void plottingInputIsBoundedWhateverTheDraws() {
        double[] huge = new double[5_000_001];
        Arrays.setAll(huge, i -> Math.sin(i));
        double[] thinned = ParameterPlots.finiteThinned(huge, ParameterPlots.DENSITY_POINTS);
        assertTrue(thinned.length <= ParameterPlots.DENSITY_POINTS, "thinned to " + thinned.length);
        assertEquals(huge[0], thinned[0]);
        double[][] chains = new double[4][];
        Arrays.fill(chains, huge);
        assertEquals(ParameterPlots.RANK_POOL, ParameterPlots.pool(chains).length);
        ParameterPlots plots = ParameterPlots.of(chains);
        for (int c = 0; c < chains.length; c++) {
            assertTrue(plots.traces()[c].length <= ParameterPlots.TRACE_POINTS);
            assertEquals(thinned.length, Arrays.stream(plots.rankCounts()[c]).sum(), "ranked draws of chain " + c);
        }
    }

    /** Chains from one distribution give flat rank histograms (each bin within 5 sd of its expected count). */
    @Test
    void agreeingChainsGiveFlatRanks() {
        UniformRandomProvider rng = RandomSource.XO_SHI_RO_256_PP.create(7L);
        double[][] draws = new double[4][100_000];
        for (double[] chain : draws) {
            Arrays.setAll(chain, i -> rng.nextDouble());
        }
        ParameterPlots plots = ParameterPlots.of(draws);
        double expected = (double) ParameterPlots.DENSITY_POINTS / ParameterPlots.RANK_BINS;
        for (int[] counts : plots.rankCounts()) {
            for (int n : counts) {
                assertEquals(expected, n, 5 * Math.sqrt(expected), Arrays.toString(counts));
            }
        }
    }

    /** A NaN draw failed in the rank plot with ArrayIndexOutOfBoundsException; non-finite values are left out. */
    @Test
    void nonFiniteDrawsAreLeftOut() {
        double[][] draws = {{0.1, Double.NaN, 0.3, Double.POSITIVE_INFINITY}, {0.2, 0.4, Double.NEGATIVE_INFINITY, 0.5}};
        ParameterPlots plots = ParameterPlots.of(draws);
        assertEquals(2, Arrays.stream(plots.rankCounts()[0]).sum());
        assertEquals(3, Arrays.stream(plots.rankCounts()[1]).sum());
        assertEquals(0.1, plots.grid()[0], 1e-15);
        assertEquals(0.5, plots.grid()[ParameterPlots.GRID - 1], 1e-15);
        assertTrue(Arrays.stream(plots.densities()[0]).allMatch(Double::isFinite));
    }

    /**
     * Draws near ±Double.MAX_VALUE overflowed the density grid and the kernel's mean and sd (NaN densities); a
     * constant there had a grid of one point. Their plots are now finite, and so is the density chart drawn from them.
     */
    @Test
    void drawsAtTheEndsOfTheDoublesGiveFinitePlots() {
        double max = Double.MAX_VALUE;
        double[][][] cases = {
            {{max, -max, max, -max}, {-max, max, -max, max}},
            {{1.69e308, 1.7e308, 1.75e308, 1.79e308}, {1.71e308, 1.72e308, 1.78e308, 1.7e308}},
            {{1.79e308, 1.79e308, 1.79e308}, {1.79e308, 1.79e308, 1.79e308}},
            {{-1.79e308, -1.79e308}, {-1.79e308, -1.79e308}},
            {{Double.MIN_VALUE, Double.MIN_VALUE}, {Double.MIN_VALUE, Double.MIN_VALUE}}};
        for (double[][] draws : cases) {
            ParameterPlots plots = ParameterPlots.of(draws);
            String what = Arrays.deepToString(draws);
            double[] grid = plots.grid();
            assertTrue(Arrays.stream(grid).allMatch(Double::isFinite) && grid[grid.length - 1] > grid[0], what);
            Chart chart = new Chart("density per chain", 300, 200).yFromZero();
            for (double[] density : plots.densities()) {
                assertTrue(Arrays.stream(density).allMatch(d -> Double.isFinite(d) && d >= 0), what);
                assertTrue(Arrays.stream(density).anyMatch(d -> d > 0), what);
                chart.line(grid, density, "#000", null);
            }
            String svg = chart.svg();
            assertFalse(svg.contains("NaN") || svg.contains("Infinity"), what);
        }
    }

    /** The power-of-two rescaling leaves ordinary densities bit for bit as the kernel sum gives them directly. */
    @Test
    void densitiesAreTheKernelSumBitForBit() {
        UniformRandomProvider rng = RandomSource.XO_SHI_RO_256_PP.create(11L);
        double[][] draws = new double[2][500];
        for (double[] chain : draws) {
            Arrays.setAll(chain, i -> 3 + 1e3 * rng.nextDouble());
        }
        ParameterPlots plots = ParameterPlots.of(draws);
        double[] grid = plots.grid();
        for (int c = 0; c < draws.length; c++) {
            double[] x = ParameterPlots.finiteThinned(draws[c], ParameterPlots.DENSITY_POINTS);
            int m = x.length;
            double mean = Arrays.stream(x).sum() / m;
            double sd = Math.sqrt(Arrays.stream(x).map(v -> (v - mean) * (v - mean)).sum() / m);
            double h = 1.06 * sd * Math.pow(m, -0.2);
            for (int g = 0; g < grid.length; g++) {
                double sum = 0;
                for (double v : x) {
                    double z = (grid[g] - v) / h;
                    sum += Math.exp(-0.5 * z * z);
                }
                assertEquals(sum / (m * h * Math.sqrt(2 * Math.PI)), plots.densities()[c][g], 0.0, "chain " + c);
            }
        }
    }
}
