package org.sparkmc.spark.bench;

import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.sparkmc.core.bayesnet.BayesNet;
import org.sparkmc.core.bayesnet.BifReader;
import org.sparkmc.core.bayesnet.BlockPlan;
import org.sparkmc.core.bayesnet.Evidence;
import org.sparkmc.core.bayesnet.LikelihoodWeighting;
import org.sparkmc.core.bayesnet.WeightedCounts;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.SparkSetup;
import org.sparkmc.spark.bn.BnConfig;
import org.sparkmc.spark.bn.BnMethod;
import org.sparkmc.spark.bn.ExactMode;
import org.sparkmc.spark.bn.WeightedSamplingJob;

/**
 * Likelihood-weighting samples per second on ALARM: core's {@code LikelihoodWeighting.run} on one thread versus the
 * bn job's sampling ({@link WeightedSamplingJob}: blocks spread over partitions, statistics merged on the driver;
 * no outputs) on local[2], for the same samples, blocks and seed — the estimates are checked to be bit-identical.
 * Prints a Markdown table: samples/s, samples/s per core, and parallel efficiency = (job per core) / (core, 1
 * thread). Median of 3 timed runs after one untimed run. The last column is the process's CPU time over the job's wall
 * time (the cores the job actually got): on a shared machine it shows how much of local[2] was really available.
 *
 * <p>Usage (from the project root): {@code submit/bench spark-jobs org.sparkmc.spark.bench.BnLikelihoodWeightingBenchmark
 * [samples] [blockSize] [network]}
 */
public final class BnLikelihoodWeightingBenchmark {

    public static void main(String[] args) throws Exception {
        long samples = args.length > 0 ? Long.parseLong(args[0]) : 5_000_000L;
        long blockSize = args.length > 1 ? Long.parseLong(args[1]) : 100_000L;
        String path = args.length > 2 ? args[2] : "data/alarm/alarm.bif";
        BayesNet net;
        try (Reader r = Files.newBufferedReader(Path.of(path), StandardCharsets.UTF_8)) {
            net = BifReader.read(r, path);
        }
        int cores = 2;
        SparkSession spark = SparkSetup.session("bn-lw-benchmark", "local[" + cores + "]");
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        System.out.printf("%nALARM, query LVFAILURE, %,d samples in blocks of %,d; core on 1 thread vs the bn job on "
                + "local[%d] (%d partitions); %s, %d available processors%n%n", samples, blockSize, cores, cores,
                java.time.LocalDate.now(), Runtime.getRuntime().availableProcessors());
        System.out.println("| evidence | core, 1 thread (samples/s) | bn job local[2] (samples/s) | job per core "
                + "(samples/s) | parallel efficiency | same estimate | cores obtained by the job |");
        System.out.println("|---|---|---|---|---|---|---|");
        int q = net.requireVariable("LVFAILURE");
        for (String evidence : new String[] {"", "HISTORY=TRUE,CVP=LOW"}) {
            Evidence e = Evidence.parse(net, evidence);
            LikelihoodWeighting lw = LikelihoodWeighting.of(net, e, q);
            BlockPlan plan = new BlockPlan(samples, blockSize);
            BnConfig config = new BnConfig(path, net, e, new int[] {q}, BnMethod.LW, ExactMode.NEVER, samples,
                    blockSize, 2, 0, 1, 1, 7, cores, 1.01, 400);
            WeightedCounts[] plainResult = new WeightedCounts[1];
            WeightedCounts[] jobResult = new WeightedCounts[1];
            double plain = median(() -> {
                long t0 = System.nanoTime();
                plainResult[0] = lw.run(new RandomStreams(7), plan);
                return (System.nanoTime() - t0) / 1e9;
            });
            double[] obtained = new double[3];
            int[] run = {-1};
            double job = median(() -> {
                long t0 = System.nanoTime();
                long c0 = cpuNanos();
                jobResult[0] = new WeightedSamplingJob(sc, config, cores).run().counts();
                double wall = (System.nanoTime() - t0) / 1e9;
                if (run[0] >= 0) {
                    obtained[run[0]] = (cpuNanos() - c0) / 1e9 / wall;
                }
                run[0]++;
                return wall;
            });
            Arrays.sort(obtained);
            double plainRate = samples / plain;
            double jobRate = samples / job;
            System.out.printf("| %s | %,.0f | %,.0f | %,.0f | %.2f | %s | %.2f |%n",
                    evidence.isEmpty() ? "none" : evidence, plainRate, jobRate, jobRate / cores,
                    jobRate / cores / plainRate, plainResult[0].equals(jobResult[0]) ? "yes" : "NO", obtained[1]);
        }
        spark.stop();
    }

    /** CPU time of this JVM (all threads), or 0 where the platform does not report it. */
    private static long cpuNanos() {
        java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : 0;
    }

    interface Timed {
        double seconds() throws Exception;
    }

    private static double median(Timed run) throws Exception {
        run.seconds();
        double[] s = {run.seconds(), run.seconds(), run.seconds()};
        Arrays.sort(s);
        return s[1];
    }
}
