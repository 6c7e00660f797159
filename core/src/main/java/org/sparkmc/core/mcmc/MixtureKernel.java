package org.sparkmc.core.mcmc;

import java.util.List;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.Rng;

/**
 * A random mixture of kernels Σ w_i K_i: one step applies K_i with probability w_i (Tierney 1994). Each part leaves
 * the target invariant, so the mixture does. Each part keeps its own tuning and adapts it (warm-up only) on the
 * steps it takes.
 */
public final class MixtureKernel implements Kernel {
    private static final long serialVersionUID = 1L;

    private final List<Kernel> parts;
    private final double[] cumulative;

    private MixtureKernel(List<Kernel> parts, double[] cumulative) {
        this.parts = parts;
        this.cumulative = cumulative;
    }

    /** @param weights positive, not necessarily normalised */
    public static MixtureKernel of(List<Kernel> parts, double[] weights) {
        if (parts.isEmpty() || parts.size() != weights.length) {
            throw new IllegalArgumentException("a mixture needs one weight per kernel and at least one kernel, has "
                    + parts.size() + " kernels and " + weights.length + " weights");
        }
        double total = 0;
        for (double w : weights) {
            if (!(w > 0) || Double.isInfinite(w)) {
                throw new IllegalArgumentException("mixture weights must be positive and finite, got " + w);
            }
            total += w;
        }
        double[] cumulative = new double[weights.length];
        double sum = 0;
        for (int i = 0; i < weights.length; i++) {
            sum += weights[i] / total;
            cumulative[i] = sum;
        }
        cumulative[weights.length - 1] = 1;
        return new MixtureKernel(List.copyOf(parts), cumulative);
    }

    @Override
    public double[] initialTuning(int dimension) {
        return PartTunings.initial(parts, dimension);
    }

    @Override
    public boolean step(Target target, ChainState state, Rng rng, boolean warmup) {
        double u = rng.uniform();
        int i = 0;
        while (u >= cumulative[i]) {
            i++;
        }
        return PartTunings.step(parts.get(i), i, target, state, rng, warmup);
    }
}
