package org.sparkmc.spark.bn;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaSparkContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparkmc.core.bayesnet.BlockPlan;
import org.sparkmc.core.bayesnet.LikelihoodWeighting;
import org.sparkmc.core.bayesnet.Marginal;
import org.sparkmc.core.bayesnet.RejectionSampling;
import org.sparkmc.core.bayesnet.WeightedCounts;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.DirectFunctions;
import org.sparkmc.spark.cli.Counted;
import org.sparkmc.spark.cli.Progress;

/**
 * Likelihood weighting or rejection sampling with the samples spread over Spark executors.
 *
 * <p>The samples are cut into blocks ({@link BlockPlan}); block b is drawn from the stream keyed by (method, b) —
 * never the partition — and summarised as a {@link WeightedCounts}, whose merge is exact (the sums are kept
 * exactly), so the estimate is bit-identical for any number of partitions or cores, and after task retries. The
 * blocks run as one Spark job of up to {@value #MAX_WAVES} waves of tasks, a task per partition and wave, each task
 * drawing a run of consecutive blocks and merging them; only a few hundred bytes per task come back. Spark starts the
 * tasks in order, so the waves end one after the other, and the driver logs a progress line as each one is complete.
 * One job rather than a job per wave: each job costs the driver a submission and a task binary, work it did beside
 * the first wave's tasks on the same cores.
 */
public final class WeightedSamplingJob {
    /** At most this many waves of tasks (progress lines), each with at least one block per partition. */
    public static final int MAX_WAVES = 10;
    /**
     * Least work for a task, in variables drawn (samples × the network's variables), unless there are fewer: about
     * 0.4 s of likelihood weighting on one core here. A task's start (its closure, its result, the JIT compiling the
     * serialisation they go through) costs about 10 ms, and a short run does not need ten progress lines: 10^7 ALARM
     * samples on two cores took 1.50–1.69 s in ten waves and 1.41–1.42 s in three (BENCHMARKS.md).
     */
    static final double MIN_TASK_DRAWS = 5e7;
    private static final Logger LOG = LoggerFactory.getLogger(WeightedSamplingJob.class);

    /** A task's share of the blocks: its number, its merged statistic and the seconds it took to draw it. */
    public record Part(int task, WeightedCounts counts, double seconds) implements Serializable {
    }

    /** Draws the statistic of one block: what a task runs. */
    interface BlockSampler extends Serializable {
        WeightedCounts block(RandomStreams streams, long blockId, long samples);
    }

    private final JavaSparkContext sc;
    private final BnConfig config;
    private final int partitions;
    private final double minTaskDraws;

    public WeightedSamplingJob(JavaSparkContext sc, BnConfig config, int partitions) {
        this(sc, config, partitions, MIN_TASK_DRAWS);
    }

    /** With tasks of at least {@code minTaskDraws} variables to draw: tests run small samples in several waves. */
    WeightedSamplingJob(JavaSparkContext sc, BnConfig config, int partitions, double minTaskDraws) {
        this.sc = sc;
        this.config = config;
        this.partitions = partitions;
        this.minTaskDraws = minTaskDraws;
    }

    /** The merged statistic of every block, and the progress history. */
    public record Outcome(WeightedCounts counts, List<BnResult.Step> history) {
    }

    public Outcome run() {
        WeightedCounts empty;
        BlockSampler sampler;
        if (config.method() == BnMethod.LW) {
            LikelihoodWeighting lw = LikelihoodWeighting.of(config.net(), config.evidence(), config.query());
            empty = lw.empty();
            sampler = lw::block;
        } else {
            RejectionSampling rs = RejectionSampling.of(config.net(), config.evidence(), config.query());
            empty = rs.empty();
            sampler = rs::block;
        }
        BlockPlan plan = new BlockPlan(config.samples(), config.blockSize());
        RandomStreams streams = new RandomStreams(config.seed());
        long blocks = plan.blocks();
        double minTaskSamples = minTaskDraws / config.net().size();
        int waves = waves(plan, partitions, minTaskSamples);
        int tasks = tasks(plan, partitions, minTaskSamples);
        int perWave = tasks / waves;
        LOG.info("bn: {} on {} ({} variables), evidence [{}], {} samples in {} blocks of {} over {}, {}; "
                + "seed {}", config.method().description(), config.networkPath(), config.net().size(),
                config.evidenceText(), config.samples(), blocks, config.blockSize(),
                Counted.of(partitions, "partition"), Counted.of(waves, "wave"), config.seed());
        Progress progress = Progress.forJob(LOG, waves);
        List<BnResult.Step> history = new ArrayList<>();
        WeightedCounts total = empty;
        long started = System.nanoTime();
        sc.setJobGroup("sparkmc-bn-sampling", "bn: " + config.method().option() + ", " + blocks + " blocks in "
                + waves + " waves of " + perWave + " tasks", false);
        BlockingQueue<Part> arrived = new LinkedBlockingQueue<>();
        List<Integer> taskIds = IntStream.range(0, tasks).boxed().collect(Collectors.toList());
        DirectFunctions.Collecting<Part> job = DirectFunctions.mapCollectAsync(sc.parallelize(taskIds, tasks),
                sampling(blocks, tasks, empty, sampler, plan, streams), (task, results) -> arrived.add(results.get(0)));
        Part[] parts = new Part[tasks];
        try {
            long previous = started;
            int complete = 0;
            for (int wave = 1; wave <= waves; wave++) {
                while (complete < wave * perWave) {
                    Part part = awaitTask(arrived, job);
                    parts[part.task()] = part;
                    while (complete < tasks && parts[complete] != null) {
                        complete++;
                    }
                }
                double compute = 0;
                for (int t = (wave - 1) * perWave; t < wave * perWave; t++) {
                    total = total.merge(parts[t].counts());
                    compute = Math.max(compute, parts[t].seconds()); // the wave's busiest task
                }
                long now = System.nanoTime();
                double seconds = (now - started) / 1e9;
                double elapsed = (now - previous) / 1e9;
                previous = now;
                history.add(new BnResult.Step(wave, total.samples(), Double.NaN, total.ess(), seconds));
                progress.step(wave, "sampling", progressLine(wave, waves, total, seconds) + String.format(Locale.ROOT,
                        "  compute %.2f s  sync %.2f s", compute, Math.max(0, elapsed - compute)), wave == waves);
            }
            job.get(); // every task is in: rethrows nothing new, but ends the job before the caller goes on
        } finally {
            job.cancel();
        }
        return new Outcome(total, history);
    }

    /**
     * Waves of tasks for {@code plan}'s blocks over {@code partitions}: at most {@value #MAX_WAVES} and at least one,
     * each task with at least one block and, where there is that much work, {@code minTaskSamples} samples.
     */
    static int waves(BlockPlan plan, int partitions, double minTaskSamples) {
        long byBlocks = plan.blocks() / partitions;
        long byWork = (long) ((double) plan.samples() / partitions / minTaskSamples);
        return (int) Math.max(1, Math.min(MAX_WAVES, Math.min(byBlocks, byWork)));
    }

    /** Tasks for {@code plan}'s blocks: one per partition and wave, never more than blocks. */
    static int tasks(BlockPlan plan, int partitions, double minTaskSamples) {
        return (int) Math.min(plan.blocks(), (long) waves(plan, partitions, minTaskSamples) * partitions);
    }

    /** The next task's share to arrive; rethrows the job's failure if it ended without one. */
    private static Part awaitTask(BlockingQueue<Part> arrived, DirectFunctions.Collecting<Part> job) {
        try {
            Part part;
            while ((part = arrived.poll(100, TimeUnit.MILLISECONDS)) == null) {
                if (job.isDone() && arrived.isEmpty()) {
                    job.get(); // throws the job's failure
                    throw new IllegalStateException("bn: the sampling job ended before every task reported");
                }
            }
            return part;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("bn: interrupted while sampling", e);
        }
    }

    /**
     * What task i of {@code tasks} runs: the i-th of {@code tasks} nearly equal runs of consecutive blocks out of
     * [0, blocks), merged, with the seconds it took. Only the task numbers are shipped, so the driver's share does not
     * grow with the number of blocks; a task checks between blocks whether Spark has killed it.
     */
    static org.apache.spark.api.java.function.Function<Integer, Part> sampling(long blocks, int tasks,
            WeightedCounts empty, BlockSampler sampler, BlockPlan plan, RandomStreams streams) {
        return i -> {
            long t0 = System.nanoTime();
            WeightedCounts acc = empty;
            TaskContext task = TaskContext.get();
            for (long b = shareStart(0, blocks, i, tasks); b < shareStart(0, blocks, i + 1, tasks); b++) {
                task.killTaskIfInterrupted();
                acc = acc.merge(sampler.block(streams, b, plan.samplesIn(b)));
            }
            return new Part(i, acc, (System.nanoTime() - t0) / 1e9);
        };
    }

    /** The first block of share i when [from, to) is cut into k runs whose lengths differ by at most one. */
    static long shareStart(long from, long to, int i, int k) {
        long span = to - from;
        return from + span / k * i + Math.min(i, span % k);
    }

    private String progressLine(int wave, int waves, WeightedCounts total, double seconds) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "wave %d/%d samples %,d/%,d  ESS %.4g  ",
                wave, waves, total.samples(), config.samples(), total.ess()));
        if (total.sumOfWeights() > 0) {
            Marginal m = total.posterior(config.net(), 0);
            line.append("P(").append(m.variable()).append(config.evidenceText().isEmpty() ? ") =" : " | e) =");
            for (int s = 0; s < m.states().length; s++) {
                line.append(String.format(Locale.ROOT, " %s %.5f±%s", m.states()[s], m.probabilities()[s],
                        org.sparkmc.spark.diagnose.SummaryFiles.formatted(m.standardErrors()[s], "%.5f")));
            }
        } else {
            line.append("every weight so far is zero");
        }
        return line.append(String.format(Locale.ROOT, "  %.3g samples/s", total.samples() / seconds)).toString();
    }
}
