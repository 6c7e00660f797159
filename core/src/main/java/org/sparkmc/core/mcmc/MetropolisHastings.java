package org.sparkmc.core.mcmc;

import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.Rng;

/**
 * Metropolis–Hastings (Metropolis et al. 1953; Hastings 1970): propose x' from a {@link Proposal}, accept with
 * probability min(1, p(x')/p(x) · q(x|x')/q(x'|x)).
 *
 * <p>The proposal scale s is the chain's state ({@link ProposalScale}). With adaptation on, each warm-up step
 * moves log s by a Robbins–Monro step γ_t·(accepted − a*) with γ_t = t^−0.6, toward the target acceptance rate a*
 * (0.44 for one dimension, 0.234 otherwise: Roberts &amp; Rosenthal 2001); after warm-up s is frozen.
 */
public final class MetropolisHastings implements Kernel<ProposalScale> {
    private static final long serialVersionUID = 1L;

    private final Proposal proposal;
    private final double initialScale;
    private final boolean adapt;
    private final double targetAcceptance;

    /**
     * @param targetAcceptance the acceptance rate adaptation aims at; NaN picks 0.44 in 1-d and 0.234 otherwise
     */
    public MetropolisHastings(Proposal proposal, double initialScale, boolean adapt, double targetAcceptance) {
        if (!(initialScale > 0) || Double.isInfinite(initialScale)) {
            throw new IllegalArgumentException("proposal scale must be positive and finite, is " + initialScale);
        }
        this.proposal = proposal;
        this.initialScale = initialScale;
        this.adapt = adapt;
        this.targetAcceptance = ScaleAdaptation.checkTarget(targetAcceptance);
    }

    /** Random-walk Metropolis with a Gaussian proposal. */
    public static MetropolisHastings randomWalk(double initialScale, boolean adapt) {
        return new MetropolisHastings(new GaussianRandomWalk(), initialScale, adapt, Double.NaN);
    }

    @Override
    public ProposalScale initialState(int dimension) {
        return new ProposalScale(Math.log(initialScale));
    }

    @Override
    public StateCodec<ProposalScale> codec() {
        return ProposalScale.CODEC;
    }

    /** The current proposal scale of a chain. */
    public static double scale(ChainState state) {
        return ((ProposalScale) state.kernelState()).value();
    }

    @Override
    public Transition step(Target target, ChainState state, ProposalScale scale, Rng rng, boolean warmup) {
        double[] x = state.position();
        double[] proposed = new double[x.length];
        double logHastings = proposal.propose(x, proposed, Math.exp(scale.log), rng);
        double logDensity = target.logDensity(proposed);
        double logAccept = logDensity - state.logDensity() + logHastings;
        boolean accepted = !Double.isNaN(logAccept) && Math.log(rng.uniform()) < logAccept;
        if (accepted) {
            state.moveTo(proposed, logDensity);
        }
        if (warmup && adapt) {
            scale.log += ScaleAdaptation.logScaleStep(state, accepted, targetAcceptance, x.length);
        }
        return Transition.metropolis(accepted, logAccept);
    }
}
