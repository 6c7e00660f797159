package org.sparkmc.core.mcmc;

import java.io.Serializable;
import java.util.List;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.Rng;

/**
 * A Markov transition kernel that leaves a {@link Target} invariant. The kernel itself is an immutable, serializable
 * description; what a chain's kernel learns or counts lives in a typed state of type {@code S}, one per chain,
 * carried in {@link ChainState#kernelState()}. Adaptation may change that state only during warm-up, so the kept
 * draws come from a fixed kernel.
 *
 * <p>A step returns a {@link Transition}: whether the chain moved, an acceptance statistic in [0, 1] (Stan's
 * {@code accept_stat__}) and the kernel's own per-step statistics, named by {@link #statNames()} with Stan's names
 * where Stan has one ({@code stepsize__}, {@code treedepth__}, {@code n_leapfrog__}, {@code divergent__},
 * {@code energy__}); the chains job records them beside each draw. A state survives checkpoints through the
 * kernel's {@link #codec()}.
 *
 * @param <S> a chain's kernel state: mutable, owned by one chain, serializable (it travels with the chain)
 */
public interface Kernel<S> extends Serializable {

    /** The state a new chain starts with, for a target of the given dimension (null for a kernel without one). */
    S initialState(int dimension);

    /**
     * Advances the chain one step in place.
     *
     * @param chain   the chain's position, log density and iteration counters; moved with {@link ChainState#moveTo}
     * @param state   this chain's kernel state (the object in {@code chain.kernelState()})
     * @param warmup  whether this is a warm-up step (adaptation allowed)
     */
    Transition step(Target target, ChainState chain, S state, Rng rng, boolean warmup);

    /** Names of the per-step statistics of {@link Transition#stats()}, in order; none by default. */
    default List<String> statNames() {
        return List.of();
    }

    /** How a chain's state is written to a checkpoint and read back. */
    StateCodec<S> codec();

    /** {@link #step} with the chain's own state, for callers that hold the kernel as {@code Kernel<?>}. */
    default Transition advance(Target target, ChainState chain, Rng rng, boolean warmup) {
        return step(target, chain, stateOf(chain), rng, warmup);
    }

    /** The chain's state as this kernel's type (a chain started by this kernel holds one). */
    @SuppressWarnings("unchecked")
    default S stateOf(ChainState chain) {
        return (S) chain.kernelState();
    }

    /** The chain's state in the checkpoint's numeric form. */
    default double[] encodeState(ChainState chain) {
        return codec().encode(stateOf(chain));
    }
}
