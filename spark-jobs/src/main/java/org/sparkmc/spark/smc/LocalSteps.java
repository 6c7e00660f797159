package org.sparkmc.spark.smc;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.smc.BlockPropagation;
import org.sparkmc.core.smc.BlockSummary;
import org.sparkmc.core.smc.GlobalWeights;
import org.sparkmc.core.smc.ParticleKernel;
import org.sparkmc.core.smc.SmcOptions;
import org.sparkmc.core.smc.WeightCollapseException;

/**
 * Consecutive time steps of a filter whose blocks all live in one partition, run inside that partition's task: per
 * step the same computation as {@link SmcJob#step}'s Spark jobs (move and weight every block, fold the summaries
 * in block order, resample when ESS &lt; τ·N from the stream keyed by the step, rebuild the blocks), with no job,
 * shuffle or driver round trip between steps. The same functions on the same inputs give the same numbers, bit for
 * bit. One task holding every block is what a filter of few blocks gets anyway, and for it the per-step Spark job
 * would cost more than the step.
 */
public final class LocalSteps implements Serializable {
    private static final long serialVersionUID = 1L;

    /**
     * The chunk's outcome: the blocks after its last step (they stay on the executor), per step its global weights
     * and whether it resampled, the seconds the task computed for, and the weights' failure that ended the chunk
     * early (null if none), which the driver throws: a task that threw it would be retried and logged as lost.
     */
    public record Chunk(List<ParticleBlock> blocks, List<GlobalWeights> weights, boolean[] resampled,
            double seconds, WeightCollapseException failure) implements Serializable {
        /** The same without the particles: what the driver collects. */
        Chunk summaries() {
            return new Chunk(List.of(), weights, resampled, seconds, failure);
        }
    }

    private final ParticleKernel kernel;
    private final SmcOptions options;
    private final RandomStreams streams;
    private final int dim;
    private final long particles;

    LocalSteps(ParticleKernel kernel, SmcOptions options, RandomStreams streams, int dim, long particles) {
        this.kernel = kernel;
        this.options = options;
        this.streams = streams;
        this.dim = dim;
        this.particles = particles;
    }

    /**
     * Runs steps {@code first}, {@code first + 1}, … with the given observations (each null or NaN-marked as in
     * {@link SmcJob#step}) over every block of the filter.
     *
     * @param previousLogSum the log weight sum the first step starts from
     */
    Chunk run(Iterator<ParticleBlock> partition, int first, List<double[]> observations, double previousLogSum) {
        long t0 = System.nanoTime();
        List<ParticleBlock> blocks = new ArrayList<>();
        while (partition.hasNext()) {
            blocks.add(partition.next().copy()); // the task's own arrays, moved in place below
        }
        blocks.sort(Comparator.comparingInt(ParticleBlock::block));
        double[] scratch = ParticleBlock.scratchFor(blocks);
        Rebalancing.SpareArrays spare = new Rebalancing.SpareArrays();
        List<GlobalWeights> weights = new ArrayList<>(observations.size());
        boolean[] resampled = new boolean[observations.size()];
        double prev = previousLogSum;
        int blockSize = options.blockSize();
        for (int k = 0; k < observations.size(); k++) {
            int n = first + k;
            List<ParticleBlock> moved = blocks; // in place
            List<BlockSummary> summaries = new ArrayList<>(blocks.size());
            for (ParticleBlock b : moved) {
                b.moveInPlace(kernel, n, observations.get(k), prev, streams, scratch);
                summaries.add(b.summary());
            }
            GlobalWeights g;
            try {
                g = GlobalWeights.of(n, summaries);
            } catch (WeightCollapseException e) {
                return new Chunk(List.of(), weights, resampled, (System.nanoTime() - t0) / 1e9, e);
            }
            weights.add(g);
            if (options.resamples(g.ess(), particles)) {
                ResamplingPlan plan = ResamplingPlan.of(options.scheme(), g, particles, streams, n,
                        () -> moved.stream().map(b -> b.residualPart(g, particles)).toList());
                Rebalancing.Assembly all = new Rebalancing.Assembly(dim, blockSize, particles, spare,
                        destination -> true);
                for (ParticleBlock b : moved) {
                    Rebalancing.offspring(b, dim, blockSize, g, plan, all);
                }
                blocks = all.blocks();
                moved.forEach(spare::give); // the old generation's arrays, for the next resampling's blocks
                prev = BlockPropagation.logSumAfterResampling(particles);
                resampled[k] = true;
            } else {
                prev = g.logSum();
            }
        }
        return new Chunk(blocks, weights, resampled, (System.nanoTime() - t0) / 1e9, null);
    }
}
