package org.sparkmc.core.rjmcmc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sparkmc.core.diagnostics.MonteCarloStandardError;
import org.sparkmc.core.diagnostics.PooledStatistics;

/**
 * Clustering with birth, death and move of centres against exact p(K | y), K ≤ 3, by 1-, 2- and 3-d quadrature.
 * Each of the three probabilities must be within 4 MCSE (4 chains × 30,000 sweeps): false-failure rate below 10⁻³
 * for the three together, allowing for the estimated MCSE.
 */
class CentreClusteringTest {
    static final double[] Y = {-1.8, -1.4, -1.0, -0.7, -0.3, 0.5, 0.9, 1.2, 1.7, 2.2};

    static CentreClustering model() {
        return new CentreClustering(Y, 1, 0, 4, new double[3], 4, 0.6);
    }

    @Test
    void quadratureIsConverged() {
        double[] fine = model().exactModelProbabilities(0.1);
        double[] coarse = model().exactModelProbabilities(0.2);
        for (int k = 0; k < 3; k++) {
            assertEquals(fine[k], coarse[k], 1e-5);
        }
    }

    @Test
    void birthDeathAndMoveReproduceTheExactPosteriorOverK() {
        CentreClustering model = model();
        double[] exact = model.exactModelProbabilities(0.1);
        Chains.Run run = Chains.run(model, RjmcmcKernel.ofTargetSweep(), 4, 1000, 30_000, 51);
        double[][] k = run.parameter(0);
        StringBuilder sb = new StringBuilder();
        boolean ok = true;
        for (ModelProbabilities.Row r : ModelProbabilities.of(k, 1, 3)) {
            double z = (r.probability() - exact[r.model() - 1]) / r.mcse();
            ok &= Math.abs(z) < 4;
            sb.append(String.format("K=%d: %.4f ± %.4f vs exact %.4f (z=%.2f); ", r.model(), r.probability(), r.mcse(),
                    exact[r.model() - 1], z));
        }
        System.out.println("clustering " + sb + RjmcmcKernel.ofTargetSweep().moveRates(model, run.states(), false));
        assertTrue(ok, sb.toString());
        assertTrue(exact[0] > 0.05 && exact[1] > 0.05 && exact[2] > 0.05, "a non-trivial posterior");
        assertTrue(MonteCarloStandardError.mean(k) < 0.02);
        assertTrue(PooledStatistics.mean(k) > 1);
    }
}
