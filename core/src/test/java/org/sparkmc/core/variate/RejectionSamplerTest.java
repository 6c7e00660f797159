package org.sparkmc.core.variate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.statistics.distribution.GammaDistribution;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.random.RandomStreams;

/**
 * Generic rejection sampling of the unnormalised Gamma(2.5) density p̃(x) = x^1.5 e^−x from an Exp(rate 0.4)
 * proposal (mean 2.5). p̃/q = 2.5 x^1.5 e^{−0.6x} peaks at x = 2.5, so M = 2.5 · 2.5^1.5 · e^−1.5 ≈ 2.2049 and
 * the acceptance rate is Γ(2.5)/M ≈ 0.6029.
 */
class RejectionSamplerTest {
    private static final RandomStreams STREAMS = new RandomStreams(77);
    private static final double LOG_M = Math.log(2.5) + 1.5 * Math.log(2.5) - 1.5;
    private static final LogDensity TARGET = x -> x > 0 ? 1.5 * Math.log(x) - x : Double.NEGATIVE_INFINITY;
    private static final LogDensity PROPOSAL = x -> Math.log(0.4) - 0.4 * x;

    private static RejectionSampler sampler(UniformRandomProvider rng, double logM) {
        return RejectionSampler.of(rng, TARGET, InverseCdfSampler.exponential(rng, 0.4), PROPOSAL, logM);
    }

    /** Repeated chi-square, {@link GoodnessOfFit}: about 0.16% false alarms. */
    @Test
    void drawsFollowTheTarget() {
        GammaDistribution exact = GammaDistribution.of(2.5, 1);
        int failed = GoodnessOfFit.failedRepetitions(rep -> sampler(STREAMS.stream("fit", rep), LOG_M),
            exact::cumulativeProbability);
        assertTrue(failed <= GoodnessOfFit.ALLOWED_FAILURES, failed + " repetitions failed");
    }

    /** Binomial sd of the acceptance rate at 100,000 proposals is about 0.0015; bound 5 sd (false alarm 6e-7). */
    @Test
    void reportsTheAcceptanceRate() {
        RejectionSampler s = sampler(STREAMS.stream("rate"), LOG_M);
        while (s.proposals() < 100_000) {
            s.sample();
        }
        // Γ(2.5) = e^{-1}/p(1) for the normalised Gamma(2.5, 1) density p.
        double gamma25 = Math.exp(-1) / GammaDistribution.of(2.5, 1).density(1);
        double expected = gamma25 / Math.exp(LOG_M);
        assertEquals(0.6029, expected, 1e-4);
        assertEquals(expected, s.acceptanceRate(), 5 * Math.sqrt(expected * (1 - expected) / s.proposals()));
    }

    /** An envelope half as high as needed is caught (draws near the mode have p̃ &gt; Mq) rather than used. */
    @Test
    void detectsAnEnvelopeThatIsTooLow() {
        RejectionSampler s = sampler(STREAMS.stream("low"), LOG_M - Math.log(2));
        EnvelopeViolationException e = assertThrows(EnvelopeViolationException.class, () -> {
            for (int i = 0; i < 10_000; i++) {
                s.sample();
            }
        });
        assertTrue(e.getMessage().contains("envelope is too low at x ="), e.getMessage());
    }

    /** A proposal whose support misses part of the target's (q = 0 where p̃ &gt; 0) is an envelope violation. */
    @Test
    void detectsAProposalWithTooSmallASupport() {
        UniformRandomProvider rng = STREAMS.stream("support");
        LogDensity normal = x -> -0.5 * x * x;
        LogDensity halfNormal = x -> x >= 0 ? -0.5 * x * x : Double.NEGATIVE_INFINITY;
        // Proposal: |N(0,1)| on x >= 0 but evaluated as a density only there; the proposal draws the full line.
        RejectionSampler s = RejectionSampler.of(rng, normal, BoxMullerSampler.of(rng), halfNormal, Math.log(1.01));
        assertThrows(EnvelopeViolationException.class, () -> {
            for (int i = 0; i < 100; i++) {
                s.sample();
            }
        });
    }

    @Test
    void argumentsAreChecked() {
        UniformRandomProvider rng = STREAMS.stream("args");
        assertThrows(IllegalArgumentException.class, () -> sampler(rng, Double.POSITIVE_INFINITY));
        assertThrows(NullPointerException.class, () -> RejectionSampler.of(rng, null, () -> 0, PROPOSAL, 0));
    }
}
