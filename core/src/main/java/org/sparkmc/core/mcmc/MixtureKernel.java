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
    /** A deliberately wrong choice by the chain's state (see {@link #choosingBySign}), for tests that must fail. */
    private final boolean bySign;

    private MixtureKernel(List<Kernel<?>> parts, double[] cumulative, boolean bySign) {
        super(parts);
        this.cumulative = cumulative;
        this.bySign = bySign;
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
        return new MixtureKernel(List.<Kernel<?>>copyOf(parts), cumulative, false);
    }

    /**
     * A deliberately wrong mixture of two kernels whose choice depends on the chain's state: the first part when the
     * first coordinate is positive, the second otherwise. Each part leaves the target invariant, but a choice that
     * depends on where the chain is does not (the chain lingers where the part chosen there moves slowly). For tests
     * that must be able to fail.
     */
    static MixtureKernel choosingBySign(Kernel<?> positive, Kernel<?> otherwise) {
        return new MixtureKernel(List.of(positive, otherwise), new double[] {0.5, 1}, true);
    }

    @Override
    public Transition step(Target target, ChainState chain, List<Object> states, Rng rng, boolean warmup) {
        int i = 0;
        if (bySign) {
            i = chain.position()[0] > 0 ? 0 : 1;
        } else {
            double u = rng.uniform();
            while (u >= cumulative[i]) {
                i++;
            }
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
