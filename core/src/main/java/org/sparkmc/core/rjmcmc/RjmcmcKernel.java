package org.sparkmc.core.rjmcmc;

import java.util.ArrayList;
import java.util.List;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.Kernel;
import org.sparkmc.core.mcmc.ObservedKernel;
import org.sparkmc.core.mcmc.StateCodec;
import org.sparkmc.core.mcmc.Transition;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.Rng;

/**
 * Reversible-jump MCMC (Green 1995): one step is a sweep of {@link Move}s — within-model Metropolis–Hastings or
 * Gibbs updates composed with dimension-changing jumps — each leaving the target invariant, so their composition
 * does too. The sweep is the target's own ({@link TransDimensionalTarget#sweep()}), or a list given here.
 *
 * <p>A step reports as moved whether the sweep changed the model index, so a job's "acceptance" is the rate of
 * model-changing sweeps, and reports every move's outcome ({@link Transition#moves()}: label slot and acceptance).
 * Nothing is adapted, so a chain needs no state; {@link #counted()} adds a {@link MoveCounter} that counts
 * proposals and acceptances per move type.
 */
public final class RjmcmcKernel implements Kernel<Void> {
    private static final long serialVersionUID = 1L;
    /** The most move labels a sweep may have. */
    public static final int MAX_LABELS = 32;

    private final List<Move> sweep;

    private RjmcmcKernel(List<Move> sweep) {
        this.sweep = sweep;
    }

    /** The kernel that applies each target's own sweep (what the chains job uses). */
    public static RjmcmcKernel ofTargetSweep() {
        return new RjmcmcKernel(null);
    }

    /** A kernel with an explicit sweep (e.g. to test a single move, or a broken variant of one). */
    public static RjmcmcKernel of(List<Move> sweep) {
        if (sweep.isEmpty()) {
            throw new IllegalArgumentException("a sweep needs at least one move");
        }
        checkLabels(sweep);
        return new RjmcmcKernel(List.copyOf(sweep));
    }

    @Override
    public Void initialState(int dimension) {
        return null;
    }

    @Override
    public StateCodec<Void> codec() {
        return StateCodec.none();
    }

    /** This kernel with a {@link MoveCounter}: what the chains job runs, so it can report rates per move type. */
    public ObservedKernel<Void> counted() {
        return ObservedKernel.of(this, List.of(new MoveCounter(this)));
    }

    /** The sweep this kernel applies to {@code target}. */
    public List<Move> sweep(Target target) {
        if (sweep != null) {
            return sweep;
        }
        if (target instanceof TransDimensionalTarget t) {
            List<Move> own = t.sweep();
            checkLabels(own);
            return own;
        }
        throw new InvalidInputException("kernel rjmcmc needs a reversible-jump model (one that defines its moves, "
                + "such as rj_normal_mixture); model " + target.getClass().getSimpleName() + " does not");
    }

    @Override
    public Transition step(Target target, ChainState state, Void none, Rng rng, boolean warmup) {
        List<Move> moves = sweep(target);
        double modelBefore = state.position()[0];
        int[] outcomes = new int[moves.size()];
        int slot = 0;
        for (int i = 0; i < outcomes.length; i++) {
            Move move = moves.get(i);
            int outcome = move.apply(target, state, rng);
            outcomes[i] = Move.outcome(slot + Move.label(outcome), Move.accepted(outcome));
            slot += move.labels().size();
        }
        boolean changed = state.position()[0] != modelBefore;
        return new Transition(changed, changed ? 1 : 0, new double[0], outcomes);
    }

    /** Every label of the sweep, in counter order. */
    public List<String> labels(Target target) {
        List<String> out = new ArrayList<>();
        for (Move m : sweep(target)) {
            out.addAll(m.labels());
        }
        return out;
    }

    static void checkLabels(List<Move> moves) {
        int n = 0;
        for (Move m : moves) {
            if (m.labels().isEmpty()) {
                throw new IllegalArgumentException("move " + m + " has no label");
            }
            n += m.labels().size();
        }
        if (n > MAX_LABELS) {
            throw new IllegalArgumentException("a sweep may have at most " + MAX_LABELS + " move labels, has " + n);
        }
    }
}
