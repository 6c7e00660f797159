package org.sparkmc.spark.chains;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.rjmcmc.ModelProbabilities;

/** The p(m | y) table of a reversible-jump run, from model-index draws built by hand (no Spark). */
class RjmcmcSummaryTest {

    @Test
    void tableListsVisitedModelsWithPooledAndPerChainFractions() {
        double[][] k = {{3, 3, 4, 6, 6, 6}, {4, 4, 4, 3, 6, 4}};
        double[][] table = RjmcmcSummary.modelTable(k);
        assertEquals(3, table.length, "k = 5 is never visited and not listed");
        assertArrayEquals(new double[] {3, 3.0 / 12}, new double[] {table[0][0], table[0][1]}, 1e-15);
        assertArrayEquals(new double[] {2.0 / 6, 1.0 / 6}, new double[] {table[0][4], table[0][5]}, 1e-15);
        assertArrayEquals(new double[] {4, 5.0 / 12, 1.0 / 6, 4.0 / 6}, new double[] {table[1][0], table[1][1],
            table[1][4], table[1][5]}, 1e-15);
        assertArrayEquals(new double[] {6, 4.0 / 12, 3.0 / 6, 1.0 / 6}, new double[] {table[2][0], table[2][1],
            table[2][4], table[2][5]}, 1e-15);
    }

    /**
     * The MCSE counts autocorrelation: for sticky chains (a two-state Markov chain that switches with probability
     * 0.02, so p = 1/2 and the integrated autocorrelation time is (1 + 0.96)/(1 − 0.96) = 49), it is about 7 times
     * the iid binomial one — an iid formula fails this test — and it is core's ModelProbabilities MCSE. The ESS is
     * near 8 × 20,000 / 49 ≈ 3,300; the bounds (a factor 1.5 either way) are several times the ESS estimate's own
     * relative error at this length (≈ 10%), so the fixed-seed check fails only for a wrong MCSE or ESS.
     */
    @Test
    void mcseAccountsForAutocorrelation() {
        UniformRandomProvider rng = RandomSource.XO_SHI_RO_256_PP.create(7L);
        int chains = 8;
        int n = 20_000;
        double[][] k = new double[chains][n];
        for (double[] chain : k) {
            int state = rng.nextBoolean() ? 2 : 3;
            for (int t = 0; t < n; t++) {
                if (rng.nextDouble() < 0.02) {
                    state = 5 - state;
                }
                chain[t] = state;
            }
        }
        double[][] table = RjmcmcSummary.modelTable(k);
        double p = table[0][1];
        double iid = Math.sqrt(p * (1 - p) / (chains * n));
        double mcse = table[0][2];
        assertEquals(ModelProbabilities.of(k, 2, 2).get(0).mcse(), mcse, 1e-15);
        assertTrue(mcse > 4 * iid && mcse < 11 * iid, "MCSE " + mcse + " vs iid " + iid);
        double ess = table[0][3];
        assertTrue(ess > 3300 / 1.5 && ess < 3300 * 1.5, "ESS " + ess);
        assertEquals(p * (1 - p) * chains * n / (chains * n - 1) / (mcse * mcse), ess, 1e-6 * ess,
                "MCSE = sd / sqrt(ESS)");
    }
}
