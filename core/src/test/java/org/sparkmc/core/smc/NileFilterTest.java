package org.sparkmc.core.smc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.statistics.distribution.TDistribution;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.smc.models.KalmanFilter;
import org.sparkmc.core.smc.models.LocalLevelModel;

/**
 * Particle filters on the Nile local-level model (σ²_ε = 15099, σ²_η = 1469.1, x_0 ~ N(1120, 10^7)) against the exact
 * Kalman filter.
 */
class NileFilterTest {
    private static final double[][] Y = NileData.load().values();
    private static final LocalLevelModel MODEL = LocalLevelModel.nile();
    private static final KalmanFilter.Result KALMAN = KalmanFilter.run(MODEL.asLinearGaussian(), Y);

    /**
     * Filtering means and variances: R = 40 independent filters of N = 1000 particles; at each of the 100 steps the
     * average estimate over the runs is compared with Kalman by a t statistic (standard error from the runs, 39
     * degrees of freedom). Bonferroni over 100 steps and 2 quantities at a family rate of 1e-3 per filter: each |t|
     * must stay below the t_39 quantile of 1 − 2.5e-6 (about 5.3). The O(1/N) bias of the ratio estimators is
     * below 1/30 of a standard error here. The same check must reject a filter run with σ²_η four times too big.
     */
    @Test
    void bootstrapFilterMatchesKalmanWithinMonteCarloError() {
        double worst = worstT(ParticleKernel.bootstrap(MODEL), 11);
        assertTrue(worst < critical(), "bootstrap: max |t| = " + worst + " >= " + critical());
        LocalLevelModel wrong = new LocalLevelModel(15099, 4 * 1469.1, 1120, 1e7);
        double broken = worstT(ParticleKernel.bootstrap(wrong), 11);
        assertTrue(broken > critical(), "a filter of the wrong model passed: max |t| = " + broken);
    }

    /** As above for the guided filter with the locally optimal proposal. */
    @Test
    void guidedFilterMatchesKalmanWithinMonteCarloError() {
        double worst = worstT(ParticleKernel.guided(MODEL, MODEL.optimalProposal()), 12);
        assertTrue(worst < critical(), "guided: max |t| = " + worst + " >= " + critical());
    }

    private static final int RUNS = 40;

    private static double critical() {
        return TDistribution.of(RUNS - 1).inverseSurvivalProbability(1e-3 / (2 * 2 * Y.length));
    }

    private static double worstT(ParticleKernel kernel, long seed) {
        int t = Y.length;
        double[][] means = new double[t][RUNS];
        double[][] vars = new double[t][RUNS];
        for (int r = 0; r < RUNS; r++) {
            FilterResult f = ParticleFilter.run(kernel, 1000, SmcOptions.defaults(), new RandomStreams(seed * 1000 + r),
                    Y);
            for (int n = 0; n < t; n++) {
                means[n][r] = f.steps().get(n).mean()[0];
                vars[n][r] = f.steps().get(n).variance()[0];
            }
        }
        double worst = 0;
        for (int n = 0; n < t; n++) {
            worst = Math.max(worst, Math.abs(tStat(means[n], KALMAN.means()[n][0])));
            worst = Math.max(worst, Math.abs(tStat(vars[n], KALMAN.variance(n, 0))));
        }
        return worst;
    }

    static double tStat(double[] x, double exact) {
        double m = 0;
        for (double v : x) {
            m += v;
        }
        m /= x.length;
        double s = 0;
        for (double v : x) {
            s += (v - m) * (v - m);
        }
        double se = Math.sqrt(s / (x.length - 1) / x.length);
        return (m - exact) / se;
    }

    /**
     * Unbiasedness on the likelihood scale (Del Moral 2004): E[p̂(y)] = p(y). 1,500 filters of N = 200 particles
     * (systematic, τ = 0.5); the average of p̂/p must be within 4 estimated standard errors of 1. Here Var log p̂ ≈ 0.6,
     * so p̂/p has sd ≈ 0.9 and moderate skew: the normal approximation gives a false-failure rate near 6e-5 (a few
     * times that allowing for skew).
     */
    @Test
    void likelihoodEstimateIsUnbiasedOnTheLikelihoodScale() {
        int runs = 1500;
        double sum = 0;
        double sumSq = 0;
        ParticleKernel kernel = ParticleKernel.bootstrap(MODEL);
        for (int r = 0; r < runs; r++) {
            double ll = ParticleFilter.run(kernel, 200, SmcOptions.defaults(), new RandomStreams(77_000 + r), Y)
                    .logLikelihood();
            double ratio = Math.exp(ll - KALMAN.logLikelihood());
            sum += ratio;
            sumSq += ratio * ratio;
        }
        double mean = sum / runs;
        double se = Math.sqrt((sumSq / runs - mean * mean) / runs);
        assertTrue(Math.abs(mean - 1) < 4 * se, "mean p̂/p = " + mean + " ± " + se);
        assertTrue(se < 0.05, "too noisy to be a test: se = " + se);
    }

    /**
     * One large run: log p̂ within about 4 sd of log p. The sd was measured over independent filters: 0.35 at
     * N = 1000 (200 filters; Var log p̂ ≈ 0.6 at N = 200, as above), 0.035 at 10^5 (60 filters), so the tolerance 0.15
     * gives a false-failure rate near 2e-5 for a fresh seed.
     */
    @Test
    void aLargeRunIsCloseToTheExactLogLikelihood() {
        FilterResult f = ParticleFilter.run(ParticleKernel.bootstrap(MODEL), 100_000, SmcOptions.defaults(),
                new RandomStreams(5), Y);
        assertEquals(KALMAN.logLikelihood(), f.logLikelihood(), 0.15);
        assertEquals(100, f.steps().size());
        assertEquals(100_000, f.particles());
    }
}
