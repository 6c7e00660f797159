package org.sparkmc.core.variate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.DoubleUnaryOperator;
import java.util.function.LongFunction;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.statistics.distribution.ExponentialDistribution;
import org.apache.commons.statistics.distribution.GammaDistribution;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sparkmc.core.random.RandomStreams;

/**
 * Every named sampler against its exact distribution by {@link GoodnessOfFit}'s repeated chi-square (about 0.16%
 * false alarms per sampler and parameter), plus the gamma rejection scheme's constants.
 */
class NamedSamplersTest {
    private static final RandomStreams STREAMS = new RandomStreams(20261122);

    private static LongFunction<ContinuousSampler> each(String name, java.util.function.Function<UniformRandomProvider,
            ContinuousSampler> factory) {
        return rep -> factory.apply(STREAMS.stream(name, rep));
    }

    private static void assertFits(LongFunction<ContinuousSampler> sampler, DoubleUnaryOperator cdf) {
        int failed = GoodnessOfFit.failedRepetitions(sampler, cdf);
        assertTrue(failed <= GoodnessOfFit.ALLOWED_FAILURES, failed + " of " + GoodnessOfFit.REPETITIONS
            + " repetitions failed");
    }

    @Test
    void inverseCdfExponential() {
        ExponentialDistribution exact = ExponentialDistribution.of(0.5); // mean 0.5, rate 2
        assertFits(each("exp", rng -> InverseCdfSampler.exponential(rng, 2)), exact::cumulativeProbability);
    }

    @Test
    void inverseCdfIsGenericOverTheQuantile() {
        NormalDistribution exact = NormalDistribution.of(3, 2);
        assertFits(each("quantile", rng -> InverseCdfSampler.of(rng, exact::inverseCumulativeProbability)),
            exact::cumulativeProbability);
    }

    @Test
    void boxMuller() {
        NormalDistribution exact = NormalDistribution.of(0, 1);
        assertFits(each("box-muller", BoxMullerSampler::of), exact::cumulativeProbability);
    }

    @Test
    void marsagliaPolar() {
        NormalDistribution exact = NormalDistribution.of(0, 1);
        assertFits(each("polar", MarsagliaPolarSampler::of), exact::cumulativeProbability);
    }

    /** Both halves of each Box–Muller/polar pair are used; the pairs must also be uncorrelated. */
    @Test
    void normalPairsAreUncorrelated() {
        for (var factory : java.util.List.<java.util.function.Function<UniformRandomProvider, ContinuousSampler>>of(
                BoxMullerSampler::of, MarsagliaPolarSampler::of)) {
            ContinuousSampler s = factory.apply(STREAMS.stream("pairs"));
            int n = 200_000;
            double sxy = 0;
            for (int i = 0; i < n; i++) {
                sxy += s.sample() * s.sample();
            }
            // The mean of n products of independent N(0,1) pairs has sd 1/√n; 5 sd: false alarm 6e-7.
            assertEquals(0, sxy / n, 5 / Math.sqrt(n));
        }
    }

    @ParameterizedTest
    @ValueSource(doubles = {2.5, 1.05, 7.9, 3, 1, 0.6, 0.05})
    void gammaByTheLecturesRejectionScheme(double shape) {
        GammaDistribution exact = GammaDistribution.of(shape, 2);
        assertFits(each("gamma-rejection-" + shape, rng -> GammaRejectionSampler.of(rng, shape, 2)),
            exact::cumulativeProbability);
    }

    @ParameterizedTest
    @ValueSource(doubles = {2.5, 1, 0.3, 40})
    void gammaByMarsagliaTsang(double shape) {
        GammaDistribution exact = GammaDistribution.of(shape, 0.5);
        assertFits(each("marsaglia-tsang-" + shape, rng -> MarsagliaTsangGammaSampler.of(rng, shape, 0.5)),
            exact::cumulativeProbability);
    }

    /** The same test rejects the proposal Gamma(⌊α⌋, rate ⌊α⌋/α) itself: the harness can fail. */
    @Test
    void theProposalAloneFailsTheSameTest() {
        double shape = 2.5;
        GammaDistribution exact = GammaDistribution.of(shape, 1);
        LongFunction<ContinuousSampler> proposal = each("proposal", rng -> GammaRejectionSampler.of(rng, 2, 1.25));
        assertTrue(GoodnessOfFit.failedRepetitions(proposal, exact::cumulativeProbability) > 3);
    }

    /** M* = Γ(k) α^α e^{−(α−k)} / (Γ(α) k^k); α = 2.5 by hand: 9.88212 · 0.606531 / (1.329340 · 4) = 1.12722. */
    @Test
    void gammaEnvelopeConstantIsTheClosedForm() {
        assertEquals(1.12722, GammaRejectionSampler.envelope(2.5), 1e-5);
        assertEquals(0.8, GammaRejectionSampler.optimalRate(2.5), 0);
        assertThrows(IllegalArgumentException.class, () -> GammaRejectionSampler.envelope(3));
        assertThrows(IllegalArgumentException.class, () -> GammaRejectionSampler.envelope(0.5));
    }

    /** M(b) = sup_x p(x)/q_b(x), found on a grid, is smallest at b* = k/α and equals M* there. */
    @ParameterizedTest
    @ValueSource(doubles = {1.5, 2.5, 4.2})
    void theOptimalRateMinimisesTheEnvelope(double shape) {
        double k = Math.floor(shape);
        GammaDistribution p = GammaDistribution.of(shape, 1);
        double best = GammaRejectionSampler.optimalRate(shape);
        double atBest = supRatio(p, k, best);
        assertEquals(GammaRejectionSampler.envelope(shape), atBest, 1e-6 * atBest);
        for (double b : new double[] {best - 0.1, best - 0.01, best + 0.01, Math.min(0.999, best + 0.1)}) {
            assertTrue(supRatio(p, k, b) > atBest, "M(" + b + ") <= M(b*)");
        }
    }

    private static double supRatio(GammaDistribution p, double k, double rate) {
        GammaDistribution q = GammaDistribution.of(k, 1 / rate);
        double sup = 0;
        for (double x = 0.001; x < 60; x += 0.0005) {
            sup = Math.max(sup, p.density(x) / q.density(x));
        }
        return sup;
    }

    /** The rejection step accepts at rate 1/M*: binomial sd √(a(1−a)/n) ≈ 0.0007 at n = 200,000; 5 sd bound. */
    @ParameterizedTest
    @ValueSource(doubles = {1.5, 2.5, 10.5})
    void acceptanceRateIsOneOverTheEnvelope(double shape) {
        GammaRejectionSampler s = GammaRejectionSampler.of(STREAMS.stream("acceptance", (long) (shape * 10)), shape, 1);
        for (int i = 0; i < 200_000; i++) {
            s.sample();
        }
        double a = 1 / GammaRejectionSampler.envelope(shape);
        assertEquals(a, s.acceptanceRate(), 5 * Math.sqrt(a * (1 - a) / 200_000.0));
    }

    @Test
    void argumentsAreChecked() {
        UniformRandomProvider rng = STREAMS.stream("args");
        assertThrows(IllegalArgumentException.class, () -> InverseCdfSampler.exponential(rng, 0));
        assertThrows(IllegalArgumentException.class, () -> GammaRejectionSampler.of(rng, -1, 1));
        assertThrows(IllegalArgumentException.class, () -> GammaRejectionSampler.of(rng, 1, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> MarsagliaTsangGammaSampler.of(rng, 0, 1));
        assertThrows(NullPointerException.class, () -> BoxMullerSampler.of(null));
    }
}
