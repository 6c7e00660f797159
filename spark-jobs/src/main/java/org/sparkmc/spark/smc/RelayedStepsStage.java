package org.sparkmc.spark.smc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.smc.ResamplingScheme;
import org.sparkmc.core.smc.SmcOptions;
import org.sparkmc.core.smc.StepSummary;
import org.sparkmc.core.smc.WeightCollapseException;
import org.sparkmc.spark.io.LineageCheckpoints;
import org.sparkmc.spark.sync.RelayedStage;
import org.sparkmc.spark.sync.RoundRelay;
import scala.Tuple2;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * The driver's side of the {@code smc} job's relayed steps: runs a chunk of time steps as one barrier stage of
 * {@link RelayedSteps} tasks, synchronised through a {@link RoundRelay} on the driver, and reads the stage's rounds as
 * they come. Each step's round of block reports goes to the job, which records the step ({@link Recorder}); a
 * resampling step's rounds of residual parts and offspring concern the tasks alone and are skipped. The stage ends in
 * a shuffle of the particles, which are kept, persisted and cut from the stage's lineage, unless the run ends with
 * the chunk.
 */
final class RelayedStepsStage {
    private final JavaSparkContext sc;
    private final SmcConfig config;
    private final RandomStreams streams;
    private final BlockPartitioner partitioner;

    /** The job's record of one step of the stage. */
    @FunctionalInterface
    interface Recorder {
        /**
         * Folds the reports of the chunk's step {@code k} (0 for its first) and records the step.
         *
         * @throws WeightCollapseException if its weights collapsed (the tasks then end the stage)
         */
        StepSummary record(int k, List<ParticleBlock.Report> reports);
    }

    /**
     * What a stage ran: its steps' summaries, and the particles after its last step, persisted and cut from the
     * stage's lineage (when they were not kept, the stage's output, which holds none and must not be read).
     */
    record Outcome(List<StepSummary> steps, JavaRDD<ParticleBlock> particles) {
    }

    RelayedStepsStage(JavaSparkContext sc, SmcConfig config, RandomStreams streams, BlockPartitioner partitioner) {
        this.sc = sc;
        this.config = config;
        this.streams = streams;
        this.partitioner = partitioner;
    }

    /**
     * Runs steps {@code first}, {@code first + 1}, … with {@code observations} (copies, each null or NaN-marked) over
     * {@code particles}; hands each step's reports to {@code recorder}, then its summary to {@code perStep}, as its
     * round comes. Without {@code keep} the particles are not kept after the last step.
     *
     * @param previousLogSum the log weight sum the first step starts from
     * @throws WeightCollapseException if a step's weights collapsed, also when a task saw it first
     */
    Outcome run(JavaRDD<ParticleBlock> particles, int first, List<double[]> observations, double previousLogSum,
            boolean keep, Recorder recorder, Consumer<StepSummary> perStep) {
        sc.setJobGroup("sparkmc-smc-step-" + first, "smc: steps " + first + "–" + (first + observations.size() - 1)
                + ", relayed", false);
        SmcOptions options = config.options();
        List<StepSummary> done = new ArrayList<>();
        try (RoundRelay relay = RoundRelay.onDriver(sc.getConf(), config.partitions())) {
            // Blocks Spark may hand out again (a cached generation) are copied before the task moves them in place.
            boolean copyInput = !particles.getStorageLevel().equals(StorageLevel.NONE());
            RelayedSteps task = new RelayedSteps(relay.address(), config.model().kernel(), options, streams,
                    config.particles(), config.model().stateDimension(), partitioner, first, observations,
                    previousLogSum, copyInput, keep);
            ClassTag<ParticleBlock> tag = ClassTag$.MODULE$.apply(ParticleBlock.class);
            JavaRDD<ParticleBlock> swept = new JavaRDD<>(particles.rdd().barrier().mapPartitions(task, true, tag), tag);
            // Through a shuffle: Spark reruns a failed barrier ShuffleMapStage, never a barrier ResultStage, and an
            // RDD computed from a barrier RDD without a shuffle between would run as a barrier stage itself. The
            // stage's blocks are always cut: a recomputation could not rerun it, its relay being gone.
            JavaPairRDD<Integer, ParticleBlock> shuffled = swept.mapToPair(b -> new Tuple2<>(b.block(), b))
                    .partitionBy(partitioner);
            JavaRDD<ParticleBlock> next = shuffled.values();
            if (keep) {
                next.persist(StorageLevel.MEMORY_AND_DISK());
                if (config.lineageDir() != null) {
                    next.checkpoint();
                } else {
                    next.rdd().localCheckpoint();
                }
            }
            // Nobody reads dropped particles: the stage alone, without a result stage that reads its empty shuffle.
            JavaFutureAction<?> job = keep ? next.countAsync() : RelayedStage.mapStageOnly(shuffled);
            // Per step a round of summaries, then for a resampling step a round of residual parts (residual
            // resampling only) and one of offspring, which the driver skips.
            int[] skip = {0};
            WeightCollapseException[] collapsed = {null};
            RelayedStage.run(relay, job, round -> {
                if (skip[0] > 0) {
                    skip[0]--;
                } else {
                    List<ParticleBlock.Report> reports = new ArrayList<>();
                    for (byte[] frame : round.frames()) {
                        reports.addAll(StepFrames.reports(frame));
                    }
                    StepSummary summary;
                    try {
                        summary = recorder.record(done.size(), reports);
                    } catch (WeightCollapseException e) { // the tasks fold the same round, fail alike and end
                        collapsed[0] = e;
                        return false; // so the stage is waited for, not cancelled: no task ends killed
                    }
                    done.add(summary);
                    perStep.accept(summary);
                    if (summary.resampled()) {
                        skip[0] = options.scheme() == ResamplingScheme.RESIDUAL ? 2 : 1;
                    }
                }
                return skip[0] > 0 || done.size() < observations.size();
            });
            if (collapsed[0] != null) {
                throw collapsed[0];
            }
            if (keep) {
                LineageCheckpoints.writeMarked(next);
            }
            return new Outcome(done, next);
        } catch (IOException e) {
            throw new UncheckedIOException("smc: cannot open the sync relay on the driver", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("smc: interrupted while waiting for the relayed steps", e);
        } catch (IllegalStateException e) {
            throw SmcJob.collapseWithin(e);
        }
    }
}
