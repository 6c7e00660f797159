package org.sparkmc.core.smc;

import java.util.Arrays;
import org.sparkmc.core.random.RandomStreams;

/**
 * One block's work in one time step: move and weight its particles with the block's random stream, keyed by
 * (step, block) under {@value #MOVE_STREAM} — never by partition, executor or thread — then summarise the block.
 * The single-machine {@link ParticleSystem} calls this for every block in turn; a partition calls it for the
 * blocks it owns and sends the {@link BlockSummary}s to the driver.
 *
 * <p>Log-weights are kept normalised by the previous step's log Σ r: the update is
 * lw_i ← (lw_i − log Σ_j r_{n−1}^j) + log α_n^i, so that log Σ_i exp(lw_i) after the update is the log-likelihood
 * increment log Σ_i W_{n−1}^i α_n^i whether or not the previous step resampled. After resampling (and before
 * step 0) every lw_i is 0 and the previous log-sum is log N ({@link #logSumAfterResampling}).
 */
public final class BlockPropagation {
    /** Stream purpose for moving a block of particles, keyed by (step, block). */
    public static final String MOVE_STREAM = "smc-move";

    private BlockPropagation() {
    }

    /**
     * Moves, weights and summarises particles [from, to), global block {@code block}, at step {@code step}.
     *
     * @param previousLogSum log Σ_j exp(lw_j) over all particles after the previous step (log N after
     *     resampling or at step 0)
     * @param scratch at least {@code to − from} doubles of working space
     * @return the block's summary; for a log-weight of NaN or +∞, one that carries it as its maximum, which
     *     {@link GlobalWeights#of} refuses (the block's log-weights are then left part-updated)
     */
    public static BlockSummary propagate(ParticleKernel kernel, int step, double[] data, double[] states,
            double[] logWeights, int from, int to, int block, double previousLogSum, RandomStreams streams,
            double[] scratch) {
        kernel.propagate(step, data, states, from, to, streams.rng(MOVE_STREAM, step, block), scratch);
        if (to <= from) {
            throw new IllegalArgumentException("empty block " + block + ": [" + from + ", " + to + ")");
        }
        double max = Double.NEGATIVE_INFINITY;
        for (int i = from; i < to; i++) {
            double lw = (logWeights[i] - previousLogSum) + scratch[i - from];
            if (!(lw < Double.POSITIVE_INFINITY)) { // the driver reports it, naming the step: no task failure
                return BlockSummary.nonFinite(block, to - from, lw, kernel.dimension());
            }
            logWeights[i] = lw;
            if (lw > max) {
                max = lw;
            }
        }
        return BlockSummary.of(block, states, logWeights, from, to, kernel.dimension(), scratch, max);
    }

    /** Sets the log-weights of particles [from, to) to 0, as after resampling. */
    public static void resetLogWeights(double[] logWeights, int from, int to) {
        Arrays.fill(logWeights, from, to, 0.0);
    }

    /** log N: the log-sum of N zero log-weights, passed as {@code previousLogSum} after resampling. */
    public static double logSumAfterResampling(long particles) {
        return Math.log(particles);
    }
}
