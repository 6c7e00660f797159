package org.sparkmc.spark.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;
import org.sparkmc.core.mcmc.ChainRound;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.Kernel;
import org.sparkmc.core.mcmc.MetropolisHastings;
import org.sparkmc.core.model.BimodalMixture;
import org.sparkmc.core.model.EightSchoolsNoncentered;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.diagnose.ParameterResult;

/**
 * The chains job's last-round work alone: the full summaries and plot data ({@link ParameterResult}) of the
 * summarised columns (the parameters and lp__) of 8 chains × N draws of bimodal and of eight schools, computed
 * (a) one parameter per thread, as a parallel stream over the parameters, and (b) split into parts
 * ({@code ParameterResult.of(name, draws, executor)}) on one thread per core. The two alternate, a then b, for a
 * number of pairs after two untimed pairs; it prints each pair and the medians. No Spark.
 *
 * <p>Usage: {@code submit/bench spark-jobs org.sparkmc.spark.bench.SummarySplitBenchmark [drawsPerChain] [pairs]}
 */
public final class SummarySplitBenchmark {

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int pairs = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        int cores = Runtime.getRuntime().availableProcessors();
        ExecutorService threads = Executors.newFixedThreadPool(cores);
        try {
            for (Object[] t : new Object[][] {{"bimodal", new BimodalMixture(5), 10.0},
                {"eight_schools", new EightSchoolsNoncentered(new double[] {28, 8, -3, 7, -1, 1, 18, 12},
                    new double[] {15, 10, 16, 11, 9, 11, 10, 18}), 0.5}}) {
                double[][][] draws = draws((Target) t[1], (Double) t[2], 8, n);
                double[] byParameter = new double[pairs];
                double[] split = new double[pairs];
                for (int i = -2; i < pairs; i++) {
                    double a = byParameter(draws);
                    double b = split(draws, threads);
                    if (i >= 0) {
                        byParameter[i] = a;
                        split[i] = b;
                        System.out.printf(Locale.ROOT, "%s pair %d: one parameter per thread %.3f s, in parts %.3f s"
                                + " (load %s)%n", t[0], i + 1, a, b, load());
                    }
                }
                double[] ratios = new double[pairs];
                for (int i = 0; i < pairs; i++) {
                    ratios[i] = byParameter[i] / split[i];
                }
                System.out.printf(Locale.ROOT, "RESULT %s columns=%d draws=8x%d by_parameter_s=%.3f split_s=%.3f "
                        + "ratio=%.2f (range %.2f-%.2f, %d pairs)%n", t[0], draws.length, n, median(byParameter),
                        median(split), median(ratios), min(ratios), max(ratios), pairs);
            }
        } finally {
            threads.shutdownNow();
        }
    }

    /** The summarised columns (parameters and lp__), [column][chain][iteration], after a warm-up of n. */
    static double[][][] draws(Target target, double scale, int chains, int n) {
        RandomStreams streams = new RandomStreams(1);
        Kernel kernel = MetropolisHastings.randomWalk(scale, true);
        int columns = target.parameterNames().size() + 1;
        double[][][] out = new double[columns][chains][];
        for (int c = 0; c < chains; c++) {
            ChainState s = ChainRound.start(c + 1, target, kernel, streams);
            s = ChainRound.run(target, kernel, s, 1, n, true, false, streams).state();
            double[][] d = ChainRound.run(target, kernel, s, 2, n, false, true, streams).draws();
            for (int p = 0; p < columns; p++) {
                out[p][c] = d[p];
            }
        }
        return out;
    }

    private static double byParameter(double[][][] draws) {
        long t0 = System.nanoTime();
        List<ParameterResult> r = IntStream.range(0, draws.length).parallel()
                .mapToObj(p -> ParameterResult.of("p" + p, draws[p])).toList();
        if (r.size() != draws.length) {
            throw new IllegalStateException();
        }
        return (System.nanoTime() - t0) / 1e9;
    }

    private static double split(double[][][] draws, ExecutorService threads) {
        long t0 = System.nanoTime();
        List<CompletableFuture<ParameterResult>> parts = new ArrayList<>();
        for (int p = 0; p < draws.length; p++) {
            parts.add(ParameterResult.of("p" + p, draws[p], threads));
        }
        parts.forEach(CompletableFuture::join);
        return (System.nanoTime() - t0) / 1e9;
    }

    private static String load() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).substring(0, 14).trim();
        } catch (java.io.IOException e) {
            return "?";
        }
    }

    private static double median(double[] x) {
        double[] s = x.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static double min(double[] x) {
        return Arrays.stream(x).min().orElse(Double.NaN);
    }

    private static double max(double[] x) {
        return Arrays.stream(x).max().orElse(Double.NaN);
    }
}
