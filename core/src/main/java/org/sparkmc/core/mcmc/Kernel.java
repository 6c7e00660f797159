package org.sparkmc.core.mcmc;

import java.io.Serializable;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.Rng;

/**
 * A Markov transition kernel that leaves a {@link Target} invariant. The kernel itself is an immutable,
 * serializable description; a chain's tunable state lives in {@link ChainState#tuning()}, and adaptation may
 * change it only during warm-up, so the kept draws come from a fixed kernel.
 */
public interface Kernel extends Serializable {

    /** The tuning state a new chain starts with, for a target of the given dimension. */
    double[] initialTuning(int dimension);

    /**
     * Advances the chain one step in place.
     *
     * @param warmup whether this is a warm-up step (adaptation allowed)
     * @return whether the proposed move was accepted
     */
    boolean step(Target target, ChainState state, Rng rng, boolean warmup);
}
