package org.sparkmc.core.smc;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 *
 * <p>Because that reference shares the model's code, the model itself is also checked against an independent exact
 * answer: its observation density against Commons Statistics' normal density, and for the first two observations the
 * likelihood p(y_0, y_1) and the filtering means E[x_0 | y_0], E[x_1 | y_0, y_1] by trapezoidal quadrature on a
 * 2,001-point grid per axis (the integrands are smooth and decay like Gaussians, so the quadrature error is far below
 * the Monte Carlo error).
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

    @Test
    void observationDensityIsTheNormalWithVarianceBetaSquaredTimesExpX() {
        double[] states = {-2.5, -0.3, 0, 0.7, 3.1};
        double[] out = new double[states.length];
        for (double y : new double[] {-1.7, 0.05, 2.4}) {
            MODEL.logObservationDensity(0, new double[] {y}, states, 0, states.length, out);
            for (int i = 0; i < states.length; i++) {
                double exact = NormalDistribution.of(0, 0.6 * Math.exp(states[i] / 2)).logDensity(y);
                assertEquals(exact, out[i], 1e-12, "x = " + states[i] + ", y = " + y);
            }
        }
    }

    /**
     * 100 runs of 5,000 particles on (y_0, y_1) against quadrature: the average of p̂/p (unbiased) and of the two
     * filtering means, each |z| &lt; 4.4 (two-sided normal 1e-5 each; the means' O(1/N) bias is under 0.2 of their
     * standard error here).
     */
    @Test
    void twoStepsAgreeWithQuadrature() {
        double phi = 0.95;
        double sigma = 0.25;
        double beta = 0.6;
        double[][] y = {data()[0], data()[1]};
        double sd0 = sigma / Math.sqrt(1 - phi * phi);
        int points = 2001;
        double lo = -8 * sd0;
        double h = 16 * sd0 / (points - 1);
        double[] x = new double[points];
        double[] first = new double[points]; // N(x; 0, sd0²) · N(y_0; 0, β² e^x) · trapezoid weight
        double[] second = new double[points]; // N(y_1; 0, β² e^x)
        NormalDistribution start = NormalDistribution.of(0, sd0);
        for (int i = 0; i < points; i++) {
            x[i] = lo + i * h;
            double w = (i == 0 || i == points - 1 ? 0.5 : 1) * h;
            first[i] = w * start.density(x[i]) * NormalDistribution.of(0, beta * Math.exp(x[i] / 2)).density(y[0][0]);
            second[i] = w * NormalDistribution.of(0, beta * Math.exp(x[i] / 2)).density(y[1][0]);
        }
        double p0 = 0;
        double m0 = 0;
        for (int i = 0; i < points; i++) {
            p0 += first[i];
            m0 += first[i] * x[i];
        }
        m0 /= p0;
        double p01 = 0;
        double m1 = 0;
        for (int i = 0; i < points; i++) {
            for (int j = 0; j < points; j++) {
                double r = (x[j] - phi * x[i]) / sigma;
                double term = first[i] * second[j] * Math.exp(-0.5 * r * r) / (sigma * Math.sqrt(2 * Math.PI));
                p01 += term;
                m1 += term * x[j];
            }
        }
        m1 /= p01;

        int runs = 100;
        double[] ratio = new double[runs];
        double[] mean0 = new double[runs];
        double[] mean1 = new double[runs];
        for (int r = 0; r < runs; r++) {
            FilterResult f = ParticleFilter.run(ParticleKernel.bootstrap(MODEL), 5000, SmcOptions.defaults(),
                    new RandomStreams(500 + r), y);
            ratio[r] = Math.exp(f.logLikelihood() - Math.log(p01));
            mean0[r] = f.steps().get(0).mean()[0];
            mean1[r] = f.steps().get(1).mean()[0];
        }
        double limit = NormalDistribution.of(0, 1).inverseSurvivalProbability(0.5e-5);
        assertTrue(Math.abs(z(ratio, 1, 0)) < limit, "p̂/p: z = " + z(ratio, 1, 0));
        assertTrue(Math.abs(z(mean0, m0, 0)) < limit, "E[x0|y0] " + m0 + ": z = " + z(mean0, m0, 0));
        assertTrue(Math.abs(z(mean1, m1, 0)) < limit, "E[x1|y0,y1] " + m1 + ": z = " + z(mean1, m1, 0));
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
