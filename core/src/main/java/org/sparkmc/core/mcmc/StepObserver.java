package org.sparkmc.core.mcmc;

import java.io.Serializable;
import org.sparkmc.core.model.Target;

/**
 * Watches a chain's steps without influencing them and accumulates something per chain: a posterior mean image
 * ({@link RunningMeanObserver}), per-move acceptance counts of a reversible-jump sweep. Its accumulator of type
 * {@code A} travels with the chain (inside an {@link ObservedKernel}'s state) and survives checkpoints through
 * {@link #codec()}. Observers never touch the position or the random stream, so the draws are those of the
 * observed kernel alone.
 *
 * @param <A> the per-chain accumulator: mutable, owned by one chain, serializable
 */
public interface StepObserver<A> extends Serializable {

    /** A new chain's accumulator, for a target of the given dimension. */
    A initial(int dimension);

    /** Called after every step with the chain as the step left it and what the step reported. */
    void observe(Target target, ChainState chain, A accumulator, Transition transition, boolean warmup);

    /** How an accumulator is written to a checkpoint and read back. */
    StateCodec<A> codec();
}
