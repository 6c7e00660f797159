package org.sparkmc.core.rjmcmc;

import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.Rng;

/**
 * A Metropolis–Hastings–Green move (Green 1995): a subclass proposes a position and its log correction
 * ({@link Proposed}, BEAST2's operator contract); this class accepts with probability
 * min(1, π(x')/π(x) · exp(correction)). A NaN or −∞ target density or correction is a rejection.
 */
public abstract class MetropolisMove implements Move {
    private static final long serialVersionUID = 1L;

    /** Proposes from {@code from} (not modified) into a new array. */
    public abstract Proposed propose(double[] from, Rng rng);

    @Override
    public final int apply(Target target, ChainState state, Rng rng) {
        Proposed p = propose(state.position(), rng);
        if (p.position() == null) {
            return Move.outcome(p.label(), false);
        }
        double correction = p.logCorrection();
        if (!(correction > Double.NEGATIVE_INFINITY) || Double.isNaN(correction)) {
            return Move.outcome(p.label(), false);
        }
        double logDensity = target.logDensity(p.position());
        double logAccept = logDensity - state.logDensity() + correction;
        boolean accepted = !Double.isNaN(logAccept) && (logAccept >= 0 || Math.log(rng.uniform()) < logAccept);
        if (accepted) {
            state.jumpTo(p.position(), logDensity);
        }
        return Move.outcome(p.label(), accepted);
    }
}
