package org.sparkmc.spark.bench;

import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.sparkmc.core.bayesnet.BayesNet;
import org.sparkmc.core.bayesnet.BifReader;
import org.sparkmc.core.bayesnet.BlockPlan;
import org.sparkmc.core.bayesnet.Evidence;
import org.sparkmc.core.bayesnet.LikelihoodWeighting;
import org.sparkmc.core.bayesnet.WeightedCounts;
import org.sparkmc.core.mcmc.Kernel;
import org.sparkmc.core.mcmc.MetropolisHastings;
import org.sparkmc.core.model.BimodalMixture;
import org.sparkmc.core.model.EightSchoolsNoncentered;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.SparkSetup;
import org.sparkmc.spark.bn.BnConfig;
import org.sparkmc.spark.bn.BnMethod;
import org.sparkmc.spark.bn.ExactMode;
import org.sparkmc.spark.bn.WeightedSamplingJob;
import org.sparkmc.spark.chains.ChainsConfig;
import org.sparkmc.spark.diagnose.ByParameter;
import org.sparkmc.spark.io.ChainSeries;
import org.sparkmc.spark.diagnose.ParameterResult;
import org.sparkmc.spark.sync.SyncVia;

/**
 * The rows of issue 17's table that compare a Spark job on local[2] (or the master {@code spark.master} names)
 * with its single-thread peer inside one JVM, for
 * {@code submit/bench-all}: after {@value #WARMUP_PAIRS} untimed pairs of the full size (the JIT's warm-up: in one
 * JVM the {@code bn} job's first two runs at 10^7 samples took 3.4–3.6 s and the next ones 2.7–2.9 s), each repeat
 * runs the peer and then the job back to back (A B A B …) and prints one machine-readable line per pair,
 * {@code RESULT row=<name> rep=<r> peer=<units/s> job=<units/s> unit=<unit>}, for the script to take medians of.
 * The measured code is the existing benchmarks' own ({@link SmcBenchmark}, {@link ChainsOverheadBenchmark},
 * {@link BnLikelihoodWeightingBenchmark}, {@link DiagnosticsAtScaleBenchmark}); the {@code lda} rows run as separate
 * processes (Mallet lives only on core's bench class path).
 *
 * <p>Usage, from the project root:
 * <pre>
 * Issue17Rows smc N steps repeats
 * Issue17Rows chains bimodal|eight_schools chains roundSize rounds repeats
 * Issue17Rows bn samples blockSize repeats
 * Issue17Rows diagnose chains parameters draws repeats      (job only: RESULT … seconds=&lt;s&gt;)
 * </pre>
 */
public final class Issue17Rows {
    /** Untimed pairs of the full size before the timed ones. */
    static final int WARMUP_PAIRS = 2;

    private Issue17Rows() {
    }

    interface Pair {
        /** Seconds of the peer (index 0) and of the job (index 1), run back to back. */
        double[] run(long size) throws Exception;
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            throw new IllegalArgumentException("usage: Issue17Rows smc|chains|bn|diagnose ...");
        }
        // local[2] unless a master is set (submit/bench-all --cluster sets spark.master to its loopback cluster)
        SparkSession spark = SparkSetup.session("bench-all-" + args[0],
                System.getProperty("spark.master", "local[2]"));
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        try {
            switch (args[0]) {
                case "smc" -> smc(sc, Integer.parseInt(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]));
                case "chains" -> chains(sc, spark, args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]),
                        Integer.parseInt(args[4]), Integer.parseInt(args[5]));
                case "bn" -> bn(sc, Long.parseLong(args[1]), Long.parseLong(args[2]), Integer.parseInt(args[3]));
                case "diagnose" -> diagnose(sc, Integer.parseInt(args[1]), Integer.parseInt(args[2]),
                        Integer.parseInt(args[3]), Integer.parseInt(args[4]));
                default -> throw new IllegalArgumentException("unknown row " + args[0]);
            }
        } finally {
            spark.stop();
        }
    }

    /** {@value #WARMUP_PAIRS} untimed pairs, then {@code repeats} timed ones, all of {@code size}; rates = work / s. */
    private static void pairs(String row, String unit, double work, long size, int repeats, Pair pair)
            throws Exception {
        for (int w = 0; w < WARMUP_PAIRS; w++) {
            pair.run(size);
        }
        for (int r = 1; r <= repeats; r++) {
            double[] s = pair.run(size);
            System.out.printf(Locale.ROOT, "RESULT row=%s rep=%d peer=%.1f job=%.1f unit=%s peer_s=%.3f job_s=%.3f%n",
                    row, r, work / s[0], work / s[1], unit, s[0], s[1]);
        }
    }

    /** Nile bootstrap filter, 100 steps at most (T = 100): core's ParticleSystem on one thread vs the smc job. */
    private static void smc(JavaSparkContext sc, int n, int steps, int repeats) throws Exception {
        SmcBenchmark.loadNile();
        double[] ll = new double[1];
        pairs("smc-" + n, "particle-steps/s", (double) n * steps, n, repeats, size -> new double[] {
            SmcBenchmark.core((int) size, steps), SmcBenchmark.spark(sc, (int) size, steps, 0.5, 4096, ll)});
    }

    /** Plain single-thread loop with the same per-round diagnostics vs the chains job (no outputs). */
    private static void chains(JavaSparkContext sc, SparkSession spark, String which, int chains, int roundSize,
            int rounds, int repeats) throws Exception {
        chainsConfig(which, chains, roundSize, rounds); // an unknown target fails before any run
        pairs("chains-" + which, "draws/s", (double) chains * roundSize * rounds, roundSize, repeats, size -> {
                    ChainsConfig config = chainsConfig(which, chains, (int) size, rounds);
                    return new double[] {ChainsOverheadBenchmark.plainLoop(config),
                        ChainsOverheadBenchmark.sparkJob(sc, spark, config, false)};
                });
    }

    /**
     * A chains row's run: {@code which} (bimodal or eight_schools) with random-walk Metropolis at the row's scale, a
     * warm-up round and {@code rounds} rounds of {@code roundSize} per chain that never converge, on 2 partitions.
     */
    static ChainsConfig chainsConfig(String which, int chains, int roundSize, int rounds) {
        Target target;
        double scale;
        if (which.equals("bimodal")) {
            target = new BimodalMixture(5);
            scale = 10.0;
        } else if (which.equals("eight_schools")) {
            target = new EightSchoolsNoncentered(new double[] {28, 8, -3, 7, -1, 1, 18, 12},
                    new double[] {15, 10, 16, 11, 9, 11, 10, 18});
            scale = 0.5;
        } else {
            throw new IllegalArgumentException("chains target: bimodal or eight_schools, not " + which);
        }
        Kernel<?> kernel = MetropolisHastings.randomWalk(scale, true);
        return new ChainsConfig(which, target, "", "rwm", kernel, scale, true, Double.NaN, chains, roundSize, roundSize,
                rounds, Double.MAX_VALUE, 1.01, 1, 2, ChainsConfig.defaultDriverDraws(), SyncVia.AUTO);
    }

    /** ALARM, no evidence, query LVFAILURE: core's likelihood weighting on one thread vs the bn job's sampling. */
    private static void bn(JavaSparkContext sc, long samples, long blockSize, int repeats) throws Exception {
        String path = "data/alarm/alarm.bif";
        BayesNet net;
        try (Reader r = Files.newBufferedReader(Path.of(path), StandardCharsets.UTF_8)) {
            net = BifReader.read(r, path);
        }
        int q = net.requireVariable("LVFAILURE");
        Evidence e = Evidence.parse(net, "");
        LikelihoodWeighting lw = LikelihoodWeighting.of(net, e, q);
        pairs("bn", "samples/s", samples, samples, repeats, size -> {
            BnConfig config = new BnConfig(path, net, e, new int[] {q}, BnMethod.LW, ExactMode.NEVER, size,
                    blockSize, 2, 0, 1, 1, 7, 2, 1.01, 400);
            long t0 = System.nanoTime();
            WeightedCounts plain = lw.run(new RandomStreams(7), new BlockPlan(size, blockSize));
            double peer = (System.nanoTime() - t0) / 1e9;
            t0 = System.nanoTime();
            WeightedCounts job = new WeightedSamplingJob(sc, config, 2).run().counts();
            double jobSeconds = (System.nanoTime() - t0) / 1e9;
            if (!plain.equals(job)) {
                throw new IllegalStateException("bn: the job's estimate differs from core's for the same seed");
            }
            return new double[] {peer, jobSeconds};
        });
    }

    /**
     * The diagnose job's summarising step (every parameter's full summary and plot data by parameter on the executors,
     * {@code ByParameter} with {@code ParameterResult.of} and the job's partition count) on C × P × S draws made and
     * cached on the executors before timing (reading draws from files is not timed). Job only: wall seconds.
     */
    private static void diagnose(JavaSparkContext sc, int chains, int parameters, int draws, int repeats) {
        JavaRDD<ChainSeries> series = DiagnosticsAtScaleBenchmark.series(sc, chains, parameters, draws);
        long t0 = System.nanoTime();
        series.count();
        System.out.printf(Locale.ROOT, "diagnose: %d chains x %d parameters x %d draws made and cached in %.1f s%n",
                chains, parameters, draws, (System.nanoTime() - t0) / 1e9);
        int partitions = Math.max(1, Math.min(parameters, 4 * sc.defaultParallelism()));
        // One untimed run first, as the other rows' untimed pair: the first run also pays for the JIT and the heap's
        // growth. Its time is printed, not hidden.
        System.out.printf(Locale.ROOT, "diagnose: untimed first run %.1f s%n",
                summarise(series, partitions, parameters));
        for (int r = 1; r <= repeats; r++) {
            System.out.printf(Locale.ROOT, "RESULT row=diagnose rep=%d seconds=%.3f unit=s%n", r,
                    summarise(series, partitions, parameters));
        }
        series.unpersist();
    }

    /** Seconds to summarise every parameter of {@code series} by parameter, as the diagnose job does. */
    private static double summarise(JavaRDD<ChainSeries> series, int partitions, int parameters) {
        long t0 = System.nanoTime();
        List<ParameterResult> results = ByParameter.map(series, partitions, (p, d) -> ParameterResult.of("p" + p, d));
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (results.size() != parameters) {
            throw new IllegalStateException("diagnose: " + results.size() + " summaries for " + parameters);
        }
        return seconds;
    }
}
