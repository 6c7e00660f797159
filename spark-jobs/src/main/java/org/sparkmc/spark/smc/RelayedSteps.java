package org.sparkmc.spark.smc;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.BarrierTaskContext;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.smc.BlockPropagation;
import org.sparkmc.core.smc.BlockSummary;
import org.sparkmc.core.smc.GlobalWeights;
import org.sparkmc.core.smc.ParticleKernel;
import org.sparkmc.core.smc.ResamplingScheme;
import org.sparkmc.core.smc.ResidualBlock;
import org.sparkmc.core.smc.SmcOptions;
import org.sparkmc.core.smc.WeightCollapseException;
import org.sparkmc.spark.sync.RelayAddress;
import org.sparkmc.spark.sync.RoundClient;
import scala.Tuple2;
import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.AbstractFunction1;

/**
 * A barrier task of the {@code smc} job's relayed steps: runs a chunk of time steps over its partition's blocks
 * without returning to the driver, exchanging through the {@link org.sparkmc.spark.sync.RoundRelay} what a per-step
 * Spark job would send to the driver and back. Per step, in rounds:
 * <ol>
 *   <li>its blocks' {@link ParticleBlock.Report}s; with every block's it folds the summaries in block order
 *   ({@link GlobalWeights#of}), exactly as the driver does;</li>
 *   <li>when the ESS calls for resampling and the scheme is residual: its blocks' residual parts, for the plan;</li>
 *   <li>when it resamples: the offspring runs ({@link Rebalancing#offspring}) whose destination block lies in another
 *   partition. It lays out its own blocks from its runs and the runs sent to it ({@link Rebalancing#assemble}): the
 *   particles of the single-machine resampler, as after the per-step job's shuffle.</li>
 * </ol>
 * With systematic-type draws and contiguous blocks per partition, most offspring stay in their partition, so only the
 * runs across a partition boundary travel. Returns its blocks after the chunk's last step, or nothing when the run ends
 * there and nobody will read them.
 */
final class RelayedSteps extends AbstractFunction1<Iterator<ParticleBlock>, Iterator<ParticleBlock>>
        implements Serializable {
    private static final long serialVersionUID = 1L;

    private final RelayAddress relay;
    private final ParticleKernel kernel;
    private final SmcOptions options;
    private final RandomStreams streams;
    private final long particles;
    private final int dim;
    private final BlockPartitioner partitioner;
    private final int first;
    private final List<double[]> observations;
    private final double previousLogSum;
    private final boolean copyInput;
    private final boolean keep;

    /**
     * @param copyInput whether the blocks Spark hands the task may be handed out again (a cached generation), so the
     *     task moves copies of them
     * @param keep whether the task returns its blocks after the last step (else nothing: the run ends there)
     */
    RelayedSteps(RelayAddress relay, ParticleKernel kernel, SmcOptions options,
            RandomStreams streams, long particles, int dim, BlockPartitioner partitioner, int first,
            List<double[]> observations, double previousLogSum, boolean copyInput, boolean keep) {
        this.relay = relay;
        this.kernel = kernel;
        this.options = options;
        this.streams = streams;
        this.particles = particles;
        this.dim = dim;
        this.partitioner = partitioner;
        this.first = first;
        this.observations = observations;
        this.previousLogSum = previousLogSum;
        this.copyInput = copyInput;
        this.keep = keep;
    }

    @Override
    public Iterator<ParticleBlock> apply(Iterator<ParticleBlock> partition) {
        BarrierTaskContext context = BarrierTaskContext.get();
        int me = context.partitionId();
        List<ParticleBlock> blocks = new ArrayList<>();
        for (java.util.Iterator<ParticleBlock> given = CollectionConverters.asJava(partition); given.hasNext();) {
            ParticleBlock b = given.next();
            blocks.add(copyInput ? b.copy() : b); // the task's own arrays, moved in place below
        }
        blocks.sort(Comparator.comparingInt(ParticleBlock::block));
        double[] scratch = ParticleBlock.scratchFor(blocks);
        Rebalancing.SpareArrays spare = new Rebalancing.SpareArrays();
        int numBlocks = partitioner.blocks();
        double prev = previousLogSum;
        int round = 0;
        try (RoundClient client = relay.connect(context)) {
            for (int k = 0; k < observations.size(); k++) {
                int n = first + k;
                List<ParticleBlock.Report> reports = new ArrayList<>(numBlocks);
                for (ParticleBlock b : blocks) {
                    b.moveInPlace(kernel, n, observations.get(k), prev, streams, scratch);
                    reports.add(b.report());
                }
                for (byte[] frame : client.exchange(round++, StepFrames.reports(reports))) {
                    reports.addAll(StepFrames.reports(frame));
                }
                GlobalWeights g;
                try {
                    g = GlobalWeights.of(n, summariesInBlockOrder(reports, numBlocks));
                } catch (WeightCollapseException e) { // the driver, folding the same round, reports it: end cleanly
                    client.done();
                    return CollectionConverters.asScala(java.util.Collections.emptyIterator());
                }
                if (!options.resamples(g.ess(), particles)) {
                    prev = g.logSum();
                    continue;
                }
                List<ResidualBlock> residuals = new ArrayList<>();
                if (options.scheme() == ResamplingScheme.RESIDUAL) {
                    for (ParticleBlock b : blocks) {
                        residuals.add(b.residualPart(g, particles));
                    }
                    for (byte[] frame : client.exchange(round++, StepFrames.residuals(residuals))) {
                        residuals.addAll(StepFrames.residuals(frame));
                    }
                }
                ResamplingPlan plan = ResamplingPlan.of(options.scheme(), g, particles, streams, n, () -> residuals);
                Rebalancing.Assembly mine = new Rebalancing.Assembly(dim, options.blockSize(), particles, spare,
                        destination -> partitioner.getPartition(destination) == me);
                ArrayList<Tuple2<Integer, Offspring>> away = new ArrayList<>();
                for (ParticleBlock b : blocks) {
                    away.addAll(Rebalancing.offspring(b, dim, options.blockSize(), g, plan, mine));
                }
                for (byte[] frame : client.exchange(round++, StepFrames.offspring(away))) {
                    for (Tuple2<Integer, Offspring> run : StepFrames.offspring(frame)) {
                        if (mine.holds(run._1())) {
                            mine.add(run._2());
                        }
                    }
                }
                List<ParticleBlock> resampled = mine.blocks();
                blocks.forEach(spare::give); // the old generation's arrays, for the next resampling's blocks
                blocks = resampled;
                prev = BlockPropagation.logSumAfterResampling(particles);
            }
            client.done();
        } catch (IOException e) {
            throw new UncheckedIOException("smc: the sync relay on the driver (" + relay + ") failed", e);
        }
        return CollectionConverters.asScala(keep ? blocks.iterator() : java.util.Collections.emptyIterator());
    }

    /** The summaries of blocks 0..B−1, in that order; fails unless every block reported once. */
    static List<BlockSummary> summariesInBlockOrder(List<ParticleBlock.Report> reports, int numBlocks) {
        reports.sort(Comparator.comparingInt(r -> r.summary().block()));
        List<BlockSummary> summaries = new ArrayList<>(numBlocks);
        for (ParticleBlock.Report r : reports) {
            summaries.add(r.summary());
        }
        if (summaries.size() != numBlocks) {
            throw new IllegalStateException(summaries.size() + " block summaries for " + numBlocks + " blocks");
        }
        return summaries;
    }
}
