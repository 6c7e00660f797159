package org.sparkmc.core.diagnostics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The counted autocovariances of a quantile's indicator equal the ones summed over {@link Draws#indicatorSplit} at
 * every lag, and the quantile ESS from them equals the ESS of the summed indicator. Tolerances, for rounding only:
 * 1e-15 absolute for a chain's mean (a fraction S/N against a two-pass mean), 1e-12 of the lag-0 value for an
 * autocovariance and 1e-9 relative for an ESS; the ESS could differ more only if a pair sum of Geyer's sequence fell
 * within rounding of zero, which these fixed-seed inputs do not. The shapes give split chains of 1 (one draw, not
 * split), 3, 31, 32, 63, 64, 65, 128, 500 and 1,000 draws, so the lags cross word boundaries every way.
 */
class IndicatorAutocovarianceTest {
    private static final int[][] SHAPES = {{1, 1}, {3, 1}, {1, 2}, {1, 7}, {2, 6}, {3, 7}, {4, 63}, {4, 64},
        {4, 126}, {4, 128}, {4, 131}, {5, 129}, {8, 256}, {16, 1001}, {3, 2000}};
    private static final double[] PROBABILITIES = {0.05, 0.3, 0.5, 0.95};

    @Test
    void countedLagsEqualTheSummedOnesAtEveryLag() {
        SplittableRandom random = new SplittableRandom(5);
        for (int[] shape : SHAPES) {
            for (double phi : new double[] {0.0, 0.6, 0.97}) {
                double[][] draws = ar1(random, shape[0], shape[1], phi);
                for (double p : PROBABILITIES) {
                    double q = PooledDraws.quantileOfSorted(PooledDraws.of(draws).sorted, p);
                    double[][] summed = Draws.indicatorSplit(draws, q);
                    IndicatorAutocovariance counted = new IndicatorAutocovariance(draws, q);
                    assertEquals(summed.length, counted.chains());
                    assertEquals(summed[0].length, counted.length());
                    String where = shape[0] + " × " + shape[1] + ", φ " + phi + ", p " + p;
                    for (int c = 0; c < summed.length; c++) {
                        assertEquals(Draws.mean(summed[c]), counted.mean(c), 1e-15, where + ", chain " + c);
                    }
                    double scale = Math.max(Math.abs(summedAt(summed, 0)), 1e-300);
                    for (int lag = 0; lag < summed[0].length; lag++) {
                        assertEquals(summedAt(summed, lag), counted.at(lag), 1e-12 * scale, where + ", lag " + lag);
                    }
                }
            }
        }
    }

    @Test
    void quantileEssEqualsTheEssOfTheSummedIndicator() {
        SplittableRandom random = new SplittableRandom(11);
        int compared = 0;
        for (int[] shape : SHAPES) {
            for (double phi : new double[] {0.0, 0.3, 0.8, 0.99}) {
                double[][] draws = ar1(random, shape[0], shape[1], phi);
                for (double p : PROBABILITIES) {
                    double q = PooledDraws.quantileOfSorted(PooledDraws.of(draws).sorted, p);
                    double[][] summed = Draws.indicatorSplit(draws, q);
                    if (Draws.shouldReturnNaN(summed)) {
                        continue;
                    }
                    double expected = GeyerEss.essOfChecked(summed);
                    double actual = GeyerEss.essOfIndicator(draws, q);
                    String where = shape[0] + " × " + shape[1] + ", φ " + phi + ", p " + p;
                    if (Double.isNaN(expected)) {
                        assertEquals(expected, actual, where);
                    } else {
                        assertEquals(expected, actual, 1e-9 * expected, where);
                        compared++;
                    }
                }
            }
        }
        assertTrue(compared > 100, compared + " finite ESS compared");
    }

    /** The definition, summed plainly: the mean over chains of (1/N) Σ_{i<N−t} (x_i − x̄)(x_{i+t} − x̄). */
    private static double summedAt(double[][] chains, int lag) {
        int n = chains[0].length;
        double sum = 0.0;
        for (double[] x : chains) {
            double mean = Draws.mean(x);
            for (int i = 0; i + lag < n; i++) {
                sum += (x[i] - mean) * (x[i + lag] - mean);
            }
        }
        return sum / ((double) n * chains.length);
    }

    private static double[][] ar1(SplittableRandom random, int chains, int n, double phi) {
        double[][] x = new double[chains][n];
        for (double[] chain : x) {
            double v = random.nextGaussian();
            for (int i = 0; i < n; i++) {
                v = phi * v + Math.sqrt(1 - phi * phi) * random.nextGaussian();
                chain[i] = v;
            }
        }
        return x;
    }
}
