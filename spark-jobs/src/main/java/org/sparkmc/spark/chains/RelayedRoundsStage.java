package org.sparkmc.spark.chains;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.sparkmc.core.diagnostics.SummaryTasks;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.RoundResult;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.sync.RelayedStage;
import org.sparkmc.spark.sync.RoundRelay;
import scala.Tuple2;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * The driver's side of the {@code chains} job's relayed rounds: runs every round left as one barrier stage of
 * {@link RelayedRounds} tasks, synchronised through a {@link RoundRelay} to the driver, and reads each round as the
 * relay hands it over. The tasks sample a round ahead of the driver's verdict, as the per-round jobs do, and the
 * driver also runs a round's diagnostics as soon as the round comes, while those of the round before may still run on
 * its threads: so its threads have work queued while one round's last parts run alone. When the round before's
 * diagnostics end, the job's verdict on them goes back to the tasks; if it stops the run, the tasks drop the round
 * they sampled ahead, and its diagnostics are dropped too. The job takes in and records the rounds and their figures
 * in order ({@link Rounds}), the same as with a job per round.
 *
 * <p>The rounds' draws, with every recorded row, stay in the executors that sampled them, as the partitions of
 * a {@link RelayedDrawsRDD}, which replays a lost partition's rounds from the chains' states.
 */
final class RelayedRoundsStage {
    private final JavaSparkContext sc;
    private final ChainsConfig config;
    private final RandomStreams streams;
    private final List<String> summarised;

    /** The job's side of the stage's rounds, called on the driver's thread in round order. */
    interface Rounds {
        /**
         * Takes in round {@code r}'s results, in chain order, and the sampling draws pooled up to it (a warm-up
         * round's: those before it); returns the round's acceptance rate.
         */
        double takeIn(int r, List<RoundResult> results, PooledDraws upTo);

        /** Takes the verdict of a sampling round's diagnostics: whether the run has converged. */
        boolean verdict(RoundDiagnostics diagnostics);

        /**
         * Records round {@code r}, taken in (a sampling round's after its verdict): its time in {@code nanos}, and
         * the seconds the driver waited for it; no diagnostics in warm-up.
         */
        void record(int r, double acceptance, RoundDiagnostics diagnostics, long nanos, double waited);
    }

    /** The chains' states (in chain order) and the sampling draws pooled, after the rounds taken in so far. */
    private record Taken(List<ChainState> states, PooledDraws draws) {
    }

    /** A sampling round kept, its diagnostics under way on the driver's threads. */
    private record Pending(int round, double acceptance, double waited, CompletableFuture<RoundDiagnostics> diagnosis) {
    }

    /** With the names of the rows the diagnostics summarise ({@code summarised}: the parameters, then lp__). */
    RelayedRoundsStage(JavaSparkContext sc, ChainsConfig config, RandomStreams streams, List<String> summarised) {
        this.sc = sc;
        this.config = config;
        this.streams = streams;
        this.summarised = summarised;
    }

    /**
     * Runs rounds {@code first} to the run's last, or until a verdict stops the run, from {@code states} (every
     * chain's, in chain order) and {@code draws} (the sampling draws so far, pooled); hands the stage's draws to
     * {@code keeping} before the stage starts, and each round to {@code rounds} as it comes.
     */
    void run(int first, List<ChainState> states, PooledDraws draws, Consumer<JavaRDD<RoundResult>> keeping,
            Rounds rounds) {
        int last = config.lastRound();
        sc.setJobGroup("sparkmc-chains-rounds-" + first, "chains: rounds " + first + "–" + last + " ("
                + config.chains() + " chains), relayed", false);
        ExecutorService threads = RoundDiagnostics.threads();
        try (RoundRelay relay = RoundRelay.toDriver(sc.getConf(), config.partitions())) {
            relay.answer(0, RoundFrames.GO);
            RelayedDrawsRDD keptDraws = new RelayedDrawsRDD(sc.sc(), config.partitions(), config, streams);
            ClassTag<RoundResult> tag = ClassTag$.MODULE$.apply(RoundResult.class);
            keeping.accept(new JavaRDD<>(keptDraws, tag)); // a failed run releases it with the rest
            RelayedRounds task = new RelayedRounds(relay.address(), config, streams, first, keptDraws.id());
            JavaRDD<RoundResult> ran = new JavaRDD<>(sc.parallelize(states, config.partitions()).rdd().barrier()
                    .mapPartitions(task, true, tag), tag);
            JavaFutureAction<Void> job = RelayedStage.mapStageOnly(ran.mapToPair(r -> new Tuple2<>(r.chain(), r))
                    .partitionBy(new HashPartitioner(config.partitions())));
            Taken[] taken = {new Taken(states, draws)};
            Pending[] pending = {null};
            long[] since = {System.nanoTime(), System.nanoTime()}; // the last line, the last wait for a round
            RelayedStage.run(relay, job, relayed -> {
                int r = first + relayed.round();
                long arrived = System.nanoTime();
                boolean warmup = r <= config.warmupRounds();
                List<RoundResult> collected = new ArrayList<>(config.chains());
                for (byte[] frame : relayed.frames()) {
                    collected.addAll(RoundFrames.decode(frame));
                }
                collected.sort(Comparator.comparingLong(RoundResult::chain));
                PooledDraws upTo = warmup ? taken[0].draws() : taken[0].draws().appended(ChainsJob.rows(collected));
                CompletableFuture<RoundDiagnostics> diagnosis = warmup ? null
                        : RoundDiagnostics.onDriver(summarised, r == last, upTo, threads);
                if (relayed.round() > 0) {
                    boolean stop = false;
                    if (pending[0] != null) { // the round before: its verdict decides whether this one is kept
                        stop = finish(pending[0], since, rounds);
                        pending[0] = null;
                    }
                    relay.answer(relayed.round(), stop ? RoundFrames.STOP : RoundFrames.GO);
                    if (stop) {
                        return false; // the tasks drop this round
                    }
                }
                if (!warmup) {
                    keptDraws.kept(r, taken[0].states());
                }
                double acceptance = rounds.takeIn(r, collected, upTo);
                taken[0] = new Taken(collected.stream().map(RoundResult::state).toList(), upTo);
                double waited = (arrived - since[1]) / 1e9;
                if (warmup) {
                    rounds.record(r, acceptance, null, arrived - since[0], waited);
                    since[0] = arrived;
                } else {
                    pending[0] = new Pending(r, acceptance, waited, diagnosis);
                }
                if (r == last) {
                    if (pending[0] != null) {
                        finish(pending[0], since, rounds);
                    }
                    return false;
                }
                since[1] = System.nanoTime();
                return true;
            });
        } catch (IOException e) {
            throw new UncheckedIOException("chains: the sync relay on the driver failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("chains: interrupted while waiting for the relayed rounds", e);
        } finally {
            threads.shutdownNow(); // a dropped round's diagnostics are not waited for
        }
    }

    /**
     * Waits for a kept round's diagnostics, has the job take their verdict and record the round, whose time runs
     * from {@code since[0]}, and sets {@code since[0]} to now, for the next round's time; returns the verdict.
     */
    private static boolean finish(Pending pending, long[] since, Rounds rounds) {
        RoundDiagnostics diagnostics = SummaryTasks.now(pending.diagnosis());
        boolean converged = rounds.verdict(diagnostics);
        long now = System.nanoTime();
        rounds.record(pending.round(), pending.acceptance(), diagnostics, now - since[0], pending.waited());
        since[0] = now;
        return converged;
    }
}
