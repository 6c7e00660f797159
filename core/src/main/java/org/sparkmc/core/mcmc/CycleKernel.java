package org.sparkmc.core.mcmc;

import java.util.List;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.Rng;

/**
 * A cycle of kernels K_1 ∘ … ∘ K_k: one step applies each in turn (Tierney 1994). Each part leaves the target
 * invariant, so the composition does. A chain holds each part's state in a list; each part adapts its own (warm-up
 * only). A step counts as moved when any part moved; its acceptance statistic is the parts' mean, and its
 * statistics are the parts' ({@link PartStates}).
 */
public final class CycleKernel extends CompositeKernel {
    private static final long serialVersionUID = 1L;

    /** A deliberately wrong cycle (see {@link #keepingTheBestPart}), for tests that must fail. */
    private final boolean best;

    private CycleKernel(List<Kernel<?>> parts, boolean best) {
        super(parts);
        this.best = best;
    }

    public static CycleKernel of(List<? extends Kernel<?>> parts) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("a cycle needs at least one kernel");
        }
        return new CycleKernel(List.<Kernel<?>>copyOf(parts), false);
    }

    /**
     * A deliberately wrong cycle that runs every part from the point where the step began and keeps the part's
     * result of highest density instead of composing the parts: each part leaves the target invariant, but choosing
     * among their results by density pulls the chain toward the mode. For tests that must be able to fail.
     */
    static CycleKernel keepingTheBestPart(List<? extends Kernel<?>> parts) {
        return new CycleKernel(List.<Kernel<?>>copyOf(parts), true);
    }

    @Override
    public Transition step(Target target, ChainState chain, List<Object> states, Rng rng, boolean warmup) {
        boolean any = false;
        double acceptSum = 0;
        double[] stats = new double[parts.statNames().size()];
        if (best) {
            return bestPart(target, chain, states, rng, warmup, stats);
        }
        for (int i = 0; i < parts.size(); i++) {
            Transition t = parts.step(i, target, chain, states, rng, warmup);
            any |= t.moved();
            acceptSum += t.acceptStat();
            parts.copyStats(i, t, stats);
        }
        return Transition.of(any, acceptSum / parts.size(), stats);
    }

    /** The wrong cycle's step: every part from the same start, the result of highest density kept. */
    private Transition bestPart(Target target, ChainState chain, List<Object> states, Rng rng, boolean warmup,
            double[] stats) {
        double[] start = chain.position().clone();
        double startLogDensity = chain.logDensity();
        double[] kept = start;
        double keptLogDensity = startLogDensity;
        double acceptSum = 0;
        for (int i = 0; i < parts.size(); i++) {
            chain.moveTo(start, startLogDensity);
            Transition t = parts.step(i, target, chain, states, rng, warmup);
            acceptSum += t.acceptStat();
            parts.copyStats(i, t, stats);
            if (i == 0 || chain.logDensity() > keptLogDensity) {
                kept = chain.position().clone();
                keptLogDensity = chain.logDensity();
            }
        }
        chain.moveTo(kept, keptLogDensity);
        return Transition.of(!java.util.Arrays.equals(kept, start), acceptSum / parts.size(), stats);
    }
}
