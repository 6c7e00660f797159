package org.sparkmc.core.mcmc;

import java.util.List;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.Rng;

/**
 * A cycle of kernels K_1 ∘ … ∘ K_k: one step applies each in turn (Tierney 1994). Each part leaves the target
 * invariant, so the composition does. Each part keeps and adapts its own tuning (warm-up only). A step counts as
 * accepted when any part's move was accepted.
 */
public final class CycleKernel implements Kernel {
    private static final long serialVersionUID = 1L;

    private final List<Kernel> parts;

    private CycleKernel(List<Kernel> parts) {
        this.parts = parts;
    }

    public static CycleKernel of(List<Kernel> parts) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("a cycle needs at least one kernel");
        }
        return new CycleKernel(List.copyOf(parts));
    }

    public List<Kernel> parts() {
        return parts;
    }

    @Override
    public double[] initialTuning(int dimension) {
        return PartTunings.initial(parts, dimension);
    }

    @Override
    public boolean step(Target target, ChainState state, Rng rng, boolean warmup) {
        boolean any = false;
        for (int i = 0; i < parts.size(); i++) {
            any |= PartTunings.step(parts.get(i), i, target, state, rng, warmup);
        }
        return any;
    }
}
