package org.sparkmc.core.rjmcmc;

import java.util.ArrayList;
import java.util.List;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.Kernel;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.Rng;

/**
 * Reversible-jump MCMC (Green 1995): one step is a sweep of {@link Move}s — within-model Metropolis–Hastings or
 * Gibbs updates composed with dimension-changing jumps — each leaving the target invariant, so their composition
 * does too. The sweep is the target's own ({@link TransDimensionalTarget#sweep()}), or a list given here.
 *
 * <p>{@link #step} returns whether the sweep changed the model index, so a job's "acceptance" is the rate of
 * model-changing sweeps. Per move type, proposals and acceptances are counted in the chain's tuning array (nothing
 * is adapted): four counters per label slot — warm-up proposed, warm-up accepted, sampling proposed, sampling
 * accepted — for up to {@value #MAX_LABELS} labels over the sweep, in sweep order. {@link #moveRates} reads them.
 */
public final class RjmcmcKernel implements Kernel {
    private static final long serialVersionUID = 1L;
    /** The most move labels a sweep may have (the tuning array has 4 counters for each). */
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
    public double[] initialTuning(int dimension) {
        return new double[4 * MAX_LABELS];
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
    public boolean step(Target target, ChainState state, Rng rng, boolean warmup) {
        List<Move> moves = sweep(target);
        double modelBefore = state.position()[0];
        double[] counters = state.tuning();
        int slot = 0;
        for (Move move : moves) {
            int outcome = move.apply(target, state, rng);
            int at = 4 * (slot + Move.label(outcome)) + (warmup ? 0 : 2);
            counters[at]++;
            if (Move.accepted(outcome)) {
                counters[at + 1]++;
            }
            slot += move.labels().size();
        }
        return state.position()[0] != modelBefore;
    }

    /** Every label of the sweep, in counter order. */
    public List<String> labels(Target target) {
        List<String> out = new ArrayList<>();
        for (Move m : sweep(target)) {
            out.addAll(m.labels());
        }
        return out;
    }

    /**
     * Proposals and acceptances per label, summed over chains (a label used by several moves is summed too).
     *
     * @param warmup the warm-up counters, or (false) the sampling ones
     */
    public List<MoveRate> moveRates(Target target, List<ChainState> states, boolean warmup) {
        List<String> labels = labels(target);
        java.util.Map<String, long[]> sums = new java.util.LinkedHashMap<>();
        for (int s = 0; s < labels.size(); s++) {
            long[] sum = sums.computeIfAbsent(labels.get(s), k -> new long[2]);
            for (ChainState state : states) {
                int at = 4 * s + (warmup ? 0 : 2);
                sum[0] += (long) state.tuning()[at];
                sum[1] += (long) state.tuning()[at + 1];
            }
        }
        List<MoveRate> out = new ArrayList<>();
        sums.forEach((label, sum) -> out.add(new MoveRate(label, sum[0], sum[1])));
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
