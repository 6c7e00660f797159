package org.sparkmc.spark.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.sparkmc.core.diagnostics.SummaryTasks;
import org.sparkmc.core.mcmc.ChainRound;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.RoundResult;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.chains.ChainsConfig;
import org.sparkmc.spark.diagnose.ParameterResult;

/**
 * The machine's ceiling for issue 17's {@code chains} rows, without Spark: the row's plain loop on one thread
 * ({@link ChainsOverheadBenchmark#plainRun}), then the same rounds and summaries on plain threads as the job
 * schedules them. Each round's chains run in two halves on two sampling threads, as the job's two tasks; each
 * sampling round's summaries (split into their parts, the last round's full) go to two more threads, as the job's
 * driver runs them, while the next round samples. The bench's runs never converge, so no round waits for a verdict.
 * The last round's full summaries are checked equal to the plain loop's, bit for bit, and its draws' hash too.
 * Prints each repeat's seconds and speed-up.
 *
 * <pre>java -Xmx4g -Xms4g -XX:+AlwaysPreTouch -cp … org.sparkmc.spark.bench.ChainsOnTwoThreads
 *     bimodal|eight_schools [chains=8] [roundSize=50000] [rounds=4] [repeats=6]</pre>
 */
public final class ChainsOnTwoThreads {
    private ChainsOnTwoThreads() {
    }

    public static void main(String[] args) throws Exception {
        String which = args[0];
        int chains = args.length > 1 ? Integer.parseInt(args[1]) : 8;
        int roundSize = args.length > 2 ? Integer.parseInt(args[2]) : 50_000;
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 4;
        int repeats = args.length > 4 ? Integer.parseInt(args[4]) : 6;
        ChainsConfig config = Issue17Rows.chainsConfig(which, chains, roundSize, rounds);
        for (int rep = 1; rep <= repeats; rep++) {
            ChainsOverheadBenchmark.Run one = ChainsOverheadBenchmark.plainRun(config);
            ChainsOverheadBenchmark.Run two = twoThreads(config);
            if (!one.sameAs(two)) {
                throw new IllegalStateException("two threads' summaries or draws differ from one thread's: "
                        + two.last() + " against " + one.last());
            }
            System.out.printf(Locale.ROOT, "RESULT rep=%d one_thread_s=%.3f two_threads_s=%.3f speedup=%.2f%n",
                    rep, one.seconds(), two.seconds(), one.seconds() / two.seconds());
        }
    }

    /** The plain loop's work, its sampling on two threads and its summaries on two others. */
    static ChainsOverheadBenchmark.Run twoThreads(ChainsConfig config) throws Exception {
        long t0 = System.nanoTime();
        RandomStreams streams = new RandomStreams(config.seed());
        List<ChainState> states = ChainsOverheadBenchmark.starts(config, streams);
        List<String> names = ChainsOverheadBenchmark.summarised(config);
        double[][][] draws = new double[names.size()][config.chains()][0];
        int half = config.chains() / 2;
        ExecutorService sampling = Executors.newFixedThreadPool(2);
        ExecutorService summaries = Executors.newFixedThreadPool(2);
        List<CompletableFuture<?>> pending = new ArrayList<>();
        List<CompletableFuture<ParameterResult>> last = new ArrayList<>();
        try {
            for (int round = 1; round <= config.lastRound(); round++) {
                boolean warmup = round <= config.warmupRounds();
                int r = round;
                List<ChainState> from = states;
                Future<List<RoundResult>> first = sampling.submit(() -> sample(config, from, 0, half, r, streams));
                Future<List<RoundResult>> second = sampling.submit(
                        () -> sample(config, from, half, from.size(), r, streams));
                List<RoundResult> results = new ArrayList<>(first.get());
                results.addAll(second.get());
                states = results.stream().map(RoundResult::state).toList();
                if (warmup) {
                    continue;
                }
                for (int c = 0; c < results.size(); c++) {
                    ChainsOverheadBenchmark.append(draws, c, results.get(c));
                }
                for (int p = 0; p < names.size(); p++) {
                    double[][] upTo = draws[p].clone(); // this round's arrays; the next round appends new ones
                    if (round == config.lastRound()) {
                        last.add(ParameterResult.of(names.get(p), upTo, summaries));
                    } else {
                        pending.add(SummaryTasks.brief(names.get(p), upTo, summaries));
                    }
                }
            }
            pending.addAll(last);
            CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).join();
        } finally {
            sampling.shutdownNow();
            summaries.shutdownNow();
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        return new ChainsOverheadBenchmark.Run(seconds, last.stream().map(r -> r.join().summary()).toList(),
                ChainsOverheadBenchmark.digest(draws));
    }

    /** Chains {@code from}..{@code to}−1 of round {@code round}, in chain order. */
    private static List<RoundResult> sample(ChainsConfig config, List<ChainState> states, int from, int to,
            int round, RandomStreams streams) {
        boolean warmup = round <= config.warmupRounds();
        List<RoundResult> results = new ArrayList<>();
        for (int c = from; c < to; c++) {
            results.add(ChainRound.run(config.target(), config.kernel(), states.get(c), round,
                    config.iterations(round), warmup, !warmup, streams));
        }
        return results;
    }
}
