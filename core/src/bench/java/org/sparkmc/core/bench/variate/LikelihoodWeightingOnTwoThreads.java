package org.sparkmc.core.bench.variate;

import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.sparkmc.core.bayesnet.BayesNet;
import org.sparkmc.core.bayesnet.BifReader;
import org.sparkmc.core.bayesnet.BlockPlan;
import org.sparkmc.core.bayesnet.Evidence;
import org.sparkmc.core.bayesnet.LikelihoodWeighting;
import org.sparkmc.core.bayesnet.WeightedCounts;
import org.sparkmc.core.random.RandomStreams;

/**
 * The machine's ceiling for issue 17's {@code bn} row, without Spark: likelihood weighting on ALARM (no evidence,
 * query LVFAILURE), all blocks of a plan on one thread, then the same blocks split in two halves on two plain
 * threads and merged (checked equal to the one-thread statistic). Prints each repeat's seconds and speed-up.
 *
 * <pre>java -Xmx4g -Xms4g -XX:+AlwaysPreTouch -cp … org.sparkmc.core.bench.variate.LikelihoodWeightingOnTwoThreads
 *     [samples=10000000] [blockSize=100000] [repeats=6]</pre>
 */
public final class LikelihoodWeightingOnTwoThreads {
    private LikelihoodWeightingOnTwoThreads() {
    }

    public static void main(String[] args) throws Exception {
        long samples = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
        long blockSize = args.length > 1 ? Long.parseLong(args[1]) : 100_000L;
        int repeats = args.length > 2 ? Integer.parseInt(args[2]) : 6;
        String path = "data/alarm/alarm.bif";
        BayesNet net;
        try (Reader r = Files.newBufferedReader(Path.of(path), StandardCharsets.UTF_8)) {
            net = BifReader.read(r, path);
        }
        LikelihoodWeighting lw = LikelihoodWeighting.of(net, Evidence.parse(net, ""),
                net.requireVariable("LVFAILURE"));
        BlockPlan plan = new BlockPlan(samples, blockSize);
        RandomStreams streams = new RandomStreams(7);
        long half = plan.blocks() / 2;
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int rep = 1; rep <= repeats; rep++) {
                long t0 = System.nanoTime();
                WeightedCounts one = lw.run(streams, plan);
                double oneSeconds = (System.nanoTime() - t0) / 1e9;
                t0 = System.nanoTime();
                Future<WeightedCounts> first = pool.submit(() -> blocks(lw, streams, plan, 0, half));
                Future<WeightedCounts> second = pool.submit(() -> blocks(lw, streams, plan, half, plan.blocks()));
                WeightedCounts two = first.get().merge(second.get());
                double twoSeconds = (System.nanoTime() - t0) / 1e9;
                if (!one.equals(two)) {
                    throw new IllegalStateException("two threads' statistic differs from one thread's");
                }
                System.out.printf(Locale.ROOT, "RESULT rep=%d one_thread_s=%.3f two_threads_s=%.3f speedup=%.2f%n",
                        rep, oneSeconds, twoSeconds, oneSeconds / twoSeconds);
            }
        } finally {
            pool.shutdown();
        }
    }

    private static WeightedCounts blocks(LikelihoodWeighting lw, RandomStreams streams, BlockPlan plan, long from,
            long to) {
        WeightedCounts acc = lw.empty();
        for (long b = from; b < to; b++) {
            acc = acc.merge(lw.block(streams, b, plan.samplesIn(b)));
        }
        return acc;
    }
}
