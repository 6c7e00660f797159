package org.sparkmc.spark.lda;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.stream.IntStream;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.sparkmc.core.lda.TopicWordCounts;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.io.LineageCheckpoints;
import org.sparkmc.spark.sync.RelayedStage;
import org.sparkmc.spark.sync.RoundRelay;
import scala.Tuple2;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * The driver's side of the {@code lda} job's relayed sweeps: runs a call's steps as one barrier stage of
 * {@link RelayedSweeps} tasks, synchronised through a {@link RoundRelay} on the driver, and reads the stage's rounds as
 * they come. A step's round brings its blocks' figures, which the run takes ({@link Steps}); the next round brings
 * the step's topic–word term (and the counts, when wanted) from partition 0's task, and the run records the step then,
 * one round late; the stage's extra last round brings the last step's. The stage ends in a shuffle of the blocks,
 * which are kept, persisted and cut from the stage's lineage.
 */
final class RelayedSweepsStage {
    private final JavaSparkContext sc;
    private final AdLdaSpark.Options options;
    private final RandomStreams streams;
    private final long tokens;

    /** The run's side of the stage's steps, called on the driver's thread in step order. */
    interface Steps {
        /** Persists the stage's blocks and marks them for a lineage cut, before the stage starts. */
        void keep(JavaRDD<LdaBlock> next);

        /** Takes a step's figures, every block's (in no order); returns the busiest partition's sampling time. */
        double takeFigures(List<LdaBlock.BlockFigures> figures);

        /**
         * Records a step, one round late: {@code keeper} is partition 0's head of the next round, with the step's
         * topic–word term and the counts after it (null when not wanted), and {@code timing} has the step's times,
         * speed and sync bytes (its sweeps 0, its log-likelihood NaN).
         */
        void record(ReportFrames.Head keeper, AdLdaSpark.Step timing);
    }

    /** For a run of these options, with its streams and its number of tokens. */
    RelayedSweepsStage(JavaSparkContext sc, AdLdaSpark.Options options, RandomStreams streams, long tokens) {
        this.sc = sc;
        this.options = options;
        this.streams = streams;
        this.tokens = tokens;
    }

    /**
     * Runs {@code numSteps} steps of {@code sweepsPerStep} sweeps each over {@code blocks}, from sweep {@code first}
     * and the global counts {@code counts}, with the counts sent back after the sweeps {@code countsWanted} holds for
     * (and after the last); hands each step to {@code steps} as its rounds come. Returns the blocks after the last
     * step, persisted and written to their lineage checkpoint.
     *
     * @param started the {@link System#nanoTime()} the first step's time runs from
     */
    JavaRDD<LdaBlock> run(JavaRDD<LdaBlock> blocks, Broadcast<TopicWordCounts> counts, long started, int first,
            int numSteps, int sweepsPerStep, IntPredicate countsWanted, Steps steps) {
        int partitions = options.partitions();
        int numBlocks = options.numBlocks();
        int[] countsAfter = IntStream.rangeClosed(1, numSteps).map(i -> first + i * sweepsPerStep)
                .filter(countsWanted).toArray();
        sc.setJobGroup("sparkmc-lda-sweep-" + first, "lda: sweeps " + first + ".." + (first + numSteps * sweepsPerStep
                - 1) + ", relayed", false);
        try (RoundRelay relay = RoundRelay.onDriver(sc.getConf(), partitions)) {
            RelayedSweeps task = new RelayedSweeps(relay.address(), counts, options.priors(), streams,
                    options.kernel(), first, numSteps, sweepsPerStep, numBlocks, countsAfter);
            ClassTag<LdaBlock> tag = ClassTag$.MODULE$.apply(LdaBlock.class);
            JavaRDD<LdaBlock> swept = new JavaRDD<>(blocks.rdd().barrier().mapPartitions(task, true, tag), tag);
            // Through a shuffle: Spark reruns a failed barrier ShuffleMapStage (every task, from the same blocks), but
            // it would abort the job if a barrier ResultStage failed.
            JavaRDD<LdaBlock> next = swept.mapToPair(b -> new Tuple2<>(b.id(), b))
                    .partitionBy(new HashPartitioner(partitions)).values();
            steps.keep(next);
            JavaFutureAction<Long> job = next.countAsync();
            long[] stepStart = {started};
            AdLdaSpark.Step[] pending = {null};
            RelayedStage.run(relay, job, numSteps + 1, round -> {
                List<ReportFrames.Head> frames = new ArrayList<>(partitions);
                for (byte[] frame : round.frames()) {
                    frames.add(ReportFrames.decodeHead(frame));
                }
                ReportFrames.Head keeper = frames.get(0);
                if (pending[0] != null) {
                    steps.record(keeper, pending[0]);
                }
                if (round.round() < numSteps) {
                    List<LdaBlock.BlockFigures> figures = new ArrayList<>(numBlocks);
                    frames.forEach(f -> figures.addAll(f.blocks()));
                    double sampling = steps.takeFigures(figures);
                    double seconds = (round.relayedNanos() - stepStart[0]) / 1e9;
                    pending[0] = new AdLdaSpark.Step(0, Double.NaN, Double.NaN, seconds, sampling,
                            seconds > 0 ? tokens * (double) sweepsPerStep / seconds : 0, round.bytes(), true);
                    stepStart[0] = round.relayedNanos();
                }
            });
            LineageCheckpoints.writeMarked(next);
            return next;
        } catch (IOException e) {
            throw new UncheckedIOException("lda: cannot open the sync relay on the driver", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("lda: interrupted while waiting for the relayed sweeps", e);
        }
    }
}
