package org.sparkmc.core.rjmcmc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.mcmc.ObservedKernel;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.diagnostics.MonteCarloStandardError;
import org.sparkmc.core.diagnostics.PooledStatistics;
import org.sparkmc.core.mcmc.RunChains;

/**
 * Clustering with birth, death and move of centres against exact p(K | y), K ≤ 3, in closed form by enumerating the
 * 3¹⁰ allocations of the points to the centres ({@link NormalMeansEvidence}, independent of the model's code).
 * Each of the three probabilities must be within 4 MCSE (4 chains × 30,000 sweeps): false-failure rate below 10⁻³
 * for the three together, allowing for the estimated MCSE.
 */
class CentreClusteringTest {
    static final double[] Y = {-1.8, -1.4, -1.0, -0.7, -0.3, 0.5, 0.9, 1.2, 1.7, 2.2};

    static CentreClustering model() {
        return new CentreClustering(Y, 1, 0, 4, new double[3], 4, 0.6);
    }

    /** p(K | y) for Y under the test's priors (σ = 1, centres ~ N(0, 4), K uniform on 1..3), in closed form. */
    static double[] exact() {
        return NormalMeansEvidence.posterior(Y, new double[3], 1, 0, 4);
    }

    /** The model's own quadrature (which the jobs report) agrees with the closed form. */
    @Test
    void quadratureMatchesTheClosedForm() {
        double[] fine = model().exactModelProbabilities(0.1);
        double[] coarse = model().exactModelProbabilities(0.2);
        for (int k = 0; k < 3; k++) {
            assertEquals(exact()[k], fine[k], 1e-5);
            assertEquals(exact()[k], coarse[k], 1e-5);
        }
    }

    @Test
    void birthDeathAndMoveReproduceTheExactPosteriorOverK() {
        CentreClustering model = model();
        ObservedKernel<Void> kernel = RjmcmcKernel.ofTargetSweep().counted();
        double[] exact = exact();
        RunChains.Result run = RunChains.run(model, kernel, 4, 1000, 30_000, 51);
        double[][] k = run.draws()[0];
        StringBuilder sb = new StringBuilder();
        boolean ok = true;
        for (ModelProbabilities.Row r : ModelProbabilities.of(k, 1, 3)) {
            double z = (r.probability() - exact[r.model() - 1]) / r.mcse();
            ok &= Math.abs(z) < 4;
            sb.append(String.format("K=%d: %.4f ± %.4f vs exact %.4f (z=%.2f); ", r.model(), r.probability(), r.mcse(),
                    exact[r.model() - 1], z));
        }
        System.out.println("clustering " + sb + MoveCounter.rates(kernel, model, run.states(), false));
        assertTrue(ok, sb.toString());
        assertTrue(exact[0] > 0.05 && exact[1] > 0.05 && exact[2] > 0.05, "a non-trivial posterior");
        assertTrue(MonteCarloStandardError.mean(k) < 0.02);
        assertTrue(PooledStatistics.mean(k) > 1);
    }

    /**
     * 1,000 points (the normal quantiles of two well-separated groups at ±4): the likelihood product underflows a
     * double, so p(K | y) must be formed in log space; with two groups it is essentially all on K = 2.
     */
    @Test
    void quadratureSurvivesAThousandPoints() {
        double[] y = new double[1000];
        NormalDistribution normal = NormalDistribution.of(0, 1);
        for (int i = 0; i < 500; i++) {
            double q = normal.inverseCumulativeProbability((i + 0.5) / 500);
            y[i] = -4 + q;
            y[500 + i] = 4 + q;
        }
        double[] p = new CentreClustering(y, 1, 0, 16, new double[2], 16, 0.6).exactModelProbabilities(0.2);
        assertTrue(Double.isFinite(p[0]) && Double.isFinite(p[1]), java.util.Arrays.toString(p));
        assertEquals(1, p[0] + p[1], 1e-12);
        assertTrue(p[1] > 0.999, java.util.Arrays.toString(p));
    }

    @Test
    void refusesParametersItCannotUse() {
        assertThrows(InvalidInputException.class, () -> new CentreClustering(Y, 1, 0, 4, new double[3], 4, 0));
        assertThrows(InvalidInputException.class, () -> new CentreClustering(Y, 1, 0, 4, new double[3], 4, Double.NaN));
        assertThrows(InvalidInputException.class,
                () -> new CentreClustering(Y, Double.POSITIVE_INFINITY, 0, 4, new double[3], 4, 0.6));
        assertThrows(InvalidInputException.class,
                () -> new CentreClustering(Y, 1, Double.NaN, 4, new double[3], 4, 0.6));
        assertThrows(InvalidInputException.class, () -> new CentreClustering(new double[] {1, Double.NaN}, 1, 0, 4,
                new double[3], 4, 0.6));
    }
}
