package org.sparkmc.core.variate;

import java.util.Objects;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;

/**
 * Rejection sampling (von Neumann 1951): to draw from p ∝ p̃ with a proposal q such that M·q(x) ≥ p̃(x)
 * everywhere, draw x ~ q and U ~ U(0, 1), and accept x when U ≤ p̃(x)/(M q(x)); the accepted draws are exact
 * draws from p, and the acceptance rate is Z_p/M (Z_p = ∫p̃).
 *
 * <p>Everything is in log space: the caller gives ln p̃, ln q and ln M. A draw where p̃(x) &gt; M q(x) (beyond a
 * relative rounding tolerance of 1e-9 on the log scale) proves the envelope wrong and throws an
 * {@link EnvelopeViolationException} naming x, rather than silently returning biased draws. The sampler counts
 * proposals and acceptances; it is not thread-safe.
 */
public final class RejectionSampler implements ContinuousSampler {
    private static final double TOLERANCE = 1e-9;

    private final UniformRandomProvider rng;
    private final LogDensity logTarget;
    private final ContinuousSampler proposal;
    private final LogDensity logProposal;
    private final double logEnvelope;
    private long proposals;
    private long accepted;

    private RejectionSampler(UniformRandomProvider rng, LogDensity logTarget, ContinuousSampler proposal,
            LogDensity logProposal, double logEnvelope) {
        this.rng = rng;
        this.logTarget = logTarget;
        this.proposal = proposal;
        this.logProposal = logProposal;
        this.logEnvelope = logEnvelope;
    }

    /**
     * @param logTarget ln p̃, the unnormalised target
     * @param proposal draws from q, using the same or another generator
     * @param logProposal ln q (normalised or not: only M·q matters)
     * @param logEnvelope ln M, finite, with ln M + ln q(x) ≥ ln p̃(x) for all x
     */
    public static RejectionSampler of(UniformRandomProvider rng, LogDensity logTarget, ContinuousSampler proposal,
            LogDensity logProposal, double logEnvelope) {
        Objects.requireNonNull(rng, "rng");
        Objects.requireNonNull(logTarget, "logTarget");
        Objects.requireNonNull(proposal, "proposal");
        Objects.requireNonNull(logProposal, "logProposal");
        if (!Double.isFinite(logEnvelope)) {
            throw new IllegalArgumentException("ln M must be finite, is " + logEnvelope);
        }
        return new RejectionSampler(rng, logTarget, proposal, logProposal, logEnvelope);
    }

    /**
     * @throws EnvelopeViolationException if a proposal shows p̃(x) &gt; M q(x)
     * @throws IllegalStateException if ln p̃ is NaN or +∞ at a proposal
     */
    @Override
    public double sample() {
        while (true) {
            double x = proposal.sample();
            proposals++;
            double lp = logTarget.value(x);
            if (Double.isNaN(lp) || lp == Double.POSITIVE_INFINITY) {
                throw new IllegalStateException("ln p̃(" + x + ") = " + lp);
            }
            if (lp == Double.NEGATIVE_INFINITY) {
                continue;
            }
            double le = logEnvelope + logProposal.value(x);
            if (lp - le > TOLERANCE * Math.max(1, Math.abs(lp))) {
                throw new EnvelopeViolationException("the envelope is too low at x = " + x + ": ln p̃(x) = " + lp
                    + " > ln M + ln q(x) = " + le + " (ln M = " + logEnvelope + "); increase M or widen q");
            }
            if (Math.log(InverseCdfSampler.openUniform(rng)) <= lp - le) {
                accepted++;
                return x;
            }
        }
    }

    public long proposals() {
        return proposals;
    }

    public long accepted() {
        return accepted;
    }

    /** Accepted / proposed so far (NaN before the first proposal); estimates Z_p/(M·Z_q), Z_p/M for a normalised q. */
    public double acceptanceRate() {
        return proposals == 0 ? Double.NaN : (double) accepted / proposals;
    }
}
