package org.sparkmc.core.mcmc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.statistics.distribution.ChiSquaredDistribution;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.model.CollapsedGaussianMixture;
import org.sparkmc.core.model.FullConditionals;
import org.sparkmc.core.model.GaussianMixtureGibbs;
import org.sparkmc.core.model.Matrices;
import org.sparkmc.core.model.MixtureSpec;
import org.sparkmc.core.model.NormalInverseWishart;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.random.Rng;

/**
 * Both Gaussian-mixture Gibbs samplers against the exact posterior of the labels of 5 points with K = 2 (all 32
 * labellings enumerated, p(z | y) ∝ p(y, z) with π, μ, Σ integrated out). The collapsed sampler draws from the
 * Student-t predictive; the full-conditional sampler draws weights, Wishart covariances and means — independent
 * code whose label marginal must agree with the same closed form. Chi-square on 20,000 draws thinned by 5, at 0.1%
 * for the full-conditional sampler and at 0.05% for each of the collapsed sampler's two scans (fixed seeds; at most
 * 0.1% false alarms per test for fresh seeds).
 */
class GaussianMixtureSamplersTest {
    private static final double[] POINTS = {0, 0, 0.5, 0.2, 2, 1.5, 2.3, 1.9, 1, 1};

    private static MixtureSpec spec() {
        return new MixtureSpec(POINTS, 2, 2, 1,
                new NormalInverseWishart(new double[] {1, 1}, 0.5, 4, Matrices.identity(2, 0.5)));
    }

    @Test
    void collapsedGibbsSamplesTheExactLabelPosterior() {
        CollapsedGaussianMixture target = new CollapsedGaussianMixture(spec());
        for (GibbsSampler.Scan scan : GibbsSampler.Scan.values()) {
            double p = labelChiSquare(target, GibbsSampler.of(scan), 81);
            assertTrue(p > 1e-3 / GibbsSampler.Scan.values().length, scan + ": p = " + p);
        }
    }

    @Test
    void fullConditionalGibbsSamplesTheSameLabelPosterior() {
        double p = labelChiSquare(new GaussianMixtureGibbs(spec()), GibbsSampler.of(GibbsSampler.Scan.SYSTEMATIC), 82);
        assertTrue(p > 1e-3, "p = " + p);
    }

    @Test
    void theSweepEqualsSingleSiteUpdatesInOrder() {
        CollapsedGaussianMixture target = new CollapsedGaussianMixture(spec());
        double[] a = {0, 1, 0, 1, 1};
        double[] b = a.clone();
        target.sweep(a, new RandomStreams(3).rng("x"));
        Rng rng = new RandomStreams(3).rng("x");
        for (int i = 0; i < 5; i++) {
            target.sampleBlock(i, b, rng);
        }
        assertEquals(java.util.Arrays.toString(a), java.util.Arrays.toString(b));
    }

    @Test
    void reportsLabelInvariantQuantitiesAndRelabelledComponents() {
        GaussianMixtureGibbs target = new GaussianMixtureGibbs(spec());
        double[] x = target.initialPosition(new RandomStreams(4).rng("init"));
        double[] p = target.parameters(x);
        List<String> names = target.parameterNames();
        assertEquals(names.size(), p.length);
        assertEquals(List.of("log_p_yz", "loglik", "size_sorted[1]", "size_sorted[2]", "w[1]", "mu[1,1]", "mu[1,2]",
                "w[2]", "mu[2,1]", "mu[2,2]"), names);
        assertTrue(p[2] >= p[3]);
        assertTrue(p[5] <= p[8], "components sorted by first mean coordinate");
        // Swapping the labels changes nothing reported.
        double[] swapped = x.clone();
        for (int i = 0; i < 5; i++) {
            swapped[i] = 1 - x[i];
        }
        swap(swapped, 5, 6, 1);
        swap(swapped, 7, 9, 2);
        swap(swapped, 11, 15, 4);
        assertEquals(java.util.Arrays.toString(p), java.util.Arrays.toString(target.parameters(swapped)));
        assertEquals(target.logDensity(x), target.logDensity(swapped), 1e-9);
    }

    private static void swap(double[] x, int a, int b, int length) {
        for (int i = 0; i < length; i++) {
            double t = x[a + i];
            x[a + i] = x[b + i];
            x[b + i] = t;
        }
    }

    /** Chi-square p-value of the sampled labellings of points 1…5 against the enumerated posterior. */
    static double labelChiSquare(FullConditionals target, Kernel<?> kernel, long seed) {
        MixtureSpec spec = spec();
        int n = spec.points();
        int states = 1 << n;
        double[] logp = new double[states];
        double max = Double.NEGATIVE_INFINITY;
        for (int s = 0; s < states; s++) {
            logp[s] = spec.logJointCollapsed(labels(s, n));
            max = Math.max(max, logp[s]);
        }
        double[] prob = new double[states];
        double z = 0;
        for (int s = 0; s < states; s++) {
            prob[s] = Math.exp(logp[s] - max);
            z += prob[s];
        }
        RandomStreams streams = new RandomStreams(seed);
        ChainState state = ChainRound.start(1, target, kernel, streams);
        Rng rng = streams.rng("test");
        for (int i = 0; i < 200; i++) {
            kernel.advance(target, state, rng, true);
        }
        int draws = 20_000;
        long[] counts = new long[states];
        for (int i = 0; i < draws; i++) {
            for (int t = 0; t < 5; t++) {
                kernel.advance(target, state, rng, false);
            }
            int s = 0;
            for (int j = 0; j < n; j++) {
                s |= ((int) state.position()[j]) << j;
            }
            counts[s]++;
        }
        // Pool states with expected count below 5 into one cell.
        List<double[]> cells = new ArrayList<>();
        double pooledExpected = 0;
        double pooledObserved = 0;
        for (int s = 0; s < states; s++) {
            double expected = draws * prob[s] / z;
            if (expected < 5) {
                pooledExpected += expected;
                pooledObserved += counts[s];
            } else {
                cells.add(new double[] {expected, counts[s]});
            }
        }
        if (pooledExpected > 0) {
            cells.add(new double[] {pooledExpected, pooledObserved});
        }
        double stat = 0;
        for (double[] c : cells) {
            stat += (c[1] - c[0]) * (c[1] - c[0]) / c[0];
        }
        return ChiSquaredDistribution.of(cells.size() - 1).survivalProbability(stat);
    }

    static double[] labels(int s, int n) {
        double[] z = new double[n];
        for (int i = 0; i < n; i++) {
            z[i] = (s >> i) & 1;
        }
        return z;
    }
}
