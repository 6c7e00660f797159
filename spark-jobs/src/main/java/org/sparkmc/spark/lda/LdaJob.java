package org.sparkmc.spark.lda;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.Function;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.lda.BestOfChains;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.core.lda.DocumentCompletion;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.LeftToRight;
import org.sparkmc.core.lda.PosteriorMeanTopics;
import org.sparkmc.core.lda.TopicWordCounts;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.run.CheckpointCadence;
import org.sparkmc.spark.run.StepRunner;
import org.sparkmc.spark.run.SteppedJob;
import scala.Tuple2;

/**
 * The {@code lda} job: holds out every {@code heldOutEvery}-th document, runs AD-LDA on the rest in the broadcast
 * ({@link AdLdaSpark}) or model-parallel mode ({@link ModelParallelSpark}, {@link LdaMode}) for the configured
 * sweeps with a progress line per step, optionally checkpointing so a crashed run resumes to the same result, and
 * scores the held-out documents by document completion on the executors. With several chains ({@link LdaChains}) it
 * runs them in turn and goes on with the one of highest training log-likelihood.
 */
public final class LdaJob {
    private static final Logger LOG = LoggerFactory.getLogger(LdaJob.class);

    private final SparkSession spark;
    private final JavaSparkContext sc;
    private final LdaConfig config;
    private final Checkpointing checkpointing;
    private final LdaChains chains;

    /**
     * Driver checkpoints.
     *
     * @param dir where to save (null: none)
     * @param every sweeps between saves (rounded up to whole sync intervals)
     * @param resume continue from the newest checkpoint in {@code dir}
     * @param lineageDir reliable RDD checkpoints for the lineage cuts (null: {@code dir}/rdd, or local ones)
     */
    public record Checkpointing(String dir, CheckpointCadence every, boolean resume, String lineageDir) {
        public static Checkpointing none() {
            return new Checkpointing(null, CheckpointCadence.auto(), false, null);
        }
    }

    public LdaJob(SparkSession spark, LdaConfig config, Checkpointing checkpointing) {
        this(spark, config, checkpointing, LdaChains.one());
    }

    /** A run of {@code chains} chains ({@link LdaChains#of} checked them against the config and checkpointing). */
    public LdaJob(SparkSession spark, LdaConfig config, Checkpointing checkpointing, LdaChains chains) {
        this.spark = spark;
        this.sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        this.config = config;
        this.checkpointing = checkpointing;
        this.chains = chains;
        if (chains.several() && (checkpointing.dir() != null || checkpointing.resume())) {
            throw new InvalidInputException("--chains " + chains.chains() + " takes no --checkpoint or --resume");
        }
    }

    public LdaResult run(LdaCorpus input) {
        long t0 = System.nanoTime();
        LdaDocuments all = input.documents();
        LdaDocuments heldOut = all.heldOut(config.heldOutEvery());
        LdaDocuments training = all.training(config.heldOutEvery());
        if (training.numTokens() == 0) {
            throw new InvalidInputException(input.source() + ": no training document is left after holding out "
                    + "every document whose id is a multiple of " + config.heldOutEvery());
        }
        LdaPriors p = config.priors();
        LdaMode mode = resolveMode(training);
        LOG.info("lda: {} training documents ({} tokens), {} held out, vocabulary {}, {} empty skipped; K={} α={} "
                + "β={} {} sweeps (sync every {}) in {} blocks on {} partitions, kernel {}, seed {}",
                training.numDocuments(), training.numTokens(), heldOut.numDocuments(), all.vocabularySize(),
                input.emptyDocuments(), p.numTopics(), p.alpha(), p.beta(), config.sweeps(), config.syncInterval(),
                config.blocks(), config.partitionsIn(mode), config.kernel(), config.seed());
        LdaCheckpoint checkpoint = checkpointing.dir() == null ? null
                : new LdaCheckpoint(checkpointing.dir(), sc.hadoopConfiguration());
        if (mode == LdaMode.MODEL_PARALLEL && config.blocks() > training.vocabularySize()) { // it failed with a trace
            throw new InvalidInputException("--blocks " + config.blocks() + ": the model-parallel mode cuts the "
                    + "vocabulary into one word slice a block, and the training documents use "
                    + training.vocabularySize() + " words; give at most " + training.vocabularySize() + " blocks");
        }
        if (mode == LdaMode.MODEL_PARALLEL) {
            int partitions = config.partitionsIn(mode);
            LOG.info("lda: model-parallel: the topic-word table in {} word slices rotating over the {} blocks, topic "
                    + "totals synchronised every {}, on {} partitions{}", config.blocks(), config.blocks(),
                    config.totalsSync().name().toLowerCase(Locale.ROOT).replace('_', '-'), partitions,
                    partitions == config.partitions() ? "" : " (the largest divisor of " + config.blocks()
                            + " blocks that is at most --partitions " + config.partitions() + ")");
        }
        String fingerprint = config.fingerprint(input, mode);
        LdaCheckpoint.Saved saved = checkpointing.resume() ? checkpoint.load(fingerprint) : null;
        if (saved != null) {
            checkpoint.checkSweeps(saved.sweeps(), config.sweeps());
        }
        // Only a checkpoint this run resumes is tidied, and before Spark makes its own rdd/<uuid> there.
        int leftovers = checkpoint == null || !checkpointing.resume() ? 0 : checkpoint.deleteLeftovers();
        if (leftovers > 0) {
            LOG.info("lda: deleted {} leftovers of an earlier run killed before its end in {} (lineage cuts, "
                    + "half-written topics)", leftovers, checkpointing.dir());
        }
        if (checkpointing.lineageDir() != null) {
            sc.setCheckpointDir(checkpointing.lineageDir());
        } else if (checkpoint != null) {
            sc.setCheckpointDir(checkpoint.rddDirectory());
        }
        // Both block sets are built from the input read once: the held-out ones are cached here for the evaluation,
        // the training ones when the sweeps start (lineage cut after the first step), and then the input is released.
        JavaPairRDD<Integer, Corpus> heldOutBlocks = heldOutBlocks(heldOut);
        Sweeps sweeps = new Sweeps(all, training, checkpoint, fingerprint, saved, mode);
        int interval = config.syncInterval();
        // Saves fall after whole sync steps: a fixed checkpoint interval rounded up to them.
        StepRunner runner = checkpoint == null ? StepRunner.withoutCheckpoints(LOG)
                : StepRunner.checkpointing(LOG, checkpointing.every().roundedUpTo(interval));
        runner.run(sweeps);
        LdaRun run = sweeps.run;
        // The caller closes the run it returns; on a failure it is closed here (cached blocks, newest lineage
        // checkpoint).
        try {
            PosteriorMeanTopics mean = sweeps.mean;
            double[] meanPhi = mean == null ? null : mean.phi();
            DocumentCompletion.Result finalState = heldOutBlocks == null ? null : evaluate(run.counts(), heldOutBlocks);
            DocumentCompletion.Result averaged = meanPhi == null || heldOutBlocks == null ? null
                    : evaluate(meanPhi, heldOutBlocks);
            DocumentCompletion.Result leftToRight = heldOutBlocks == null || config.leftToRight() == null ? null
                    : leftToRight(run.counts(), meanPhi, heldOutBlocks);
            if (heldOutBlocks != null) {
                heldOutBlocks.unpersist(false);
            }
            DocumentCompletion.Result evaluation = averaged != null ? averaged : finalState;
            if (evaluation != null) {
                LOG.info("lda: held-out perplexity {} over {} documents ({} scored tokens){}",
                        String.format(Locale.ROOT, "%.2f", evaluation.perplexity()), evaluation.documents(),
                        evaluation.scoredTokens(), averaged == null ? "" : String.format(Locale.ROOT,
                                " with the posterior-mean topics of %d states; %.2f with the final state's",
                                config.topicSamples(), finalState.perplexity()));
            }
            return new LdaResult(run, input, training, heldOut, sweeps.history, evaluation, meanPhi,
                    averaged == null ? null : finalState, leftToRight, (System.nanoTime() - t0) / 1e9, saved != null,
                    mode, sweeps.explored == null ? List.of() : sweeps.explored.scores(),
                    sweeps.explored == null ? 0 : sweeps.explored.chosen());
        } catch (Throwable e) { // also Spark's SparkException: checked, yet thrown undeclared from Scala
            StepRunner.releaseAfter(e, run::close);
            throw e;
        }
    }

    /**
     * The mode to run: the configured one, or for {@code auto} the broadcast mode unless its copies of the
     * topic–word table would not fit an executor ({@link LdaMode#chooseForBytes}), from the training corpus' word
     * frequencies.
     */
    private LdaMode resolveMode(LdaDocuments training) {
        if (config.mode() != LdaMode.AUTO) {
            return config.mode();
        }
        if (config.syncInterval() != 1 || config.blocks() < 2) {
            LOG.info("lda: mode auto → broadcast (the model-parallel mode needs sync interval 1 and at least 2 "
                    + "blocks)");
            return LdaMode.BROADCAST;
        }
        sc.setJobGroup("sparkmc-lda-mode", "lda: model size", false);
        int k = config.priors().numTopics();
        int[] frequencies = training.wordFrequencies();
        long cells = TopicWordCounts.cellBound(k, frequencies);
        LdaMode.ExecutorShape shape = LdaMode.ExecutorShape.of(sc);
        long bytes = LdaMode.broadcastBytes(cells, config.kernel().samplerBytes(k, frequencies), shape.cores());
        LdaMode mode = LdaMode.AUTO.chooseForBytes(bytes, shape.heapBytes());
        LOG.info("lda: mode auto → {}: the broadcast mode's count tables would take about {} MB of an executor's "
                + "{} MB heap ({} cells of the topic-word table, {} tasks per executor, kernel {})", mode.label(),
                bytes >> 20, shape.heapBytes() >> 20, cells, shape.cores(), config.kernel());
        return mode;
    }

    /**
     * The sweeps as {@link StepRunner} drives them: a chain started afresh or restored from the checkpoint, in the
     * resolved mode, advanced in whole sync steps (one relayed stage, one Spark job per step, or P sub-step jobs per
     * sweep), its log-likelihood history and posterior topic samples kept, and saved with them. With several
     * chains, each runs its chain sweeps in turn from its own seed, and the best ({@link BestChain}) goes on to the
     * end: its rows and topic samples are the run's.
     */
    private final class Sweeps implements SteppedJob {
        private final LdaDocuments read;
        private final LdaDocuments training;
        private final LdaCheckpoint checkpoint;
        private final String fingerprint;
        private final LdaCheckpoint.Saved saved;
        private final LdaMode mode;
        private List<LoglikRow> history = new ArrayList<>();
        private final Map<Integer, String> samples = new TreeMap<>();
        private PosteriorMeanTopics mean;
        private LdaRun run;
        /** The chains explored so far (null with one chain), and the one running while exploring. */
        private final BestChain explored;
        private int chain;

        /** @param read the documents as read, released once the training blocks are cached */
        Sweeps(LdaDocuments read, LdaDocuments training, LdaCheckpoint checkpoint, String fingerprint,
                LdaCheckpoint.Saved saved, LdaMode mode) {
            this.read = read;
            this.training = training;
            this.checkpoint = checkpoint;
            this.fingerprint = fingerprint;
            this.saved = saved;
            this.mode = mode;
            this.explored = chains.several() ? new BestChain() : null;
        }

        @Override
        public void initialise() {
            LdaPriors p = config.priors();
            boolean modelParallel = mode == LdaMode.MODEL_PARALLEL;
            if (saved == null) {
                run = startChain(0);
            } else {
                LOG.info("lda: resuming after sweep {} from {}", saved.sweeps(), checkpointing.dir());
                JavaPairRDD<Integer, Corpus> blocks = training.blocks(config.blocks(), config.partitions());
                JavaPairRDD<Integer, char[]> topics = checkpoint.topics(spark, saved);
                run = modelParallel
                        ? ModelParallelSpark.restore(sc, blocks, training.numTokens(), training.vocabularySize(),
                                config.modelParallelOptions(), saved.sweeps(), topics)
                        : AdLdaSpark.restore(sc, blocks, training.numTokens(), training.vocabularySize(),
                                config.samplerOptions(), saved.sweeps(), topics);
                history.addAll(saved.history());
            }
            if (explored == null) {
                read.release();
            }
            mean = newMean();
            if (saved != null) {
                samples.putAll(saved.sampleChecksums());
                restoreSamples(mean, checkpoint, saved);
            }
        }

        private PosteriorMeanTopics newMean() {
            LdaPriors p = config.priors();
            return config.topicSamples() > 1
                    ? PosteriorMeanTopics.of(p.numTopics(), training.vocabularySize(), p.beta()) : null;
        }

        /** Chain {@code c} from its random start ({@link BestOfChains#chainSeed}; chain 0 has the run's seed). */
        private LdaRun startChain(int c) {
            long seed = BestOfChains.chainSeed(config.seed(), c);
            JavaPairRDD<Integer, Corpus> blocks = training.blocks(config.blocks(), config.partitions());
            LdaRun r = mode == LdaMode.MODEL_PARALLEL
                    ? ModelParallelSpark.start(sc, blocks, training.numTokens(), training.vocabularySize(),
                            config.modelParallelOptions().withSeed(seed))
                    : AdLdaSpark.start(sc, blocks, training.numTokens(), training.vocabularySize(),
                            config.samplerOptions().withSeed(seed));
            history = new ArrayList<>(List.of(LoglikRow.of(r.lastStep())));
            if (explored != null) {
                LOG.info("lda: chain {} of {} (seed {}) started, {} sweeps before the best is chosen", c + 1,
                        chains.chains(), seed, chains.chainSweeps());
            }
            return r;
        }

        /** Whether chains are still being explored (one of them running its chain sweeps). */
        private boolean exploring() {
            return explored != null && chain < chains.chains();
        }

        @Override
        public int plannedSteps() {
            return config.sweeps() + (chains.chains() - 1) * chains.chainSweeps();
        }

        /** The sweeps of every chain so far: the explored chains' chain sweeps, then the running one's. */
        @Override
        public int stepsDone() {
            int before = explored == null ? 0 : Math.min(chain, chains.chains() - 1) * chains.chainSweeps();
            return before + run.sweepsDone();
        }

        @Override
        public boolean isDone() {
            return !exploring() && run.sweepsDone() >= config.sweeps();
        }

        /** Whole sync steps up to {@code limit} sweeps (at least one), or the last, shorter one. */
        @Override
        public void advance(int limit, Consumer<StepLine> lines) {
            int interval = config.syncInterval();
            int end = exploring() ? chains.chainSweeps() : config.sweeps();
            int left = end - run.sweepsDone();
            int steps = Math.min(Math.max(1, limit / interval), left / interval);
            String phase = exploring() ? "chain " + (chain + 1) + "/" + chains.chains() : "sample";
            String prefix = exploring() ? phase + "  "
                    : explored != null ? "chain " + (explored.chosen() + 1) + " (chosen)  " : "";
            int before = stepsDone() - run.sweepsDone();
            run.advance(Math.max(steps, 1), steps == 0 ? left : interval, config::isTopicSample, step -> {
                LoglikRow row = LoglikRow.of(step);
                history.add(row);
                lines.accept(new StepLine(before + step.sweeps(), phase, line(prefix, row, step, run),
                        before + step.sweeps() == plannedSteps()));
                if (config.isTopicSample(step.sweeps())) {
                    mean.add(run.counts());
                    if (checkpoint != null) {
                        samples.put(step.sweeps(), checkpoint.saveSample(step.sweeps(), run.counts()));
                    }
                }
            });
            if (exploring() && run.sweepsDone() >= chains.chainSweeps()) {
                endChain();
            }
        }

        /**
         * Scores the chain that ran its chain sweeps, keeps it if it is the best so far, and starts the next chain,
         * or after the last goes on with the best.
         */
        private void endChain() {
            BestOfChains.Score s = explored.offer(chain, BestOfChains.chainSeed(config.seed(), chain), run, history,
                    mean);
            LOG.info("lda: chain {} of {} (seed {}) scored log p(w,z)/token {} over its last {} sweeps{}", chain + 1,
                    chains.chains(), s.seed(), String.format(Locale.ROOT, "%.5f", s.score()),
                    s.sweeps(),
                    explored.chosen() == chain ? " (the best so far)" : "");
            chain++;
            if (chain < chains.chains()) {
                run = startChain(chain);
                mean = newMean();
                samples.clear();
            } else {
                run = explored.best();
                history = new ArrayList<>(explored.bestHistory());
                mean = explored.bestMean();
                read.release();
                LOG.info("lda: chain {} of {} chosen (seed {}, score {}){}", explored.chosen() + 1, chains.chains(),
                        BestOfChains.chainSeed(config.seed(), explored.chosen()),
                        String.format(Locale.ROOT, "%.5f", explored.scores().get(explored.chosen()).score()),
                        run.sweepsDone() < config.sweeps() ? "; it goes on to sweep " + config.sweeps() : "");
            }
        }

        @Override
        public void snapshot() {
            checkpoint.save(spark, fingerprint, run, history, samples);
        }

        @Override
        public void release() {
            if (run != null) {
                run.close();
            }
            if (explored != null) {
                explored.closeUnless(run);
            }
        }
    }

    /**
     * Adds the topic samples a resumed run saved before its checkpoint to {@code mean}; every sample sweep up to
     * the checkpoint must have one (a run checkpointed under other --topic-samples settings may lack some).
     */
    private void restoreSamples(PosteriorMeanTopics mean, LdaCheckpoint checkpoint, LdaCheckpoint.Saved saved) {
        if (mean == null) {
            return;
        }
        for (int sweep = 1; sweep <= saved.sweeps(); sweep++) {
            if (!config.isTopicSample(sweep)) {
                continue;
            }
            String sha = saved.sampleChecksums().get(sweep);
            if (sha == null) {
                throw new InvalidInputException("checkpoint in " + checkpointing.dir() + " has no topic sample for "
                        + "sweep " + sweep + " (it was written with other --topic-samples/--topic-sample-every "
                        + "settings); resume with those, or remove the checkpoint directory to start over");
            }
            mean.add(checkpoint.loadSample(sweep, sha));
        }
    }

    /** The progress line, with {@code chain} ("chain 2/4  ", or empty) before the sweep. */
    private static String line(String chain, LoglikRow row, AdLdaSpark.Step step, LdaRun run) {
        return String.format(Locale.ROOT, "lda: %ssweep %d  log p(w,z)/token %.4f  %.0f tokens/s  sampling %.3f s  "
                + "sync %.3f s  %s %.2f MB", chain, row.sweep(), row.perToken(), row.tokensPerSecond(),
                row.samplingSeconds(), row.syncSeconds(), run.syncName(step), step.syncBytes() / 1e6);
    }

    /**
     * The held-out documents in a fixed cut into blocks (min(B, documents) of them), cached and built now; null when
     * none are held out.
     */
    private JavaPairRDD<Integer, Corpus> heldOutBlocks(LdaDocuments heldOut) {
        if (heldOut.numDocuments() == 0) {
            return null;
        }
        int numBlocks = Math.min(config.blocks(), heldOut.numDocuments());
        JavaPairRDD<Integer, Corpus> blocks = heldOut.blocks(numBlocks, Math.min(numBlocks, config.partitions()))
                .persist(StorageLevel.MEMORY_AND_DISK());
        blocks.count();
        return blocks;
    }

    /**
     * Document completion of the held-out blocks against the final counts, on the executors (each document's split
     * and fold-in have their own stream), sums added in block order.
     */
    private DocumentCompletion.Result evaluate(TopicWordCounts counts, JavaPairRDD<Integer, Corpus> heldOut) {
        Broadcast<TopicWordCounts> bc = sc.broadcast(counts);
        LdaPriors p = config.priors();
        DocumentCompletion completion = config.completion();
        RandomStreams streams = new RandomStreams(config.seed());
        DocumentCompletion.Result result = evaluate(heldOut, b -> completion.evaluate(bc.value(), p, b, streams));
        bc.destroy(false);
        return result;
    }

    /** The same against explicit topics φ (word-major), e.g. the posterior mean; same split and streams. */
    private DocumentCompletion.Result evaluate(double[] phi, JavaPairRDD<Integer, Corpus> heldOut) {
        Broadcast<double[]> bc = sc.broadcast(phi);
        int k = config.priors().numTopics();
        double alpha = config.priors().alpha();
        DocumentCompletion completion = config.completion();
        RandomStreams streams = new RandomStreams(config.seed());
        DocumentCompletion.Result result = evaluate(heldOut, b -> completion.evaluate(bc.value(), k, alpha, b,
                streams));
        bc.destroy(false);
        return result;
    }

    /**
     * The left-to-right estimate of the whole held-out documents with the reported topics (the posterior mean when
     * there is one, else the final counts), on the executors; each document has its own stream.
     */
    private DocumentCompletion.Result leftToRight(TopicWordCounts counts, double[] meanPhi,
            JavaPairRDD<Integer, Corpus> heldOut) {
        LeftToRight estimator = config.leftToRight();
        LdaPriors p = config.priors();
        RandomStreams streams = new RandomStreams(config.seed());
        Broadcast<?> bc;
        Function<Corpus, DocumentCompletion.Result> score;
        if (meanPhi != null) {
            Broadcast<double[]> phi = sc.broadcast(meanPhi);
            bc = phi;
            score = b -> estimator.evaluate(phi.value(), p.numTopics(), p.alpha(), b, streams);
        } else {
            Broadcast<TopicWordCounts> c = sc.broadcast(counts);
            bc = c;
            score = b -> estimator.evaluate(c.value(), p, b, streams);
        }
        DocumentCompletion.Result result = evaluate(heldOut, score);
        LOG.info("lda: held-out left-to-right perplexity {} over {} documents ({} tokens, {} particles)",
                String.format(Locale.ROOT, "%.2f", result.perplexity()), result.documents(), result.scoredTokens(),
                estimator.particles());
        bc.destroy(false);
        return result;
    }

    private DocumentCompletion.Result evaluate(JavaPairRDD<Integer, Corpus> heldOut,
            Function<Corpus, DocumentCompletion.Result> score) {
        sc.setJobGroup("sparkmc-lda-evaluate", "lda: held-out evaluation", false);
        List<Tuple2<Integer, DocumentCompletion.Result>> parts = new ArrayList<>(heldOut.mapValues(score).collect());
        parts.sort((a, b) -> Integer.compare(a._1(), b._1()));
        double logLik = 0;
        long scored = 0;
        int docs = 0;
        for (Tuple2<Integer, DocumentCompletion.Result> part : parts) {
            DocumentCompletion.Result r = part._2();
            logLik += r.logLikelihood();
            scored += r.scoredTokens();
            docs += r.documents();
        }
        return new DocumentCompletion.Result(Math.exp(-logLik / scored), logLik, scored, docs);
    }
}
