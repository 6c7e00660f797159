package org.sparkmc.spark.smc;

import java.io.Serializable;
import java.util.List;
import org.apache.spark.TaskContext;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.smc.BlockPropagation;
import org.sparkmc.core.smc.BlockSummary;
import org.sparkmc.core.smc.GlobalWeights;
import org.sparkmc.core.smc.OffsetResampling;
import org.sparkmc.core.smc.ParticleKernel;
import org.sparkmc.core.smc.ResidualBlock;

/**
 * One block of particles as an executor holds it between time steps: the block's global index, its states (count×d
 * row-major), its log-weights, and the {@link BlockSummary} of the step that produced it (null for blocks that
 * were just created or rebalanced) with the seconds its move and weighting took. A block Spark hands a task is never
 * changed in place: a step makes a new block ({@link #propagate}), so a cached block can be read again (a retried
 * task, the resampling pass) and gives the same result. A task that runs several steps copies its blocks once and
 * then moves its own copies in place ({@link #moveInPlace}).
 */
public final class ParticleBlock implements Serializable {
    private static final long serialVersionUID = 1L;

    private int block;
    private double[] states;
    private double[] logWeights;
    private BlockSummary summary;
    private double seconds;

    /** For serialization frameworks only. */
    public ParticleBlock() {
    }

    ParticleBlock(int block, double[] states, double[] logWeights, BlockSummary summary) {
        this(block, states, logWeights, summary, 0);
    }

    private ParticleBlock(int block, double[] states, double[] logWeights, BlockSummary summary, double seconds) {
        this.block = block;
        this.states = states;
        this.logWeights = logWeights;
        this.summary = summary;
        this.seconds = seconds;
    }

    /** Block {@code block} before step 0: zero states (overwritten by the initial draw) and zero log-weights. */
    static ParticleBlock empty(int block, int count, int dimension) {
        return new ParticleBlock(block, new double[Math.multiplyExact(count, dimension)], new double[count], null);
    }

    /**
     * Moves and weights this block's particles to {@code step} with the block's stream keyed by (step, block), on
     * copies of its arrays, exactly as the single-machine {@code ParticleSystem} does for this block.
     */
    ParticleBlock propagate(ParticleKernel kernel, int step, double[] observation, double previousLogSum,
            RandomStreams streams) {
        ParticleBlock moved = copy();
        moved.moveInPlace(kernel, step, observation, previousLogSum, streams, new double[count()]);
        return moved;
    }

    /** This block with arrays of its own, which {@link #moveInPlace} may change without touching this one. */
    ParticleBlock copy() {
        return new ParticleBlock(block, states.clone(), logWeights.clone(), summary, seconds);
    }

    /**
     * {@link #propagate} without the copies: changes this block. Only for a block its task made itself (by
     * {@link #copy} or by resampling), never one Spark handed it, which a cache or a retried task may read again.
     *
     * @param scratch at least {@link #count()} doubles of working space
     */
    void moveInPlace(ParticleKernel kernel, int step, double[] observation, double previousLogSum,
            RandomStreams streams, double[] scratch) {
        long t0 = System.nanoTime();
        summary = BlockPropagation.propagate(kernel, step, observation, states, logWeights, 0, logWeights.length,
                block, previousLogSum, streams, scratch);
        seconds = (System.nanoTime() - t0) / 1e9;
    }

    /**
     * Working space for {@link #moveInPlace} over {@code blocks}: as long as the largest of them, not the configured
     * block size, which may exceed the particles (a block size of 2·10^9 over 1,000 particles is one block of 1,000).
     */
    static double[] scratchFor(List<ParticleBlock> blocks) {
        return new double[blocks.stream().mapToInt(ParticleBlock::count).max().orElse(0)];
    }

    public int block() {
        return block;
    }

    public int count() {
        return logWeights.length;
    }

    double[] states() {
        return states;
    }

    double[] logWeights() {
        return logWeights;
    }

    /** This block's part of residual resampling's weights after a step summarised by {@code g}. */
    ResidualBlock residualPart(GlobalWeights g, long particles) {
        return OffsetResampling.residualBlock(logWeights, 0, logWeights.length, block, g, particles);
    }

    /**
     * What the driver collects after a step: the summary, the seconds the block's move and weighting took, and the
     * partition that ran it (blocks of one partition run in turn, so the step's compute time is the busiest
     * partition's sum).
     */
    public record Report(BlockSummary summary, double seconds, int partition) implements Serializable {
    }

    Report report() {
        TaskContext task = TaskContext.get();
        return new Report(summary(), seconds, task == null ? 0 : task.partitionId());
    }

    /** Seconds the move and weighting that made this block took (0 for a block not made by a step). */
    double seconds() {
        return seconds;
    }

    BlockSummary summary() {
        if (summary == null) {
            throw new IllegalStateException("block " + block + " has not been weighted");
        }
        return summary;
    }
}
