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

    private CycleKernel(List<Kernel<?>> parts) {
        super(parts);
    }

    public static CycleKernel of(List<? extends Kernel<?>> parts) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("a cycle needs at least one kernel");
        }
        return new CycleKernel(List.<Kernel<?>>copyOf(parts));
    }

    @Override
    public Transition step(Target target, ChainState chain, List<Object> states, Rng rng, boolean warmup) {
        boolean any = false;
        double acceptSum = 0;
        double[] stats = new double[parts.statNames().size()];
        for (int i = 0; i < parts.size(); i++) {
            Transition t = parts.step(i, target, chain, states, rng, warmup);
            any |= t.moved();
            acceptSum += t.acceptStat();
            parts.copyStats(i, t, stats);
        }
        return Transition.of(any, acceptSum / parts.size(), stats);
    }
}
