package org.sparkmc.core.smc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.smc.models.StochasticVolatilityModel;

/**
 * The stochastic-volatility model has no closed-form filter: small runs are checked against one very large run of
 * the same filter on data simulated from the model (φ = 0.95, σ = 0.25, β = 0.6, 100 steps). The reference's own
 * error is accounted for: a bootstrap filter's variance scales as 1/N, so the reference contributes the small-run
 * variance times N/N_ref.
 *
 * <p>Test statistic per quantity (filtering mean at each step, and p̂/p̂_ref): z = (average over runs − reference) /
 * sqrt(s²/R + s²·N/N_ref), s² the variance across runs. Bonferroni over 100 steps plus the likelihood at a family rate
 * of 1e-3: |z| below the normal quantile of 1 − 5e-6 (≈ 4.4). With R = 20 runs the standard error itself is uncertain,
 * so the real false-failure rate is somewhat above 1e-3 — still rare.
 */
class StochasticVolatilityTest {
    private static final StochasticVolatilityModel MODEL = new StochasticVolatilityModel(0.95, 0.25, 0.6);

    static double[][] data() {
        double[] y = MODEL.simulate(100, new RandomStreams(8).rng("sv-data"))[1];
        double[][] out = new double[y.length][];
        for (int n = 0; n < y.length; n++) {
            out[n] = new double[] {y[n]};
        }
        return out;
    }

    @Test
    void smallRunsAgreeWithALargeRun() {
        assertTrue(worstZ(MODEL, 200_000, 2000, 20, 1) < critical());
        // small runs of a slightly wrong model (β = 0.7 instead of 0.6) must fail the same check
        double broken = worstZ(new StochasticVolatilityModel(0.95, 0.25, 0.7), 200_000, 2000, 20, 1);
        assertTrue(broken > critical(), "a wrong model passed: max |z| = " + broken);
    }

    /**
     * The same check with a reference of 4·10^6 particles and 50 runs of 10^4 (≈ 45 s): tagged heavy, run with
     * {@code mvn -B verify -Pheavy}.
     */
    @Test
    @Tag("heavy")
    void runsAgreeWithAVeryLargeRun() {
        assertTrue(worstZ(MODEL, 4_000_000, 10_000, 50, 2) < critical());
    }

    private static double critical() {
        return NormalDistribution.of(0, 1).inverseSurvivalProbability(1e-3 / (2 * (data().length + 1)));
    }

    /** The largest |z| over the filtering means and the likelihood, small runs of {@code runModel} vs the reference. */
    private static double worstZ(StochasticVolatilityModel runModel, int referenceParticles, int particles, int runs,
            long seed) {
        double[][] y = data();
        FilterResult ref = ParticleFilter.run(ParticleKernel.bootstrap(MODEL), referenceParticles,
                SmcOptions.defaults(), new RandomStreams(seed), y);
        ParticleKernel kernel = ParticleKernel.bootstrap(runModel);
        double[][] means = new double[y.length][runs];
        double[] ratios = new double[runs];
        for (int r = 0; r < runs; r++) {
            FilterResult f = ParticleFilter.run(kernel, particles, SmcOptions.defaults(),
                    new RandomStreams(seed * 1_000 + r + 1), y);
            ratios[r] = Math.exp(f.logLikelihood() - ref.logLikelihood());
            for (int n = 0; n < y.length; n++) {
                means[n][r] = f.steps().get(n).mean()[0];
            }
        }
        double share = (double) particles / referenceParticles;
        double worst = Math.abs(z(ratios, 1, share));
        for (int n = 0; n < y.length; n++) {
            worst = Math.max(worst, Math.abs(z(means[n], ref.steps().get(n).mean()[0], share)));
        }
        return worst;
    }

    private static double z(double[] x, double reference, double share) {
        double m = 0;
        for (double v : x) {
            m += v;
        }
        m /= x.length;
        double s2 = 0;
        for (double v : x) {
            s2 += (v - m) * (v - m);
        }
        s2 /= x.length - 1;
        return (m - reference) / Math.sqrt(s2 / x.length + s2 * share);
    }
}
