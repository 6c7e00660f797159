package org.sparkmc.spark.sync;

import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.apache.spark.JavaFutureActionWrapper;
import org.apache.spark.MapOutputStatistics;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkStatusTracker;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.scheduler.BarrierJobSlotsNumberCheckFailed;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.runtime.AbstractFunction1;

/**
 * The driver's loop over a running barrier stage's rounds: hands each round of a {@link RoundRelay} to a consumer
 * once and in order (a retried stage attempt's repeats are skipped: its tasks replay the same rounds from the same
 * streams), and ends when the stage's job does, with its failure if it failed. When the number of rounds depends on
 * what they carry (an SMC step that resamples takes more), the consumer, reading the same frames as the tasks, says
 * which round is the last.
 */
public final class RelayedStage {
    private static final Logger LOG = LoggerFactory.getLogger(RelayedStage.class);
    private static final long POLL_MILLIS = 200;
    /** How long {@link #mapStageOnly} waits to see a submitted stage start or fail. */
    private static final long ACCEPT_MILLIS = 10_000;

    private RelayedStage() {
    }

    /**
     * Whether a barrier stage of {@code partitions} tasks can start now: every task needs a slot at once, and Spark
     * refuses barrier stages under dynamic allocation.
     */
    public static boolean fits(JavaSparkContext sc, int partitions) {
        return !dynamicAllocation(sc) && partitions <= slots(sc);
    }

    /** The task slots of the executors registered now. */
    public static int slots(JavaSparkContext sc) {
        return slots(sc.sc());
    }

    private static int slots(SparkContext sc) {
        return sc.maxNumConcurrentTasks(sc.resourceProfileManager().defaultResourceProfile());
    }

    /**
     * Waits until the executors registered have {@code partitions} task slots, but never in local mode (its slots are
     * there from the start), under dynamic allocation (executors come with tasks), or past
     * {@code spark.scheduler.maxRegisteredResourcesWaitingTime} (30 s by default) from the context's start, Spark's
     * own bound on waiting for executors. A standalone cluster schedules before any executor has registered, so a
     * job whose first step was its first Spark job (chains) found no slot, and never relayed. Nor does it wait when
     * the application's settings cap its slots below {@code partitions} ({@link #slotsAtMost}).
     */
    public static void awaitSlots(JavaSparkContext sc, int partitions) {
        if (sc.isLocal() || dynamicAllocation(sc) || slots(sc) >= partitions
                || slotsAtMost(sc.getConf()) < partitions) {
            return;
        }
        long deadline = sc.startTime()
                + sc.getConf().getTimeAsMs("spark.scheduler.maxRegisteredResourcesWaitingTime", "30s");
        if (System.currentTimeMillis() >= deadline) { // past the start: a job choosing again each step waits no more
            return;
        }
        LOG.info("waiting up to {} s for the executors to register {} task slots (they have {})",
                (deadline - System.currentTimeMillis() + 999) / 1000, partitions, slots(sc));
        try {
            while (slots(sc) < partitions && System.currentTimeMillis() < deadline) {
                Thread.sleep(POLL_MILLIS / 2);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The most task slots the application's settings let its executors have (each task taking
     * {@code spark.task.cpus} cores): {@code spark.cores.max} cores on a standalone cluster (where Spark honours it),
     * {@code spark.executor.instances} executors of {@code spark.executor.cores} on YARN and Kubernetes (where that
     * number is fixed); {@link Integer#MAX_VALUE} when the settings do not say, or say it in a form Spark would refuse
     * itself.
     */
    static int slotsAtMost(SparkConf conf) {
        String master = conf.get("spark.master", "");
        try {
            int taskCpus = Math.max(1, conf.getInt("spark.task.cpus", 1));
            if ((master.startsWith("spark://") || master.startsWith("local-cluster"))
                    && conf.contains("spark.cores.max")) {
                return conf.getInt("spark.cores.max", 0) / taskCpus;
            }
            if ((master.startsWith("yarn") || master.startsWith("k8s")) && conf.contains("spark.executor.instances")) {
                long perExecutor = conf.getInt("spark.executor.cores", 1) / taskCpus; // as Spark counts them
                return (int) Math.min(Integer.MAX_VALUE, conf.getInt("spark.executor.instances", 0) * perExecutor);
            }
        } catch (NumberFormatException e) { // not a number: Spark's to refuse
            return Integer.MAX_VALUE;
        }
        return Integer.MAX_VALUE;
    }

    public static boolean dynamicAllocation(JavaSparkContext sc) {
        return sc.getConf().getBoolean("spark.dynamicAllocation.enabled", false);
    }

    /**
     * Runs a barrier stage whose output nobody reads: only the shuffle-map stage that writes {@code shuffled}'s
     * input (a barrier stage must feed a shuffle, as Spark reruns a failed barrier stage only as a shuffle-map stage),
     * without the result stage that an action would add to read the shuffle back, a few tens of milliseconds on two
     * cores. Through Spark's {@code submitMapStage}, which its Scala API keeps to Spark's own packages.
     *
     * <p>Spark checks that a barrier stage has a slot for every task when the stage is submitted. For a job it
     * retries a failed check ({@code spark.scheduler.barrier.maxConcurrentTasksCheck.interval} apart, at most
     * {@code .maxFailures} times), so a job submitted while a lost executor is being replaced waits for it; a map stage
     * submitted alone fails at once. This method retries it as Spark retries a job: it returns once the stage has
     * passed the check, or has failed for another reason, or has failed the check that often. It waits up to
     * {@link #ACCEPT_MILLIS} for Spark to check each attempt; a stage still unchecked then is returned as it is, and a
     * later failed check ends it as before this retry.
     *
     * @param shuffled a pair RDD straight out of a shuffle ({@code partitionBy}) whose map side is the barrier stage
     */
    public static JavaFutureAction<Void> mapStageOnly(JavaPairRDD<?, ?> shuffled) throws InterruptedException {
        SparkConf conf = shuffled.context().getConf();
        return mapStageOnly(shuffled,
                conf.getInt("spark.scheduler.barrier.maxConcurrentTasksCheck.maxFailures", 40),
                // Spark reads a number without a unit as seconds here.
                1000 * conf.getTimeAsSeconds("spark.scheduler.barrier.maxConcurrentTasksCheck.interval", "15s"));
    }

    /** As {@link #mapStageOnly(JavaPairRDD)}, with Spark's two settings given. */
    static JavaFutureAction<Void> mapStageOnly(JavaPairRDD<?, ?> shuffled, int maxFailures, long intervalMillis)
            throws InterruptedException {
        ShuffleDependency<?, ?, ?> dependency = (ShuffleDependency<?, ?, ?>) shuffled.rdd().dependencies().head();
        for (int failures = 1; ; failures++) {
            JavaFutureAction<Void> stage = new JavaFutureActionWrapper<>(
                    shuffled.context().submitMapStage(dependency), new AbstractFunction1<MapOutputStatistics, Void>() {
                        @Override
                        public Void apply(MapOutputStatistics statistics) {
                            return null;
                        }
                    });
            boolean refused;
            try {
                refused = failedSlotCheck(stage, shuffled.context().statusTracker());
            } catch (InterruptedException | RuntimeException e) {
                stage.cancel(true);
                throw e;
            }
            if (!refused || failures > maxFailures) {
                return stage;
            }
            LOG.warn("the barrier stage needs {} task slots at once and the executors have {} now; trying again in "
                    + "{} ms ({} of {})", dependency.rdd().getNumPartitions(), slots(shuffled.context()), intervalMillis,
                    failures, maxFailures);
            Thread.sleep(intervalMillis);
        }
    }

    /**
     * Waits until Spark has either started {@code stage}'s job (it passed the slot check) or ended it, and returns
     * whether it ended for want of slots. Gives up waiting after {@link #ACCEPT_MILLIS}, as if started.
     */
    private static boolean failedSlotCheck(JavaFutureAction<Void> stage, SparkStatusTracker status)
            throws InterruptedException {
        int job = stage.jobIds().get(0);
        long deadline = System.nanoTime() + ACCEPT_MILLIS * 1_000_000L;
        while (!stage.isDone() && status.getJobInfo(job).isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(POLL_MILLIS / 20);
        }
        if (!stage.isDone()) {
            return false;
        }
        try {
            stage.get();
            return false;
        } catch (ExecutionException e) {
            return e.getCause() instanceof BarrierJobSlotsNumberCheckFailed;
        } catch (CancellationException e) {
            return false; // the caller's to report
        }
    }

    /** What the driver does with a round: returns whether the stage's tasks go on to another round. */
    @FunctionalInterface
    public interface RoundConsumer {
        boolean accept(RoundRelay.Round round);
    }

    /**
     * Waits for {@code rounds} rounds of the stage that {@code job} runs, passing each to {@code consumer} on this
     * thread, then for the job; returns its result.
     *
     * @throws IllegalStateException when the job failed or ended before its last round (its cause is Spark's error)
     */
    public static <T> T run(RoundRelay relay, JavaFutureAction<T> job, int rounds, Consumer<RoundRelay.Round> consumer)
            throws InterruptedException {
        return run(relay, job, r -> {
            consumer.accept(r);
            return r.round() < rounds - 1;
        });
    }

    /**
     * As {@link #run(RoundRelay, JavaFutureAction, int, Consumer)} for a stage whose last round is the first for which
     * {@code consumer} returns false.
     */
    public static <T> T run(RoundRelay relay, JavaFutureAction<T> job, RoundConsumer consumer)
            throws InterruptedException {
        int next = 0;
        boolean more = true;
        try {
            while (more) {
                RoundRelay.Round round = relay.next(POLL_MILLIS);
                if (round == null && job.isDone()) {
                    // A last round may have been queued after the poll and before the job ended: looked for again.
                    round = relay.next(0);
                    if (round == null) {
                        result(job);
                        throw new IllegalStateException("the barrier stage ended after " + next + " rounds, before "
                                + "its last");
                    }
                }
                if (round != null && round.round() == next) {
                    more = consumer.accept(round);
                    next++;
                }
            }
            return result(job);
        } catch (RuntimeException | Error | InterruptedException e) {
            job.cancel(true);
            throw e;
        }
    }

    private static <T> T result(JavaFutureAction<T> job) throws InterruptedException {
        try {
            return job.get();
        } catch (ExecutionException e) {
            throw new IllegalStateException("the barrier stage failed: " + e.getCause().getMessage(), e.getCause());
        }
    }
}
