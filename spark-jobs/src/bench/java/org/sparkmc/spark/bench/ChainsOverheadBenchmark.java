package org.sparkmc.spark.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.sparkmc.core.diagnostics.FullParameterSummary;
import org.sparkmc.core.diagnostics.ParameterSummary;
import org.sparkmc.core.mcmc.ChainRound;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.Kernel;
import org.sparkmc.core.mcmc.MetropolisHastings;
import org.sparkmc.core.mcmc.RoundResult;
import org.sparkmc.core.model.BimodalMixture;
import org.sparkmc.core.model.EightSchoolsNoncentered;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.SparkSetup;
import org.sparkmc.spark.chains.ChainsConfig;
import org.sparkmc.spark.chains.ChainsJob;
import org.sparkmc.spark.chains.ChainsOutput;
import org.sparkmc.spark.chains.ChainsResult;
import org.sparkmc.spark.diagnose.ParameterResult;
import org.sparkmc.spark.io.AtomicOutput;
import org.sparkmc.spark.sync.SyncVia;

/**
 * The cost of Spark orchestration for the chains job: the same chains, rounds, kernel and per-round diagnostics run
 * (a) as a plain loop on one thread and (b) as the Spark job on local[2], without and with writing the outputs.
 * Prints a Markdown table of sampling draws per second (median of 3 timed runs after one untimed run).
 *
 * <p>Usage: {@code submit/bench spark-jobs org.sparkmc.spark.bench.ChainsOverheadBenchmark [chains] [roundSize] [rounds]}
 */
public final class ChainsOverheadBenchmark {

    public static void main(String[] args) throws Exception {
        int chains = args.length > 0 ? Integer.parseInt(args[0]) : 8;
        int roundSize = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 4;
        SparkSession spark = SparkSetup.session("chains-overhead-benchmark", "local[2]");
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        System.out.printf("%n%d chains, warm-up %d, %d sampling rounds of %d per chain; local[2]; %s%n%n", chains,
                roundSize, rounds, roundSize, java.time.LocalDate.now());
        System.out.println("| target | plain loop, 1 thread (draws/s) | Spark job local[2] (draws/s) | job + outputs "
                + "(draws/s) | job / plain | job per core / plain |");
        System.out.println("|---|---|---|---|---|---|");
        double[] y = {28, 8, -3, 7, -1, 1, 18, 12};
        double[] sigma = {15, 10, 16, 11, 9, 11, 10, 18};
        for (Object[] t : new Object[][] {{"bimodal (1-d)", new BimodalMixture(5), 10.0},
            {"eight_schools_noncentered (10-d)", new EightSchoolsNoncentered(y, sigma), 0.5}}) {
            Target target = (Target) t[1];
            Kernel kernel = MetropolisHastings.randomWalk((Double) t[2], true);
            ChainsConfig config = new ChainsConfig((String) t[0], target, "", "rwm", kernel, (Double) t[2], true,
                    Double.NaN, chains, roundSize, roundSize, rounds, Double.MAX_VALUE, 1.01, 1, 2,
                    ChainsConfig.defaultDriverDraws(), SyncVia.AUTO);
            double draws = (double) chains * roundSize * rounds;
            double plain = median(() -> plainLoop(config));
            double job = median(() -> sparkJob(sc, spark, config, false));
            double withOutputs = median(() -> sparkJob(sc, spark, config, true));
            System.out.printf("| %s | %,.0f | %,.0f | %,.0f | %.2f | %.2f |%n", t[0], draws / plain, draws / job,
                    draws / withOutputs, plain / job, plain / job / 2);
        }
        spark.stop();
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

    /**
     * A run of a row's work: its seconds, the last round's full summary of each summarised column, in order, and a
     * hash of every sampling draw's bits ({@link #digest}), so that the draws need not stay in memory.
     */
    record Run(double seconds, List<FullParameterSummary> last, int drawsDigest) {
        /** Whether {@code other} ended with the same summaries, bit for bit, and draws of the same hash. */
        boolean sameAs(Run other) {
            return last.equals(other.last) && drawsDigest == other.drawsDigest;
        }
    }

    /** A hash of the bits of every draw, [column][chain][iteration]; computed after a run's timed span. */
    static int digest(double[][][] draws) {
        return Arrays.deepHashCode(draws);
    }

    /** The seconds of {@link #plainRun}. */
    static double plainLoop(ChainsConfig config) {
        return plainRun(config).seconds();
    }

    /**
     * The job's work without Spark: every chain's rounds in turn, then the same diagnostics after each round, and
     * after the last one the full summaries the job returns.
     */
    static Run plainRun(ChainsConfig config) {
        long t0 = System.nanoTime();
        RandomStreams streams = new RandomStreams(config.seed());
        Target target = config.target();
        Kernel kernel = config.kernel();
        List<ChainState> states = starts(config, streams);
        List<String> names = summarised(config);
        int params = names.size();
        double[][][] draws = new double[params][config.chains()][0];
        List<FullParameterSummary> last = new ArrayList<>();
        for (int round = 1; round <= config.lastRound(); round++) {
            boolean warmup = round <= config.warmupRounds();
            for (int c = 0; c < states.size(); c++) {
                RoundResult r = ChainRound.run(target, kernel, states.get(c), round, config.iterations(round),
                        warmup, !warmup, streams);
                states.set(c, r.state());
                if (!warmup) {
                    append(draws, c, r);
                }
            }
            for (int p = 0; p < params && !warmup; p++) {
                if (round == config.lastRound()) { // as the job: the full summaries, which contain the round's diagnostics
                    last.add(ParameterResult.of(names.get(p), draws[p]).summary());
                } else {
                    ParameterSummary.of(names.get(p), draws[p]);
                }
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        return new Run(seconds, last, digest(draws));
    }

    /** Every chain's start, in chain order, as the job draws them. */
    static List<ChainState> starts(ChainsConfig config, RandomStreams streams) {
        List<ChainState> states = new ArrayList<>();
        for (long c = 1; c <= config.chains(); c++) {
            states.add(ChainRound.start(c, config.target(), config.kernel(), streams));
        }
        return states;
    }

    /** The columns the job summarises: every recorded one but accept_stat__ (the parameters and lp__). */
    static List<String> summarised(ChainsConfig config) {
        return ChainRound.recordedNames(config.target(), config.kernel())
                .subList(0, config.target().parameterNames().size() + 1);
    }

    /**
     * Appends round {@code r}'s draws to chain {@code c}'s, by parameter, each into a new array (so a summary still
     * reading the old one is not disturbed).
     */
    static void append(double[][][] draws, int c, RoundResult r) {
        for (int p = 0; p < draws.length; p++) {
            double[] old = draws[p][c];
            double[] grown = Arrays.copyOf(old, old.length + r.draws()[p].length);
            System.arraycopy(r.draws()[p], 0, grown, old.length, r.draws()[p].length);
            draws[p][c] = grown;
        }
    }

    static double sparkJob(JavaSparkContext sc, SparkSession spark, ChainsConfig config, boolean outputs)
            throws Exception {
        Path dir = Files.createTempDirectory("chains-bench");
        try {
            long t0 = System.nanoTime();
            ChainsJob job = new ChainsJob(sc, config);
            ChainsResult result = job.run();
            if (outputs) {
                try (AtomicOutput out = AtomicOutput.open(dir.resolve("out").toString(), false,
                        sc.hadoopConfiguration())) {
                    ChainsOutput.write(spark, out, job, config, result, ChainsOutput.Options.DEFAULT);
                    out.commit();
                }
            } else {
                job.release();
            }
            return (System.nanoTime() - t0) / 1e9;
        } finally {
            try (var files = Files.walk(dir)) { // no chains-bench* left in /tmp
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
