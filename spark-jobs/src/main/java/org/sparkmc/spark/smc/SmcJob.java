package org.sparkmc.spark.smc;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.storage.StorageLevel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.smc.BlockPropagation;
import org.sparkmc.core.smc.BlockSummary;
import org.sparkmc.core.smc.GlobalWeights;
import org.sparkmc.core.smc.MissingObservations;
import org.sparkmc.core.smc.Observations;
import org.sparkmc.core.smc.ParticleKernel;
import org.sparkmc.core.smc.ResamplingScheme;
import org.sparkmc.core.smc.SmcOptions;
import org.sparkmc.core.smc.StepSummary;
import org.sparkmc.core.smc.WeightCollapseException;
import org.sparkmc.spark.BusiestPartition;
import org.sparkmc.spark.DirectFunctions;
import org.sparkmc.spark.cli.ResumeOptions;
import org.sparkmc.spark.io.LineageCheckpoints;
import org.sparkmc.spark.run.CheckpointCadence;
import org.sparkmc.spark.run.StepRunner;
import org.sparkmc.spark.sync.SyncPathLog;

/**
 * The {@code smc} driver: a particle filter whose N particles live on the executors in blocks (an RDD of
 * {@link ParticleBlock}s, each partition owning whole blocks) and never come to the driver.
 *
 * <p>Shape: {@link #initialize()} → {@link #step(double[])} per observation → {@link #logLikelihood()}; {@link #run}
 * drives it from an {@link ObservationFeed}. One time step:
 * <ol>
 *   <li>executors move and weight each block with the stream keyed by (step, block) and keep the new blocks
 *       (persisted); the driver collects one {@link BlockSummary} per block (a few numbers);</li>
 *   <li>the driver folds them in block order ({@link GlobalWeights}): the log-likelihood increment, the ESS, the
 *       filtering mean and variance;</li>
 *   <li>if ESS &lt; τ·N, the driver draws the step's resampling randomness ({@link ResamplingScheme#draw}), ships it
 *       with the block offsets in the next tasks' closures, and each block counts its offspring from its
 *       cumulative-weight offset ({@link Rebalancing#offspring}); a shuffle keyed by destination block moves them so
 *       each partition again owns whole, equal blocks ({@link Rebalancing#assemble}). The shuffle runs as the first
 *       stage of the next step's job.</li>
 * </ol>
 * The block — not the partition, executor or thread — keys every random stream and offset, so the particles, the
 * summaries and log p̂ are bit-identical to the single-machine {@code ParticleSystem} for the same seed, N and block
 * size, on any number of partitions and after task retries. The previous generation is unpersisted once the next
 * is materialised, and the lineage is cut every {@code lineageEvery} steps (local checkpoints on the
 * executors, or reliable ones under {@code lineageDir}), so a long series neither fills memory nor overflows
 * the stack.
 */
public final class SmcJob {
    private static final Logger LOG = LoggerFactory.getLogger(SmcJob.class);
    /** A chunk of steps in one task ({@link #steps}) or one relayed stage stops at this many steps… */
    private static final int MAX_CHUNK_STEPS = 4_096;
    /** …or at about this many particle-steps (≈ 0.15 s of the bootstrap filter's work). */
    private static final long CHUNK_PARTICLE_STEPS = 10_000_000L;
    /**
     * …and a relayed stage at about this many (about a minute of the bootstrap filter's work on two cores; a
     * checkpoint due sooner ends it sooner). Each stage ends in a shuffle of every particle, which Spark needs to rerun
     * a failed barrier stage, so a stage should be long; a failure reruns at most this much work.
     */
    private static final long RELAYED_CHUNK_PARTICLE_STEPS = 5_000_000_000L;

    private final SyncPathLog syncPath = new SyncPathLog(LOG, "smc", "step");
    private final JavaSparkContext sc;
    private final SmcConfig config;
    private final RandomStreams streams;
    private final BlockPartitioner partitioner;
    private final RelayedStepsStage relayedStage;
    private final int dim;
    private JavaRDD<ParticleBlock> pending;
    /** Set when a relayed stage ran the run's last step without keeping the particles ({@link #advance}). */
    private boolean particlesDropped;
    /** The persisted generation the pending particles derive from (weighted blocks, or a chunk of steps). */
    private JavaRDD<?> weighted;
    /** Particles persisted for a checkpoint (or read from one): released once the next step has moved them. */
    private JavaRDD<ParticleBlock> saved;
    private LineageCheckpoints lineageCheckpoints;
    private double previousLogSum;
    private double logLikelihood;
    private int step;
    private int resamplings;
    /** The last job's compute time per step: the busiest partition's moving and weighting (a chunk's task time). */
    private double computeSeconds;
    private long started;
    private final Checkpointing checkpointing;
    private final SmcCheckpoint checkpoint;
    /** After a resume: the steps the checkpoint already holds. */
    private List<StepRow> restoredRows = List.of();
    /** After a resume: the particle file the lineage reads, until the next lineage cut (then null). */
    private String resumedFrom;

    /**
     * Checkpointing of the whole run (not the particles' lineage): a directory (null for none), every how many steps
     * the state is saved, whether to resume from it, and the fingerprint of the settings that determine every number.
     */
    public record Checkpointing(String dir, CheckpointCadence every, boolean resume, String fingerprint) {
        public static final Checkpointing NONE = new Checkpointing(null, CheckpointCadence.auto(), false, "");

        public Checkpointing {
            Objects.requireNonNull(every, "checkpoint cadence");
            ResumeOptions.check(dir, resume);
        }
    }

    public SmcJob(JavaSparkContext sc, SmcConfig config) {
        this(sc, config, Checkpointing.NONE);
    }

    public SmcJob(JavaSparkContext sc, SmcConfig config, Checkpointing checkpointing) {
        this.sc = sc;
        this.config = config;
        this.checkpointing = checkpointing;
        this.checkpoint = checkpointing.dir() == null ? null
                : new SmcCheckpoint(checkpointing.dir(), sc.hadoopConfiguration());
        this.streams = new RandomStreams(config.seed());
        this.partitioner = new BlockPartitioner(config.partitions(), config.blocks());
        this.relayedStage = new RelayedStepsStage(sc, config, streams, partitioner);
        this.dim = config.model().stateDimension();
    }

    /**
     * Creates the N particles' blocks on the executors (their states are drawn by step 0), or with {@code resume}
     * restores the newest checkpoint (none yet: a fresh start).
     */
    public void initialize() {
        int n = config.particles();
        if (config.lineageDir() != null) {
            sc.setCheckpointDir(config.lineageDir());
        }
        lineageCheckpoints = new LineageCheckpoints(sc.hadoopConfiguration(), "smc");
        started = System.nanoTime();
        int bs = config.options().blockSize();
        SmcOptions o = config.options();
        LOG.info("smc: {} filter of {} with {} particles in {} blocks of {} over {} partitions; {} resampling when "
                + "ESS < {}·N; seed {}", config.model().filter(), config.model().name(), n, config.blocks(), bs,
                config.partitions(), o.scheme().name().toLowerCase(Locale.ROOT), o.essThreshold(), config.seed());
        if (checkpointing.resume() && resume()) {
            return;
        }
        int d = dim;
        List<Integer> ids = IntStream.range(0, config.blocks()).boxed().toList();
        pending = sc.parallelize(ids, config.partitions())
                .map(b -> ParticleBlock.empty(b, Rebalancing.count(b, bs, n), d));
        previousLogSum = BlockPropagation.logSumAfterResampling(n);
    }

    /**
     * Runs time step {@link #steps()} with its observation (NaN components mark it missing).
     *
     * @throws InvalidInputException if the observation is missing and missing observations fail
     * @throws org.sparkmc.core.smc.WeightCollapseException if every weight became zero, or one is NaN or +∞
     */
    public StepSummary step(double[] observation) {
        if (pending == null) {
            throw new IllegalStateException("initialize() first");
        }
        boolean missing = checkMissing(observation, step);
        int n = step;
        ParticleKernel kernel = config.model().kernel();
        double prev = previousLogSum;
        RandomStreams rs = streams;
        double[] y = observation == null ? null : observation.clone();
        sc.setJobGroup("sparkmc-smc-step-" + n, "smc: step " + n + " (move, weight, summarise)", false);
        JavaRDD<ParticleBlock> next = DirectFunctions.map(pending, b -> b.propagate(kernel, n, y, prev, rs));
        next.persist(StorageLevel.MEMORY_AND_DISK());
        boolean cut = (n + 1) % config.lineageEvery() == 0;
        if (cut) {
            if (config.lineageDir() != null) {
                next.checkpoint();
            } else {
                next.rdd().localCheckpoint();
            }
        }
        List<ParticleBlock.Report> reports = new ArrayList<>(DirectFunctions.mapCollect(next, ParticleBlock::report));
        adopt(next, cut);
        GlobalWeights g = weighed(n, reports);
        return afterWeighting(n, next, g, observation, missing);
    }

    /** Folds a step's block reports (any order) in block order; sets the step's compute time (busiest partition). */
    private GlobalWeights weighed(int n, List<ParticleBlock.Report> reports) {
        BusiestPartition busiest = new BusiestPartition();
        for (ParticleBlock.Report r : reports) {
            busiest.add(r.partition(), r.seconds());
        }
        computeSeconds = busiest.seconds();
        return GlobalWeights.of(n, RelayedSteps.summariesInBlockOrder(reports, config.blocks()));
    }

    /**
     * Makes the materialised {@code next} (weighted blocks, or a chunk of steps) the generation the pending particles
     * derive from, releases the older ones, and records a lineage cut when {@code next} was checkpointed.
     */
    private void adopt(JavaRDD<?> next, boolean cut) {
        if (weighted != null) {
            weighted.unpersist(false);
        }
        weighted = next;
        if (saved != null && saved != next) {
            saved.unpersist(false);
        }
        saved = null;
        if (cut && config.lineageDir() != null) {
            lineageCheckpoints.written(next);
        }
        if (cut) {
            resumedFrom = null; // the lineage no longer reads the particles a resume started from
        }
    }

    /**
     * The driver's side of a weighted step: adds its log-sum to log p̂ and, when the ESS calls for it, plans the
     * resampling and makes the offspring (moved between partitions by a shuffle) the next step's particles.
     */
    private StepSummary afterWeighting(int n, JavaRDD<ParticleBlock> next, GlobalWeights g, double[] observation,
            boolean missing) {
        SmcOptions options = config.options();
        long particles = config.particles();
        boolean resample = options.resamples(g.ess(), particles);
        if (resample) {
            sc.setJobGroup("sparkmc-smc-step-" + n, "smc: step " + n + " (resample)", false);
            ResamplingPlan plan = ResamplingPlan.of(options.scheme(), g, particles, streams, n,
                    () -> DirectFunctions.mapCollect(next, b -> b.residualPart(g, particles)));
            int d = dim;
            int bs = options.blockSize();
            pending = next.flatMapToPair(b -> Rebalancing.offspring(b, d, bs, g, plan))
                    .partitionBy(partitioner)
                    .mapPartitions(runs -> Rebalancing.assemble(runs, d, bs, particles), true);
        } else {
            pending = next;
        }
        return recorded(g, resample, observation, missing);
    }

    /**
     * Runs the time steps of {@code observations} as {@link #step} would, in one barrier stage whose tasks exchange
     * after each step, through a relay on the driver, what a per-step job sends to the driver and back
     * ({@link RelayedSteps}: the blocks' summaries, and for a resampling step the offspring that change partition).
     * The driver follows the same rounds for the steps' figures. For several partitions that all get a task slot.
     */
    List<StepSummary> relayedSteps(List<double[]> observations) {
        return relayedSteps(observations, s -> { }, false);
    }

    /**
     * As {@link #relayedSteps(List)} ({@link RelayedStepsStage}); with {@code dropParticles} the stage's blocks are not
     * kept after its last step.
     */
    private List<StepSummary> relayedSteps(List<double[]> observations,
            java.util.function.Consumer<StepSummary> perStep, boolean dropParticles) {
        int first = step;
        Checked checked = checked(observations);
        List<double[]> ys = checked.observations();
        boolean[] missing = checked.missing();
        RelayedStepsStage.Outcome ran = relayedStage.run(pending, first, ys, previousLogSum, !dropParticles,
                (k, reports) -> {
                    GlobalWeights g = weighed(first + k, reports);
                    boolean resample = config.options().resamples(g.ess(), config.particles());
                    return recorded(g, resample, ys.get(k), missing[k]);
                }, perStep);
        if (dropParticles) {
            particlesDropped = true;
        } else {
            adopt(ran.particles(), true);
        }
        pending = ran.particles();
        return ran.steps();
    }

    /**
     * The driver's record of a step whose resampling, if any, the tasks did: log p̂, the resampling count, the
     * log-sum the next step starts from, the step counter, and the step's summary.
     */
    private StepSummary recorded(GlobalWeights g, boolean resampled, double[] observation, boolean missing) {
        double increment = g.logSum();
        logLikelihood += increment;
        if (resampled) {
            resamplings++;
            previousLogSum = BlockPropagation.logSumAfterResampling(config.particles());
        } else {
            previousLogSum = g.logSum();
        }
        return new StepSummary(step++, g.mean(), g.variance(), g.ess(), resampled, increment,
                observation == null || !missing);
    }

    /**
     * Runs the next steps with these observations (at least the first; how many more depends on the engine) and
     * returns them: a chunk in the one task of a single partition ({@link #steps}), a relayed stage up to the first
     * resampling ({@link #relayedSteps}), or else one step ({@link #step}).
     */
    public List<StepSummary> advance(List<double[]> observations) {
        return advance(observations, s -> { }, false);
    }

    /**
     * As {@link #advance(List)}, passing each step's summary to {@code perStep} as soon as the driver has it. With
     * {@code endsRun}, the last of {@code observations} is the run's last step and nothing will read the particles
     * after it (no checkpoint, no {@link #states()}): a relayed stage that reaches it then ends without shuffling the
     * particles, which at 10^6 particles cost a fifth of the run.
     */
    public List<StepSummary> advance(List<double[]> observations, java.util.function.Consumer<StepSummary> perStep,
            boolean endsRun) {
        if (observations.isEmpty()) {
            throw new IllegalArgumentException("no observation to step with");
        }
        if (particlesDropped) {
            throw new IllegalStateException("smc: the run's last step has run, and its particles were not kept");
        }
        if (relays()) {
            return relayedSteps(observations, perStep, endsRun);
        }
        List<StepSummary> done = config.partitions() == 1 ? steps(observations) : List.of(step(observations.get(0)));
        done.forEach(perStep);
        return done;
    }

    /** Whether the steps of several partitions run relayed ({@link SmcConfig#syncVia}). */
    private boolean relays() {
        return config.partitions() > 1 && syncPath.relays(config.syncVia().choose(sc, config.partitions()));
    }

    /**
     * A weight collapse in the task, unwrapped from Spark's job failure as the per-step path throws it; else
     * {@code e} (a checked one wrapped).
     */
    static RuntimeException collapseWithin(Exception e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof WeightCollapseException collapse) {
                return collapse;
            }
        }
        return e instanceof RuntimeException r ? r : new IllegalStateException(e.getMessage(), e);
    }

    /** A chunk's observations (copies) and which of them are missing. */
    private record Checked(List<double[]> observations, boolean[] missing) {
    }

    /** Copies the chunk's observations from step {@link #steps()} on, checking each as {@link #checkMissing} does. */
    private Checked checked(List<double[]> observations) {
        List<double[]> ys = new ArrayList<>(observations.size());
        boolean[] missing = new boolean[observations.size()];
        for (int k = 0; k < observations.size(); k++) {
            double[] y = observations.get(k);
            missing[k] = checkMissing(y, step + k);
            ys.add(y == null ? null : y.clone());
        }
        return new Checked(ys, missing);
    }

    /** Whether the observation is missing (NaN-marked); fails when it is and missing observations fail. */
    private boolean checkMissing(double[] observation, int n) {
        boolean missing = Observations.isMissing(observation);
        if (observation != null && missing && config.options().missing() == MissingObservations.FAIL) {
            throw new InvalidInputException("observation at time step " + n + " (0-based, as filter.csv's step)"
                    + " is missing (NaN); set missing observations to 'skip' to treat it as unobserved");
        }
        return missing;
    }

    /**
     * Runs the next {@code observations.size()} time steps as {@link #step} would, one after another, in the one
     * task that holds every block ({@link LocalSteps}): one Spark job for all of them. Only for a single partition.
     */
    List<StepSummary> steps(List<double[]> observations) {
        if (pending == null) {
            throw new IllegalStateException("initialize() first");
        }
        if (config.partitions() != 1) {
            throw new IllegalStateException("steps in one task need a single partition, not " + config.partitions());
        }
        int first = step;
        Checked checked = checked(observations);
        List<double[]> ys = checked.observations();
        boolean[] missing = checked.missing();
        LocalSteps local = new LocalSteps(config.model().kernel(), config.options(), streams, dim,
                config.particles());
        double prev = previousLogSum;
        sc.setJobGroup("sparkmc-smc-step-" + first, "smc: steps " + first + "–" + (first + ys.size() - 1)
                + " in one task", false);
        // one job per chunk, not per step: the Java API's closure cleaning is paid once for many steps
        JavaRDD<LocalSteps.Chunk> chunk = pending.mapPartitions(
                blocks -> List.of(local.run(blocks, first, ys, prev)).iterator());
        chunk.persist(StorageLevel.MEMORY_AND_DISK());
        JavaRDD<ParticleBlock> next = chunk.flatMap(c -> c.blocks().iterator());
        int lineageEvery = config.lineageEvery();
        boolean cut = (first + ys.size()) / lineageEvery > first / lineageEvery;
        if (cut) {
            if (config.lineageDir() != null) {
                chunk.checkpoint();
            } else {
                chunk.rdd().localCheckpoint();
            }
        }
        LocalSteps.Chunk done;
        try {
            done = DirectFunctions.mapCollect(chunk, LocalSteps.Chunk::summaries).get(0);
        } catch (Exception e) { // Spark's job failure is a checked SparkException that Scala throws undeclared
            throw collapseWithin(e);
        }
        if (done.failure() != null) {
            throw done.failure();
        }
        adopt(chunk, cut);
        pending = next;
        List<StepSummary> out = new ArrayList<>(ys.size());
        for (int k = 0; k < ys.size(); k++) {
            out.add(recorded(done.weights().get(k), done.resampled()[k], ys.get(k), missing[k]));
        }
        computeSeconds = done.seconds() / ys.size();
        return out;
    }

    /**
     * Feeds every observation of the feed through the engines ({@link FeedSteps} run by {@link StepRunner}), with a
     * progress line per step (at a steady rhythm in logs) and a closing line; with checkpointing, saves the run's state
     * every {@code every} steps and after the last.
     */
    public SmcResult run(ObservationFeed feed) {
        FeedSteps steps = new FeedSteps(this, feed);
        (checkpoint == null ? StepRunner.withoutCheckpoints(LOG)
                : StepRunner.checkpointing(LOG, checkpointing.every())).run(steps);
        release();
        return new SmcResult(logLikelihood, steps.rows(), resamplings, (System.nanoTime() - started) / 1e9,
                feed.columns() == null ? List.of() : feed.columns(), feed.location(), feed.online());
    }

    /** The steps a resumed checkpoint holds (none for a fresh start). */
    List<StepRow> restoredRows() {
        return restoredRows;
    }

    /** The last job's compute time per step: the busiest partition's moving and weighting. */
    double computeSeconds() {
        return computeSeconds;
    }

    SmcConfig config() {
        return config;
    }

    /** Where the checkpoints go (null: none). */
    String checkpointDir() {
        return checkpointing.dir();
    }

    /** Saves the particles the next step starts from and the driver's numbers after {@link #steps()} steps. */
    void save(List<StepRow> rows) {
        sc.setJobGroup("sparkmc-smc-checkpoint-" + step, "smc: checkpoint after step " + step, false);
        if (pending.getStorageLevel().equals(StorageLevel.NONE())) {
            // resampled particles: computed once here, then moved by the next step from the cache
            pending.persist(StorageLevel.MEMORY_AND_DISK());
            saved = pending;
        }
        checkpoint.save(new SmcCheckpoint.Saved(checkpointing.fingerprint(), step, logLikelihood, previousLogSum,
                resamplings, rows), pending, resumedFrom);
        LOG.info("smc: checkpoint after step {} in {}", step, checkpoint.location());
    }

    private boolean resume() {
        SmcCheckpoint.Loaded loaded = checkpoint.load(checkpointing.fingerprint(), partitioner);
        if (loaded == null) {
            LOG.info("smc: no checkpoint in {} yet; starting afresh", checkpointing.dir());
            return false;
        }
        SmcCheckpoint.Saved s = loaded.saved();
        pending = loaded.particles();
        saved = pending;
        resumedFrom = loaded.particlesPath();
        step = s.steps();
        logLikelihood = s.logLikelihood();
        previousLogSum = s.previousLogSum();
        resamplings = s.resamplings();
        restoredRows = List.copyOf(s.rows());
        LOG.info("smc: resumed from {} after step {} (log p̂ so far {})", checkpointing.dir(), step, logLikelihood);
        return true;
    }

    /**
     * How many of the next {@code remaining} observations to run as one job: one (a job per step) over several
     * partitions; over one partition as many as give the task about 10^7 particle-steps (at most 4,096), and relayed
     * about 5·10^9 (at most 4,096 steps).
     */
    int chunkLength(int remaining) {
        if (config.partitions() != 1 && !relays()) {
            return 1;
        }
        long budget = config.partitions() == 1 ? CHUNK_PARTICLE_STEPS : RELAYED_CHUNK_PARTICLE_STEPS;
        int length = (int) Math.max(1, Math.min(MAX_CHUNK_STEPS, budget / config.particles()));
        return Math.min(length, remaining);
    }

    /** log p̂ of the observations seen so far. */
    public double logLikelihood() {
        return logLikelihood;
    }

    public int steps() {
        return step;
    }

    public int resamplings() {
        return resamplings;
    }

    /** The current particles' states, N×d row-major, gathered to the driver (for tests: N×d doubles). */
    public double[] states() {
        if (particlesDropped) {
            throw new IllegalStateException("smc: the particles of the run's last step were not kept");
        }
        List<ParticleBlock> blocks = new ArrayList<>(pending.collect());
        blocks.sort(Comparator.comparingInt(ParticleBlock::block));
        double[] all = new double[Math.multiplyExact(config.particles(), dim)];
        int at = 0;
        for (ParticleBlock b : blocks) {
            System.arraycopy(b.states(), 0, all, at, b.states().length);
            at += b.states().length;
        }
        return all;
    }

    /** The lineage depth of the particle RDD (for tests: it must stay bounded over long series). */
    int lineageDepth() {
        return depth(pending.rdd());
    }

    private static int depth(org.apache.spark.rdd.RDD<?> rdd) {
        int max = 0;
        scala.collection.Iterator<org.apache.spark.Dependency<?>> it = rdd.dependencies().iterator();
        while (it.hasNext()) {
            max = Math.max(max, depth(it.next().rdd()));
        }
        return max + 1;
    }

    /** Unpersists the particles and deletes the last lineage checkpoint (they are not needed after the last step). */
    public void release() {
        if (lineageCheckpoints != null) {
            lineageCheckpoints.deleteLast();
        }
        if (weighted != null) {
            weighted.unpersist(false);
        }
        if (saved != null) {
            saved.unpersist(false);
        }
    }
}
