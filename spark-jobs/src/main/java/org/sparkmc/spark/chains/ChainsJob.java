package org.sparkmc.spark.chains;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function2;
import org.apache.spark.storage.StorageLevel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparkmc.core.diagnostics.ParameterSummary;
import org.sparkmc.core.diagnostics.SummaryTasks;
import org.sparkmc.core.mcmc.ChainRound;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.Kernel;
import org.sparkmc.core.mcmc.RoundResult;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.DirectFunctions;
import org.sparkmc.spark.cli.Counted;
import org.sparkmc.spark.diagnose.ByParameter;
import org.sparkmc.spark.diagnose.ParameterResult;
import org.sparkmc.spark.diagnose.SummaryFiles;
import org.sparkmc.spark.diagnose.Thresholds;
import org.sparkmc.spark.io.ChainSeries;
import org.sparkmc.spark.run.CheckpointCadence;
import org.sparkmc.spark.run.StepRunner;
import org.sparkmc.spark.run.SteppedJob;
import org.sparkmc.spark.sync.RoundRelay;
import org.sparkmc.spark.sync.SyncPathLog;
import org.sparkmc.spark.sync.SyncVia;

/**
 * The {@code chains} driver: many independent chains of one target spread over Spark partitions, run in rounds.
 *
 * <p>Shape: a {@link SteppedJob} whose step is a round, run by {@link StepRunner}, then {@link #result()}. Each chain's
 * round r uses a stream keyed by (chain, r), so the draws do not depend on the partitioning, and a retried task
 * recomputes exactly the same ones. The rounds run one of two ways ({@link ChainsConfig#syncVia}), with the same
 * numbers:
 * <ul>
 *   <li><b>relay</b>: one barrier stage runs every round ({@link RelayedRoundsStage}, with {@link RelayedRounds}
 *   tasks). After each round its tasks send the driver, through a {@link RoundRelay}, the rows it summarises, and
 *   wait for its verdict on the round before, so the chains sample a round ahead of the diagnostics and no Spark job
 *   is started per round. The rounds' draws stay where they were sampled ({@link RelayedDrawsRDD}). This needs every
 *   partition's task at once, no checkpoint (they save each round's draws), and the driver to hold every draw the
 *   run may make.</li>
 *   <li><b>jobs</b>, otherwise: a Spark job per round. Between rounds the driver holds only the chains' states (a few
 *   numbers each); every round ships them out with {@code parallelize}, each task advances its chains, and the new
 *   states come back, so lineage never grows. Sampling rounds stay persisted on the executors.</li>
 * </ul>
 *
 * <p>Diagnostics after each sampling round need every draw of a parameter pooled across chains (ranks, folding,
 * quantiles). While the draws so far number at most {@code driverDrawsLimit}, they also come to the driver and are
 * summarised there ({@link PooledDraws}); past it they stay on the executors and are summarised by parameter there
 * ({@link ByParameter}), so the driver holds only the summaries. Both paths give identical numbers.
 */
public final class ChainsJob implements SteppedJob {
    private static final Logger LOG = LoggerFactory.getLogger(ChainsJob.class);

    private final SyncPathLog syncPath = new SyncPathLog(LOG, "chains", "round");
    private final JavaSparkContext sc;
    private final ChainsConfig config;
    private final RandomStreams streams;
    private final RelayedRoundsStage relayedStage;
    private final List<String> recorded;
    private final List<String> summarised;
    /** The persisted sampling draws: a dataset per round, or one for all the rounds of a relayed stage. */
    private final List<JavaRDD<RoundResult>> samplingRounds = new ArrayList<>();
    private final List<RoundSummary> history = new ArrayList<>();
    private final long started = System.nanoTime();
    private List<ChainState> states;
    private PooledDraws draws;
    private int drawsPerChain;
    private int round;
    /** Sampling rounds done, counting a resumed run's restored rounds. */
    private int sampled;
    private long accepted;
    private long proposed;
    private long[] acceptedByChain;
    private long[] proposedByChain;
    private boolean converged;
    /** The next round, submitted before this one's diagnostics; null when none is under way. */
    private Launched ahead;
    /** The full summaries, computed in the last round in place of its diagnostics; null before. */
    private List<ParameterResult> finalResults;

    /** Checkpointing: a directory (null for none), how often the state is saved, whether to resume from it. */
    public record Checkpointing(String dir, CheckpointCadence every, boolean resume, String fingerprint) {
        public static final Checkpointing NONE = new Checkpointing(null, CheckpointCadence.auto(), false, "");
    }

    private final Checkpointing checkpointing;
    private final ChainsCheckpoint checkpoint;

    public ChainsJob(JavaSparkContext sc, ChainsConfig config) {
        this(sc, config, Checkpointing.NONE);
    }

    public ChainsJob(JavaSparkContext sc, ChainsConfig config, Checkpointing checkpointing) {
        this(sc, config, checkpointing, checkpointing.dir() == null ? null
                : new ChainsCheckpoint(checkpointing.dir(), sc.hadoopConfiguration(), config.kernel()));
    }

    /** With the checkpoint directory already open (its state possibly loaded before Spark started). */
    ChainsJob(JavaSparkContext sc, ChainsConfig config, Checkpointing checkpointing, ChainsCheckpoint checkpoint) {
        this.sc = sc;
        this.config = config;
        this.checkpointing = checkpointing;
        this.checkpoint = checkpoint;
        this.streams = new RandomStreams(config.seed());
        this.recorded = ChainRound.recordedNames(config.target(), config.kernel());
        // the parameters and lp__; accept_stat__ and the kernel's statistics are recorded, not summarised
        this.summarised = List.copyOf(recorded.subList(0, config.target().parameterNames().size() + 1));
        this.relayedStage = new RelayedRoundsStage(sc, config, streams, summarised);
    }

    /** Runs the whole loop ({@link StepRunner}: a round a step) and returns the full summaries. */
    public ChainsResult run() {
        (checkpoint == null ? StepRunner.withoutCheckpoints(LOG)
                : StepRunner.checkpointing(LOG, checkpointing.every())).run(this);
        try {
            return result();
        } catch (Throwable e) { // also Spark's SparkException: checked, yet thrown undeclared from Scala
            StepRunner.releaseAfter(e, this::release);
            throw e;
        }
    }

    /**
     * Draws every chain's starting point (on the driver: it is one density evaluation per chain), or with
     * {@code resume} restores the state of the newest checkpoint (none yet: a fresh start).
     */
    @Override
    public void initialise() {
        if (checkpointing.resume() && resume()) {
            return;
        }
        Target target = config.target();
        Kernel<?> kernel = config.kernel();
        states = LongStream.rangeClosed(1, config.chains())
                .mapToObj(chain -> ChainRound.start(chain, target, kernel, streams))
                .collect(Collectors.toList());
        draws = new PooledDraws(summarised.size(), config.chains());
        LOG.info("chains: {} chains of {} with kernel {} over {} partitions; {} warm-up iterations, rounds of {}, "
                + "stop at R-hat < {} and ESS ≥ {} or after {} sampling rounds; seed {}", config.chains(),
                config.modelName(), config.kernelName(), config.partitions(), config.warmup(), config.roundSize(),
                config.maxRhat(), config.minEss(), config.maxRounds(), config.seed());
    }

    private int lastRound() {
        return config.lastRound();
    }

    @Override
    public int plannedSteps() {
        return lastRound();
    }

    @Override
    public int stepsDone() {
        return round;
    }

    @Override
    public boolean isDone() {
        return converged || round >= lastRound();
    }

    /**
     * Every round left in one relayed stage when the run {@linkplain #relays() relays}, else one round: a round's
     * draws are checkpointed with it, so a save never waits for more.
     */
    @Override
    public void advance(int limit, Consumer<StepLine> lines) {
        if (ahead == null && relays()) {
            relayedRounds(lines);
        } else {
            nextRound(lines);
        }
    }

    /**
     * Whether the rounds run in a relayed stage ({@link ChainsConfig#syncVia}): they may, when nothing is
     * checkpointed and the driver can hold every draw the run may make.
     */
    private boolean relays() {
        if (checkpoint != null) {
            return syncPath.relays(new SyncVia.Choice(false, "--checkpoint: each round's draws are saved as it ends"));
        }
        if (draws == null || !config.driverHoldsEveryDraw()) {
            return syncPath.relays(new SyncVia.Choice(false, "the run may make more draws than "
                    + "--driver-draws-limit lets the driver hold"));
        }
        return syncPath.relays(config.syncVia().choose(sc, config.partitions()));
    }

    @Override
    public void snapshot() {
        checkpoint.save(new ChainsCheckpoint.Saved(checkpointing.fingerprint(), round, drawsPerChain, accepted,
                proposed, converged, states, history, acceptedByChain, proposedByChain));
    }

    /**
     * A round's sampling job, submitted but perhaps not finished: the chains advance on the executors while the
     * driver computes the previous round's diagnostics.
     */
    private record Launched(int round, int iterations, boolean warmup, boolean onDriver, JavaRDD<RoundResult> rdd,
            DirectFunctions.Collecting<RoundResult> collected) {
        /** The round's results in chain order. */
        List<RoundResult> await() {
            List<RoundResult> results = new ArrayList<>(collected.get());
            results.sort(Comparator.comparingLong(RoundResult::chain));
            return results;
        }

        /** Drops a round that will not be used (the run stopped before it). */
        void discard() {
            collected.cancel();
            rdd.unpersist(false);
        }
    }

    /** Submits round {@code r} from {@code from}: the chains advance with their (chain, round) streams. */
    private Launched launch(int r, List<ChainState> from) {
        boolean warmup = r <= config.warmupRounds();
        int iterations = config.iterations(r);
        String phase = warmup ? "warmup" : "sampling";
        sc.setJobGroup("sparkmc-chains-round-" + r, "chains: round " + r + " (" + phase + ", "
                + iterations + " iterations × " + config.chains() + " chains)", true);
        Target target = config.target();
        Kernel<?> kernel = config.kernel();
        RandomStreams rs = streams;
        // Named function objects: Spark's closure cleaner re-parses a lambda's defining class on every submission.
        JavaRDD<RoundResult> results = DirectFunctions.map(sc.parallelize(from, config.partitions()),
                s -> ChainRound.run(target, kernel, s, r, iterations, warmup, !warmup, rs));
        if (!warmup) {
            results.persist(StorageLevel.MEMORY_AND_DISK());
        }
        boolean onDriver = !warmup && draws != null
                && (long) (drawsPerChain + iterations) * config.chains() * summarised.size() <= config.driverDrawsLimit();
        // The driver keeps the summarised rows of a round's draws (parameters and lp__), and none past the limit.
        int rows = onDriver ? summarised.size() : 0;
        DirectFunctions.Collecting<RoundResult> collected = DirectFunctions.mapCollectAsync(results,
                warmup ? x -> x : x -> x.withDrawRows(rows));
        return new Launched(r, iterations, warmup, onDriver, results, collected);
    }

    /**
     * Runs one round in a Spark job, then (in sampling) the diagnostics. The next round is submitted before the
     * diagnostics start, so the executors sample while the driver computes them (its draws do not depend on them:
     * each chain's round r always uses the stream keyed by (chain, r)); if the diagnostics stop the run, that round
     * is dropped unused. The round's progress line goes to {@code lines}.
     */
    private void nextRound(Consumer<StepLine> lines) {
        round++;
        long t0 = System.nanoTime();
        Launched launched = ahead != null ? ahead : launch(round, states);
        ahead = null;
        List<RoundResult> collected = launched.await();
        double samplingSeconds = (System.nanoTime() - t0) / 1e9;
        boolean warmup = launched.warmup();
        if (!warmup) {
            samplingRounds.add(launched.rdd());
            if (!launched.onDriver()) {
                draws = null;
            }
        }
        double acceptance = absorb(collected, launched.iterations(), warmup);
        if (draws != null && !warmup) {
            draws = draws.appended(rows(collected));
        }
        if (round < lastRound()) {
            ahead = launch(round + 1, states);
            sc.setJobGroup("sparkmc-chains-round-" + round, "chains: round " + round + " diagnostics and checkpoint",
                    false);
        }
        RoundDiagnostics diagnostics = warmup ? null : conclude(diagnose(round == lastRound()));
        if (isDone() && ahead != null) {
            ahead.discard();
            ahead = null;
        }
        long nanos = System.nanoTime() - t0; // the round's time, without its checkpoint's
        if (checkpoint != null && !warmup) {
            checkpoint.saveRound(round, launched.rdd(), recorded);
        }
        report(launched.iterations(), acceptance, diagnostics, nanos, samplingSeconds, lines);
    }

    /**
     * Runs every round left in one barrier stage ({@link RelayedRoundsStage}), which hands each round here as it
     * comes: the job takes it in, takes the verdict on its diagnostics and records it, in the same order as with a
     * job per round.
     */
    private void relayedRounds(Consumer<StepLine> lines) {
        relayedStage.run(round + 1, states, draws, samplingRounds::add, new RelayedRoundsStage.Rounds() {
            @Override
            public double takeIn(int r, List<RoundResult> results, PooledDraws upTo) {
                round = r;
                double acceptance = absorb(results, config.iterations(r), r <= config.warmupRounds());
                draws = upTo;
                return acceptance;
            }

            @Override
            public boolean verdict(RoundDiagnostics diagnostics) {
                conclude(diagnostics);
                return converged;
            }

            @Override
            public void record(int r, double acceptance, RoundDiagnostics diagnostics, long nanos, double waited) {
                report(config.iterations(r), acceptance, diagnostics, nanos, waited, lines);
            }
        });
    }

    /**
     * Takes in a round's results, in chain order: the chains' states, and for a sampling round its acceptance.
     * Returns the round's acceptance rate.
     */
    private double absorb(List<RoundResult> collected, int iterations, boolean warmup) {
        states = collected.stream().map(RoundResult::state).collect(Collectors.toList());
        long roundAccepted = collected.stream().mapToLong(RoundResult::accepted).sum();
        long roundProposed = collected.stream().mapToLong(RoundResult::proposed).sum();
        if (!warmup) {
            sampled++;
            drawsPerChain += iterations;
            accepted += roundAccepted;
            proposed += roundProposed;
            if (acceptedByChain == null) {
                acceptedByChain = new long[config.chains()];
                proposedByChain = new long[config.chains()];
            }
            for (RoundResult r : collected) {
                acceptedByChain[(int) r.chain() - 1] += r.accepted();
                proposedByChain[(int) r.chain() - 1] += r.proposed();
            }
        }
        return (double) roundAccepted / roundProposed;
    }

    /** The summarised rows of a round's draws, in chain order. */
    static List<double[][]> rows(List<RoundResult> collected) {
        return collected.stream().map(RoundResult::draws).collect(Collectors.toList());
    }

    /** Whether the diagnostics say the run has converged; keeps the full summaries they carry. */
    private RoundDiagnostics conclude(RoundDiagnostics d) {
        converged = new Thresholds(config.maxRhat(), config.minEss()).allPass(d.briefs());
        if (d.full() != null) {
            finalResults = d.full();
        }
        return d;
    }

    /**
     * The diagnostics of the draws so far, brief or {@code full} (the summaries {@link #result()} returns, which
     * contain the brief ones, so the last round sorts every draw once): on the driver's copy while it is kept, else
     * by parameter on the executors. The results do not depend on the path or the thread count.
     */
    private RoundDiagnostics diagnose(boolean full) {
        long t0 = System.nanoTime();
        List<String> names = summarised;
        if (draws == null) {
            return full ? RoundDiagnostics.ofFull(byParameter((p, d) -> ParameterResult.of(names.get(p), d)), t0)
                    : RoundDiagnostics.of(byParameter((p, d) -> ParameterSummary.of(names.get(p), d)), null, t0);
        }
        ExecutorService threads = RoundDiagnostics.threads();
        try {
            return SummaryTasks.now(RoundDiagnostics.onDriver(summarised, full, draws, threads));
        } finally {
            threads.shutdownNow();
        }
    }

    /** Records the round's summary and hands its progress line to {@code lines}; no diagnostics in warm-up. */
    private void report(int iterations, double acceptance, RoundDiagnostics d, long nanos, double samplingSeconds,
            Consumer<StepLine> lines) {
        boolean warmup = d == null;
        String phase = warmup ? "warmup" : "sampling";
        double seconds = nanos / 1e9;
        RoundSummary summary = new RoundSummary(round, phase, drawsPerChain, warmup ? Double.NaN : d.maxRhat(),
                warmup ? Double.NaN : d.minBulk(), warmup ? Double.NaN : d.minTail(), acceptance, seconds,
                (double) iterations * config.chains() / seconds);
        history.add(summary);
        // Warm-up rounds keep no draws, so they have no diagnostics to show.
        String diagnostics = warmup ? "no diagnostics in warm-up"
                : "max R-hat " + SummaryFiles.summaryShown(d.maxRhat(), "%.4f") + "  min ESS bulk "
                        + SummaryFiles.formatted(d.minBulk(), "%.0f") + " tail "
                        + SummaryFiles.formatted(d.minTail(), "%.0f");
        lines.accept(new StepLine(round, phase, String.format(Locale.ROOT, "round %d/%d %-8s draws/chain %d  %s  "
                + "acceptance %.3f  %.0f draws/s  (waited %.2f s for sampling, diagnostics %.2f s)", round, lastRound(),
                phase, summary.drawsPerChain(), diagnostics, summary.acceptance(), summary.drawsPerSecond(),
                samplingSeconds, warmup ? 0.0 : d.seconds()), isDone()));
    }

    private boolean resume() {
        ChainsCheckpoint.Saved saved = checkpoint.load(checkpointing.fingerprint());
        if (saved == null) {
            LOG.info("chains: no checkpoint in {} yet; starting afresh", checkpointing.dir());
            return false;
        }
        states = new ArrayList<>(saved.states());
        round = saved.round();
        drawsPerChain = saved.drawsPerChain();
        accepted = saved.accepted();
        proposed = saved.proposed();
        acceptedByChain = saved.acceptedByChain() == null ? null : saved.acceptedByChain().clone();
        proposedByChain = saved.proposedByChain() == null ? null : saved.proposedByChain().clone();
        if (acceptedByChain == null && round > config.warmupRounds()) {
            LOG.warn("chains: the checkpoint in {} predates per-chain acceptance counts; summary.json's "
                    + "acceptance_per_chain covers only the rounds after round {}", checkpointing.dir(), round);
        }
        history.addAll(saved.history());
        boolean onDriver = (long) drawsPerChain * config.chains() * summarised.size() <= config.driverDrawsLimit();
        draws = onDriver ? new PooledDraws(summarised.size(), config.chains()) : null;
        for (int r = config.warmupRounds() + 1; r <= round; r++) {
            JavaRDD<RoundResult> restored = checkpoint.loadRound(r, recorded.size());
            samplingRounds.add(restored);
            sampled++;
            if (onDriver) {
                List<RoundResult> blocks = new ArrayList<>(restored.collect());
                blocks.sort(Comparator.comparingLong(RoundResult::chain));
                draws = draws.appended(rows(blocks));
            }
        }
        LOG.info("chains: resumed from {} after round {} ({} draws per chain)", checkpointing.dir(), round,
                drawsPerChain);
        // The verdict of this run's stopping rule, which may differ from the saved run's (--max-rhat, --min-ess).
        converged = false;
        if (sampled > 0) {
            conclude(diagnose(false));
        }
        return true;
    }

    /** The full summaries and plot data of every summarised parameter (parameters, then lp__). */
    public ChainsResult result() {
        List<ParameterResult> results;
        if (sampled == 0) {
            results = List.of();
        } else if (finalResults != null) {
            results = finalResults;
        } else {
            sc.setJobDescription("chains: final diagnostics by parameter");
            results = diagnose(true).full();
        }
        if (!converged) {
            boolean stuck = Thresholds.noneMoved(results.stream().map(r -> r.summary().brief()).toList());
            LOG.warn("chains: not converged after {} (need R-hat < {} and ESS ≥ {}{})",
                    Counted.of(sampled, "sampling round"), config.maxRhat(), config.minEss(),
                    stuck ? "; " + Thresholds.NONE_MOVED : "");
        }
        return new ChainsResult(results, converged, sampled, drawsPerChain,
                (System.nanoTime() - started) / 1e9, proposed == 0 ? Double.NaN : (double) accepted / proposed,
                List.copyOf(history));
    }

    private <R extends java.io.Serializable> List<R> byParameter(Function2<Integer, double[][], R> summary) {
        int parameters = summarised.size();
        JavaRDD<ChainSeries> series = samplingDraws().flatMap(r -> {
            List<ChainSeries> pieces = new ArrayList<>(parameters);
            for (int p = 0; p < parameters; p++) {
                pieces.add(new ChainSeries(p, (int) r.chain(), r.round(), r.draws()[p]));
            }
            return pieces.iterator();
        });
        return ByParameter.map(series, Math.min(parameters, Math.max(config.partitions(), sc.defaultParallelism())),
                summary);
    }

    /**
     * Applies {@code summary} to one summarised parameter's sampling draws [chain][iteration] (chains in id order):
     * on the driver's copy while it is kept, else in one task on the executors, so only the result reaches the
     * driver (that task holds 8·C·S bytes). Both give the same result. Call before {@link #release()}.
     *
     * @param p the parameter's index among the target's parameters
     */
    public <R extends java.io.Serializable> R onParameter(int p,
            org.apache.spark.api.java.function.Function<double[][], R> summary) {
        if (p < 0 || p >= summarised.size()) {
            throw new IllegalArgumentException("no summarised parameter " + p + " (there are " + summarised.size()
                    + ")");
        }
        if (draws != null) {
            try {
                return summary.call(draws.parameter(p));
            } catch (Exception e) {
                throw e instanceof RuntimeException r ? r : new IllegalStateException(e);
            }
        }
        JavaRDD<ChainSeries> series = samplingDraws()
                .map(r -> new ChainSeries(p, (int) r.chain(), r.round(), r.draws()[p]));
        sc.setJobDescription("chains: summary of " + summarised.get(p));
        return ByParameter.map(series, 1, (q, d) -> summary.call(d)).get(0);
    }

    /** Every persisted sampling round as one dataset (for the outputs); release them with {@link #release()}. */
    public JavaRDD<RoundResult> samplingDraws() {
        if (samplingRounds.isEmpty()) {
            throw new IllegalStateException("no sampling round has run");
        }
        JavaRDD<RoundResult> all = samplingRounds.get(0);
        for (JavaRDD<RoundResult> round : samplingRounds.subList(1, samplingRounds.size())) {
            all = all.union(round);
        }
        return all;
    }

    /** Each chain's acceptance rate over its sampling rounds (a resumed run's restored rounds included). */
    public double[] acceptanceByChain() {
        double[] rates = new double[config.chains()];
        for (int c = 0; c < rates.length; c++) {
            rates[c] = proposedByChain == null || proposedByChain[c] == 0 ? Double.NaN
                    : (double) acceptedByChain[c] / proposedByChain[c];
        }
        return rates;
    }

    /** The chains' states after the last round (positions, kernel states and any running means they carry). */
    public List<ChainState> states() {
        return List.copyOf(states);
    }

    /** Names of the recorded columns: the target's parameters, lp__, accept_stat__, the kernel's statistics. */
    public List<String> recordedNames() {
        return recorded;
    }

    @Override
    public void release() {
        if (ahead != null) {
            ahead.discard();
            ahead = null;
        }
        samplingRounds.forEach(JavaRDD::unpersist);
    }
}
