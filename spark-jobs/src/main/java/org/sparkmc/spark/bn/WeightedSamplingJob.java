package org.sparkmc.spark.bn;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
import org.sparkmc.spark.cli.Progress;

/**
 * Likelihood weighting or rejection sampling with the samples spread over Spark executors.
 *
 * <p>The samples are cut into blocks ({@link BlockPlan}); block b is drawn from the stream keyed by (method, b) —
 * never the partition — and summarised as a {@link WeightedCounts}, whose merge is exact (the sums are kept
 * exactly), so the estimate is bit-identical for any number of partitions or cores, and after task retries. Each
 * task merges the blocks of its partition; the driver merges the partitions' statistics. The blocks run in up to
 * {@value #MAX_WAVES} waves (one Spark job each, all submitted at once so their tasks run back to back) and the
 * driver logs progress as each ends; only a few hundred bytes per partition come back.
 */
public final class WeightedSamplingJob {
    /** At most this many waves (Spark jobs), each with at least one block per partition. */
    public static final int MAX_WAVES = 10;
    private static final Logger LOG = LoggerFactory.getLogger(WeightedSamplingJob.class);

    /** A task's share of a wave: its merged statistic and the seconds it took to draw it. */
    public record Part(WeightedCounts counts, double seconds) implements Serializable {
    }

    /** Draws the statistic of one block: what a task runs. */
    interface BlockSampler extends Serializable {
        WeightedCounts block(RandomStreams streams, long blockId, long samples);
    }

    private final JavaSparkContext sc;
    private final BnConfig config;
    private final int partitions;

    public WeightedSamplingJob(JavaSparkContext sc, BnConfig config, int partitions) {
        this.sc = sc;
        this.config = config;
        this.partitions = partitions;
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
        int waves = (int) Math.max(1, Math.min(MAX_WAVES, blocks / partitions));
        LOG.info("bn: {} on {} ({} variables), evidence [{}], {} samples in {} blocks of {} over {} partitions, "
                + "{} waves; seed {}", config.method().description(), config.networkPath(), config.net().size(),
                config.evidenceText(), config.samples(), blocks, config.blockSize(), partitions, waves, config.seed());
        Progress progress = Progress.forJob(LOG, waves);
        List<BnResult.Step> history = new ArrayList<>();
        WeightedCounts total = empty;
        long started = System.nanoTime();
        // Every wave is submitted at once: Spark runs their tasks back to back, so no core waits for the driver
        // between waves, while the driver merges and reports each wave in order as it ends.
        List<DirectFunctions.Collecting<Part>> jobs = new ArrayList<>(waves);
        long from = 0;
        for (int wave = 1; wave <= waves; wave++) {
            long to = shareStart(0, blocks, wave, waves);
            sc.setJobGroup("sparkmc-bn-wave-" + wave, "bn: " + config.method().option() + " wave " + wave + "/"
                    + waves + " (blocks " + from + "–" + (to - 1) + ")", false);
            jobs.add(wave(from, to, empty, sampler, plan, streams));
            from = to;
        }
        try {
            long previous = started;
            for (int wave = 1; wave <= waves; wave++) {
                List<Part> parts = jobs.get(wave - 1).get();
                double compute = 0;
                for (Part part : parts) {
                    total = total.merge(part.counts());
                    compute = Math.max(compute, part.seconds()); // one task per partition: the busiest one
                }
                long now = System.nanoTime();
                double seconds = (now - started) / 1e9;
                double job = (now - previous) / 1e9;
                previous = now;
                history.add(new BnResult.Step(wave, total.samples(), Double.NaN, total.ess(), seconds));
                progress.step(wave, "sampling", progressLine(wave, waves, total, seconds) + String.format(Locale.ROOT,
                        "  compute %.2f s  sync %.2f s", compute, Math.max(0, job - compute)), wave == waves);
            }
        } finally {
            jobs.forEach(DirectFunctions.Collecting::cancel);
        }
        return new Outcome(total, history);
    }

    /**
     * Blocks [from, to) as one Spark job: task i of k draws the i-th of k nearly equal runs of consecutive blocks
     * and returns their merged statistic with the seconds it took. Only the task numbers are shipped, so the
     * driver's share does not grow with the number of blocks; a task checks between blocks whether Spark has killed
     * it. Submitted now, with a named function object: a lambda's closure cleaning parsed Spark's class files on the
     * driver for every wave, while the first wave's tasks waited for the cores.
     */
    DirectFunctions.Collecting<Part> wave(long from, long to, WeightedCounts empty, BlockSampler sampler,
            BlockPlan plan, RandomStreams streams) {
        List<Integer> ids = taskIds(from, to, partitions);
        int tasks = ids.size();
        return DirectFunctions.mapCollectAsync(sc.parallelize(ids, tasks), i -> {
            long t0 = System.nanoTime();
            WeightedCounts acc = empty;
            TaskContext task = TaskContext.get();
            for (long b = shareStart(from, to, i, tasks); b < shareStart(from, to, i + 1, tasks); b++) {
                task.killTaskIfInterrupted();
                acc = acc.merge(sampler.block(streams, b, plan.samplesIn(b)));
            }
            return new Part(acc, (System.nanoTime() - t0) / 1e9);
        });
    }

    /** What a wave of blocks [from, to) ships to its tasks: their numbers, one per partition at most. */
    static List<Integer> taskIds(long from, long to, int partitions) {
        return IntStream.range(0, (int) Math.min(partitions, to - from)).boxed().collect(Collectors.toList());
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
            line.append("P(").append(m.variable()).append(") =");
            for (int s = 0; s < m.states().length; s++) {
                line.append(String.format(Locale.ROOT, " %s %.5f±%.5f", m.states()[s], m.probabilities()[s],
                        m.standardErrors()[s]));
            }
        } else {
            line.append("every weight so far is zero");
        }
        return line.append(String.format(Locale.ROOT, "  %.3g samples/s", total.samples() / seconds)).toString();
    }
}
