package org.sparkmc.core.diagnostics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The lag-by-lag autocovariances equal the FFT's at every lag, whether summed directly, taken from the FFT, or
 * switched from one to the other part-way (tolerance: rounding, 1e-12 of the lag-0 value).
 */
class LaggedAutocovarianceTest {
    @Test
    void directSumsAndTheFftAgreeAtEveryLag() {
        SplittableRandom random = new SplittableRandom(3);
        for (int[] shape : new int[][] {{1, 1}, {1, 2}, {1, 3}, {2, 5}, {3, 7}, {4, 64}, {5, 101}, {16, 1000}}) {
            double[][] chains = new double[shape[0]][shape[1]];
            for (double[] chain : chains) {
                double v = 0.0;
                for (int i = 0; i < chain.length; i++) {
                    v = 0.9 * v + random.nextGaussian() + 3.0;
                    chain[i] = v;
                }
            }
            double[] fft = Autocovariance.meanOverChains(chains);
            for (int limit : new int[] {0, 1, 5, shape[1] / 2, Integer.MAX_VALUE}) {
                LaggedAutocovariance lagged = new LaggedAutocovariance(chains, limit);
                for (int lag = 0; lag < shape[1]; lag++) {
                    assertEquals(fft[lag], lagged.at(lag), 1e-12 * Math.max(fft[0], 1e-300),
                            "chains " + shape[0] + " × " + shape[1] + ", direct below " + limit + ", lag " + lag);
                }
            }
            assertEquals(fft[0], new LaggedAutocovariance(chains).at(0), 1e-12 * Math.max(fft[0], 1e-300));
        }
    }

    @Test
    void theFftIsWorthMoreDirectLagsForLongerChains() {
        double shortChains = LaggedAutocovariance.fftCostInLags(16, 1_000);
        double longChains = LaggedAutocovariance.fftCostInLags(16, 1_000_000);
        assertEquals(true, shortChains > 4 && longChains > shortChains, shortChains + " then " + longChains);
    }
}
