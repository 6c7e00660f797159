package org.sparkmc.core.mcmc;

import org.sparkmc.core.model.FullConditionals;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.Rng;

/**
 * Gibbs sampling (Geman &amp; Geman 1984; Gelfand &amp; Smith 1990) over the blocks of a {@link FullConditionals}
 * target. {@link Scan#SYSTEMATIC}: one step is a sweep over every block in order (the target's
 * {@link FullConditionals#sweep}). {@link Scan#RANDOM}: one step is B block updates, each of a block chosen uniformly
 * at random (B = number of blocks), so a step costs about one sweep; random scan is reversible, systematic scan is
 * not, and both leave the target invariant. Every update is accepted; there is nothing to tune.
 */
public final class GibbsSampler implements Kernel<Void> {
    private static final long serialVersionUID = 1L;

    /** The order in which blocks are updated. */
    public enum Scan {
        SYSTEMATIC, RANDOM
    }

    private final Scan scan;

    private GibbsSampler(Scan scan) {
        this.scan = scan;
    }

    public static GibbsSampler of(Scan scan) {
        return new GibbsSampler(java.util.Objects.requireNonNull(scan, "scan"));
    }

    @Override
    public Void initialState(int dimension) {
        return null;
    }

    @Override
    public StateCodec<Void> codec() {
        return StateCodec.none();
    }

    @Override
    public Transition step(Target target, ChainState state, Void none, Rng rng, boolean warmup) {
        if (!(target instanceof FullConditionals conditionals)) {
            throw new IllegalArgumentException("Gibbs sampling needs a target with full conditionals ("
                    + FullConditionals.class.getSimpleName() + "); " + target.getClass().getName() + " has none");
        }
        double[] x = state.position().clone();
        if (scan == Scan.SYSTEMATIC) {
            conditionals.sweep(x, rng);
        } else {
            int blocks = conditionals.blockCount();
            for (int i = 0; i < blocks; i++) {
                conditionals.sampleBlock(rng.provider().nextInt(blocks), x, rng);
            }
        }
        state.moveTo(x, target.logDensity(x));
        return Transition.GIBBS;
    }
}
