package org.sparkmc.spark.lda;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.BarrierTaskContext;
import org.apache.spark.broadcast.Broadcast;
import org.sparkmc.core.lda.AdLda;
import org.sparkmc.core.lda.BlockSweeper;
import org.sparkmc.core.lda.DeltaSum;
import org.sparkmc.core.lda.LdaKernel;
import org.sparkmc.core.lda.LdaLogLikelihood;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.TopicWordCounts;
import org.sparkmc.core.lda.TopicWordDelta;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.sync.RelayAddress;
import org.sparkmc.spark.sync.RoundClient;
import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;
import scala.runtime.AbstractFunction1;

/**
 * A barrier task of the {@code lda} job's relayed mode: runs {@code steps} sync steps of its partition's blocks
 * without returning to the driver. After each step it sends its blocks' figures and the sum of their count changes
 * through the {@link org.sparkmc.spark.sync.RoundRelay}, gets every other task's back, and merges the changes into
 * its own copy of the global counts. Counts are integers, so this gives the counts the driver's block-by-block merge
 * gives in the job-per-step mode, and both modes give the same topics bit for bit. The driver merges nothing:
 * partition 0's task keeps the counts for it, and sends with its next frame the topic–word term of log p(w, z) after
 * each step and, after the steps the driver names and after the last, the counts themselves (one extra round at the
 * end carries the last step's). Returns its blocks as they are after the last step.
 */
final class RelayedSweeps extends AbstractFunction1<Iterator<LdaBlock>, Iterator<LdaBlock>>
        implements Serializable {
    private static final long serialVersionUID = 1L;

    private final RelayAddress relay;
    private final Broadcast<TopicWordCounts> start;
    private final LdaPriors priors;
    private final RandomStreams streams;
    private final LdaKernel kernel;
    private final int firstSweep;
    private final int steps;
    private final int sweepsPerStep;
    private final int numBlocks;
    private final int[] countsAfter;

    /**
     * @param countsAfter the sweeps (sorted) after which the driver wants the counts, besides the stage's last
     */
    RelayedSweeps(RelayAddress relay, Broadcast<TopicWordCounts> start, LdaPriors priors,
            RandomStreams streams, LdaKernel kernel, int firstSweep, int steps, int sweepsPerStep, int numBlocks,
            int[] countsAfter) {
        this.relay = relay;
        this.start = start;
        this.priors = priors;
        this.streams = streams;
        this.kernel = kernel;
        this.firstSweep = firstSweep;
        this.steps = steps;
        this.sweepsPerStep = sweepsPerStep;
        this.numBlocks = numBlocks;
        this.countsAfter = countsAfter.clone();
    }

    @Override
    public Iterator<LdaBlock> apply(Iterator<LdaBlock> partition) {
        BarrierTaskContext context = BarrierTaskContext.get();
        List<LdaBlock> blocks = new ArrayList<>();
        CollectionConverters.asJava(partition).forEachRemaining(blocks::add);
        TopicWordCounts global = start.value();
        BlockSweeper sweeper = new BlockSweeper(priors, kernel);
        DeltaSum sum = new DeltaSum(global);
        boolean keeper = context.partitionId() == 0;
        double wordTerm = Double.NaN;
        TopicWordCounts wanted = null;
        try (RoundClient client = relay.connect(context)) {
            for (int s = 0; s < steps; s++) {
                List<LdaBlock.BlockFigures> figures = new ArrayList<>(blocks.size());
                for (int i = 0; i < blocks.size(); i++) {
                    LdaBlock next = blocks.get(i).sweepInto(sum, sweeper, global, streams,
                            firstSweep + s * sweepsPerStep, sweepsPerStep);
                    blocks.set(i, next);
                    figures.add(next.figures());
                }
                TopicWordDelta own = sum.takeTotal();
                byte[][] others = client.exchange(s, ReportFrames.encode(figures, own, wordTerm, wanted));
                if (s == steps - 1 && !keeper) {
                    break; // the last merge is the keeper's alone
                }
                List<TopicWordDelta> all = new ArrayList<>(others.length + 1);
                all.add(own);
                for (byte[] frame : others) {
                    ReportFrames.Frame f = ReportFrames.decode(frame);
                    figures.addAll(f.head().blocks());
                    all.add(f.delta());
                }
                figures.sort(Comparator.comparingInt(LdaBlock.BlockFigures::block));
                checkEveryBlockOnce(figures.stream().map(LdaBlock.BlockFigures::block).toList(), numBlocks);
                global = AdLda.merge(global, all);
                if (keeper) {
                    wordTerm = LdaLogLikelihood.topicWordTerm(global, priors.beta());
                    int done = firstSweep + (s + 1) * sweepsPerStep;
                    wanted = s == steps - 1 || Arrays.binarySearch(countsAfter, done) >= 0 ? global : null;
                }
            }
            client.exchange(steps, ReportFrames.encode(List.of(), TopicWordDelta.none(global), wordTerm, wanted));
            client.done();
        } catch (IOException e) {
            throw new UncheckedIOException("lda: the sync relay on the driver (" + relay + ") failed", e);
        }
        return CollectionConverters.asScala(blocks.iterator());
    }

    /** The deltas of blocks 0..B−1, in that order (sorts {@code reports}); fails unless every block reported once. */
    static List<TopicWordDelta> deltasInBlockOrder(List<LdaBlock.BlockReport> reports, int numBlocks) {
        reports.sort(Comparator.comparingInt(LdaBlock.BlockReport::block));
        checkEveryBlockOnce(reports.stream().map(LdaBlock.BlockReport::block).toList(), numBlocks);
        return reports.stream().map(LdaBlock.BlockReport::delta).toList();
    }

    /** Fails unless {@code sortedBlocks} is 0..B−1. */
    static void checkEveryBlockOnce(List<Integer> sortedBlocks, int numBlocks) {
        for (int b = 0; b < sortedBlocks.size(); b++) {
            if (sortedBlocks.get(b) != b) {
                throw new IllegalStateException("block reports " + sortedBlocks + " are not blocks 0.."
                        + (numBlocks - 1));
            }
        }
        if (sortedBlocks.size() != numBlocks) {
            throw new IllegalStateException(sortedBlocks.size() + " block reports for " + numBlocks + " blocks");
        }
    }
}
