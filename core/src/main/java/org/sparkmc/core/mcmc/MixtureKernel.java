package org.sparkmc.core.mcmc;

import java.util.List;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.Rng;

/**
 * A random mixture of kernels Σ w_i K_i: one step applies K_i with probability w_i (Tierney 1994). Each part leaves
 * the target invariant, so the mixture does. A chain holds each part's state in a list; each part adapts its own
 * (warm-up only) on the steps it takes. A step reports the chosen part's acceptance statistic and statistics, the
 * other parts' statistics NaN ({@link PartStates}).
 */
public final class MixtureKernel extends CompositeKernel {
    private static final long serialVersionUID = 1L;

    private final double[] cumulative;

    private MixtureKernel(List<Kernel<?>> parts, double[] cumulative) {
        super(parts);
        this.cumulative = cumulative;
    }

    /** @param weights positive, not necessarily normalised */
    public static MixtureKernel of(List<? extends Kernel<?>> parts, double[] weights) {
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
        return new MixtureKernel(List.<Kernel<?>>copyOf(parts), cumulative);
    }

    @Override
    public Transition step(Target target, ChainState chain, List<Object> states, Rng rng, boolean warmup) {
        double u = rng.uniform();
        int i = 0;
        while (u >= cumulative[i]) {
            i++;
        }
        Transition t = parts.step(i, target, chain, states, rng, warmup);
        if (parts.statNames().isEmpty()) {
            return t;
        }
        double[] stats = new double[parts.statNames().size()];
        java.util.Arrays.fill(stats, Double.NaN);
        parts.copyStats(i, t, stats);
        return Transition.of(t.moved(), t.acceptStat(), stats);
    }
}
