package org.sparkmc.core.diagnostics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The counted autocovariances of a quantile's indicator equal the summed ones of {@link Draws#indicatorSplit} at
 * every lag, and the quantile ESS from them equals the ESS of the summed indicator. Tolerances: the sums' rounding,
 * 1e-12 of the lag-0 value for an autocovariance and 1e-9 relative for an ESS; the ESS could differ more only if a
 * pair sum of Geyer's sequence fell within rounding of zero, which these fixed-seed inputs do not.
 */
class IndicatorAutocovarianceTest {
    private static final int[][] SHAPES = {{1, 2}, {1, 7}, {2, 6}, {3, 7}, {4, 63}, {4, 64}, {4, 65}, {5, 129},
        {8, 256}, {16, 1001}, {3, 2000}};
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
                    LaggedAutocovariance direct = new LaggedAutocovariance(summed, Integer.MAX_VALUE);
                    String where = shape[0] + " × " + shape[1] + ", φ " + phi + ", p " + p;
                    for (int c = 0; c < summed.length; c++) {
                        assertEquals(direct.mean(c), counted.mean(c), 1e-15, where + ", chain " + c);
                    }
                    double scale = Math.max(Math.abs(direct.at(0)), 1e-300);
                    for (int lag = 0; lag < summed[0].length; lag++) {
                        assertEquals(direct.at(lag), counted.at(lag), 1e-12 * scale, where + ", lag " + lag);
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
        assertEquals(true, compared > 100, compared + " finite ESS compared");
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
