package org.sparkmc.spark.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
}
