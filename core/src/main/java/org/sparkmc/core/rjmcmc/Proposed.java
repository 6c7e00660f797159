package org.sparkmc.core.rjmcmc;

/**
 * What a Metropolis–Hastings move proposes: the new position (possibly of another dimension) and the three terms of
 * its log acceptance-ratio correction, so the acceptance probability is
 * min(1, π(x')/π(x) · j(m|m')/j(m'|m) · q(u')/q(u) · |det ∂h/∂(x,u)|).
 *
 * @param label            which of the move's labels (e.g. 0 = split, 1 = merge) this proposal counts under
 * @param position         the proposed position, or null when nothing can be proposed (e.g. a death move with no
 *                         empty component); the move then counts as proposed and rejected
 * @param logModelRatio    log j(m|m') − log j(m'|m): the reverse move-type choice over the forward one, including
 *                         any discrete choices (which component to split, which to kill)
 * @param logProposalRatio log q(u') − log q(u): the densities of the reverse and forward auxiliary variables
 *                         (and of discrete proposals such as reallocations)
 * @param logAbsDetJacobian log |det ∂h(x,u)/∂(x,u)| of the deterministic map that was applied
 */
public record Proposed(int label, double[] position, double logModelRatio, double logProposalRatio,
        double logAbsDetJacobian) {

    /** A proposal that cannot be made (counted as a rejection under {@code label}). */
    public static Proposed impossible(int label) {
        return new Proposed(label, null, Double.NEGATIVE_INFINITY, 0, 0);
    }

    /** A symmetric, volume-preserving, within-model proposal. */
    public static Proposed symmetric(int label, double[] position) {
        return new Proposed(label, position, 0, 0, 0);
    }

    /** The log of the move's full correction to the target ratio. */
    public double logCorrection() {
        return logModelRatio + logProposalRatio + logAbsDetJacobian;
    }
}
