package org.sparkmc.core.rjmcmc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;
import org.apache.commons.statistics.distribution.ChiSquaredDistribution;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.Kernel;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.random.Rng;

/**
 * Without data the posterior is the prior, so a correct reversible-jump kernel started from an exact prior draw
 * must leave the model index distributed as p(m) after any number of sweeps. Each repetition runs 1,000 independent
 * chains from exact prior draws for 10 sweeps and tests the final m against p(m) by chi-square at the 1% level
 * (cells with expected count below 5 pooled); of 50 repetitions at most 3 may fail: the Commons RNG pattern, about
 * 0.16% false alarms for a correct kernel. Chains are independent, so no thinning or autocorrelation enters.
 * A split whose Jacobian omits R&amp;G's 1/σ² factor fails the same test.
 */
class PriorRecoveryTest {
    private static final int REPETITIONS = 50;
    private static final int CHAINS = 1000;
    private static final int SWEEPS = 10;

    /** R&amp;G's prior shape on a unit scale, with a non-uniform p(k) ∝ Poisson(3) on 1..8 so that log p(k) matters. */
    static NormalMixture priorOnlyMixture() {
        MixturePrior prior = new MixturePrior(0, 1, 2, 0.2, 1, 1, 8, CentreClustering.poissonPrior(3, 8));
        return new NormalMixture(new double[0], prior, new double[0]);
    }

    @Test
    void mixtureWithoutDataRecoversThePriorOverK() {
        NormalMixture model = priorOnlyMixture();
        int failed = failedRepetitions(model::priorDraw, model, RjmcmcKernel.ofTargetSweep(), normalised(
                CentreClustering.poissonPrior(3, 8)), 31);
        assertTrue(failed <= 3, failed + " of " + REPETITIONS + " repetitions failed");
    }

    /**
     * The same design with data (Geweke 2004's successive-conditional simulator, from exact joint draws): 500 chains of 6
     * iterations; each draws 6 observations y_i ~ N(μ_{z_i}, σ²_{z_i}) given the state, then applies one sweep of the
     * kernel for the posterior given those y. Both steps keep the joint prior of (state, y), so k stays ~ p(k); this
     * exercises the data-dependent terms (likelihood, the split's reallocation probability P_alloc) that the
     * prior-only test cannot.
     */
    @Test
    void successiveConditionalsWithDataKeepThePriorOverK() {
        MixturePrior prior = priorOnlyMixture().prior();
        int n = 6;
        RandomStreams streams = new RandomStreams(33);
        double[] pK = normalised(CentreClustering.poissonPrior(3, 8));
        Kernel<?> kernel = RjmcmcKernel.ofTargetSweep();
        int failed = 0;
        for (int rep = 0; rep < REPETITIONS; rep++) {
            long[] counts = new long[pK.length];
            for (int c = 0; c < 500; c++) {
                Rng rng = streams.rng("successive-conditionals", rep, c);
                double[] x = new NormalMixture(new double[n], prior, new double[0]).priorDraw(rng);
                ChainState state = null;
                for (int s = 0; s < 6; s++) {
                    int k = (int) x[0];
                    double[] y = new double[n];
                    for (int i = 0; i < n; i++) {
                        int z = (int) x[2 + 3 * k + i];
                        y[i] = x[2 + k + z] + Math.sqrt(x[2 + 2 * k + z]) * rng.normal();
                    }
                    NormalMixture posterior = new NormalMixture(y, prior, new double[0]);
                    state = new ChainState(c, x, posterior.logDensity(x), kernel.initialState(x.length));
                    kernel.advance(posterior, state, rng, false);
                    x = state.position();
                }
                counts[(int) x[0] - 1]++;
            }
            if (pValue(counts, pK) < 0.01) {
                failed++;
            }
        }
        System.out.println("successive conditionals: " + failed + " of " + REPETITIONS + " repetitions failed at 1%");
        assertTrue(failed <= 3, failed + " of " + REPETITIONS + " repetitions failed");
    }

    /**
     * The successive-conditional design for the two-means model (its data cannot be empty), with either reversible
     * pair: from (m, θ) drawn from the prior (p(m = 2) = 0.4, θ ~ N(0, 4)), each of 500 chains alternates 6 times
     * between 6 observations y ~ p(y | m, θ) (σ = 1; under m = 2 each from either mean with probability 1/2) and one
     * sweep of the kernel for the posterior given y; m must stay ~ p(m). Same 50 × chi-square-at-1% pattern.
     */
    @Test
    void twoMeansSuccessiveConditionalsKeepThePriorOverTheModel() {
        for (TwoMeans.Jump jump : TwoMeans.Jump.values()) {
            RandomStreams streams = new RandomStreams(34 + jump.ordinal());
            Kernel<?> kernel = RjmcmcKernel.ofTargetSweep();
            int failed = 0;
            for (int rep = 0; rep < REPETITIONS; rep++) {
                long[] counts = new long[2];
                for (int c = 0; c < 500; c++) {
                    Rng rng = streams.rng("two-means-successive-conditionals", rep, c);
                    int m = rng.uniform() < 0.4 ? 2 : 1;
                    double[] x = new double[m + 1];
                    x[0] = m;
                    for (int j = 1; j <= m; j++) {
                        x[j] = 2 * rng.normal();
                    }
                    for (int s = 0; s < 6; s++) {
                        double[] y = new double[6];
                        for (int i = 0; i < y.length; i++) {
                            int j = x[0] == 1 || rng.uniform() < 0.5 ? 1 : 2;
                            y[i] = x[j] + rng.normal();
                        }
                        TwoMeans posterior = new TwoMeans(y, 1, 0, 4, 0.4, jump, jump == TwoMeans.Jump.SPLIT_MERGE
                                ? 1 : 4, 0.7);
                        ChainState state = new ChainState(c, x, posterior.logDensity(x),
                                kernel.initialState(x.length));
                        kernel.advance(posterior, state, rng, false);
                        x = state.position();
                    }
                    counts[(int) x[0] - 1]++;
                }
                if (pValue(counts, new double[] {0.6, 0.4}) < 0.01) {
                    failed++;
                }
            }
            System.out.println("two means " + jump + " successive conditionals: " + failed + " of " + REPETITIONS
                    + " repetitions failed at 1%");
            assertTrue(failed <= 3, jump + ": " + failed + " of " + REPETITIONS + " repetitions failed");
        }
    }

    @Test
    void clusteringWithoutDataRecoversThePriorOverK() {
        CentreClustering model = new CentreClustering(new double[0], 1, 0, 4, CentreClustering.poissonPrior(2.5, 7),
                2, 0.5);
        int failed = failedRepetitions(model::priorDraw, model, RjmcmcKernel.ofTargetSweep(), model.priorK(), 32);
        assertTrue(failed <= 3, failed + " of " + REPETITIONS + " repetitions failed");
    }

    @Test
    void aWrongSplitJacobianFailsTheSameTest() {
        NormalMixture model = priorOnlyMixture();
        SplitBijection rg = new SplitBijection();
        Bijection wrong = new DelegatingBijection(rg) {
            @Override
            public double logAbsDetJacobian(double[] xu) {
                return rg.logAbsDetJacobian(xu) + Math.log(xu[2]);
            }
        };
        List<Move> sweep = new java.util.ArrayList<>(model.sweep());
        sweep.set(5, new MixtureSplitMerge(model, wrong));
        int failed = failedRepetitions(model::priorDraw, model, RjmcmcKernel.of(sweep), normalised(
                CentreClustering.poissonPrior(3, 8)), 31);
        assertTrue(failed > 3, "the broken split passed: " + failed + " of " + REPETITIONS + " failed");
    }

    static double[] normalised(double[] logP) {
        double max = java.util.Arrays.stream(logP).max().getAsDouble();
        double[] p = new double[logP.length];
        double sum = 0;
        for (int i = 0; i < p.length; i++) {
            p[i] = Math.exp(logP[i] - max);
            sum += p[i];
        }
        for (int i = 0; i < p.length; i++) {
            p[i] /= sum;
        }
        return p;
    }

    private static int failedRepetitions(Function<Rng, double[]> priorDraw, TransDimensionalTarget target,
            Kernel kernel, double[] pK, long seed) {
        RandomStreams streams = new RandomStreams(seed);
        int failed = 0;
        for (int rep = 0; rep < REPETITIONS; rep++) {
            long[] counts = new long[pK.length];
            for (int c = 0; c < CHAINS; c++) {
                Rng rng = streams.rng("prior-recovery", rep, c);
                double[] x = priorDraw.apply(rng);
                ChainState state = new ChainState(c, x, target.logDensity(x), kernel.initialState(x.length));
                for (int s = 0; s < SWEEPS; s++) {
                    kernel.advance(target, state, rng, false);
                }
                counts[target.model(state.position()) - 1]++;
            }
            if (pValue(counts, pK) < 0.01) {
                failed++;
            }
        }
        System.out.println(target.getClass().getSimpleName() + ": " + failed + " of " + REPETITIONS
                + " repetitions failed at 1%");
        return failed;
    }

    /** Chi-square p-value of counts against probabilities, pooling the tail cells with expected count below 5. */
    static double pValue(long[] counts, double[] p) {
        long n = java.util.Arrays.stream(counts).sum();
        double stat = 0;
        int cells = 0;
        double pooledExpected = 0;
        long pooledCount = 0;
        for (int i = 0; i < p.length; i++) {
            double e = n * p[i];
            if (e < 5) {
                pooledExpected += e;
                pooledCount += counts[i];
                continue;
            }
            stat += (counts[i] - e) * (counts[i] - e) / e;
            cells++;
        }
        if (pooledExpected > 0) {
            stat += (pooledCount - pooledExpected) * (pooledCount - pooledExpected) / pooledExpected;
            cells++;
        }
        return ChiSquaredDistribution.of(cells - 1).survivalProbability(stat);
    }
}
