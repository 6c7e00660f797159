package org.sparkmc.spark.lda;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
import java.util.stream.Collectors;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import org.slf4j.LoggerFactory;
import org.sparkmc.core.lda.AdLda;
import org.sparkmc.core.lda.BlockSweeper;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.core.lda.LdaKernel;
import org.sparkmc.core.lda.LdaLogLikelihood;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.TopicWordCounts;
import org.sparkmc.core.lda.TopicWordDelta;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.BusiestPartition;
import org.sparkmc.spark.DirectFunctions;
import org.sparkmc.spark.io.LineageCheckpoints;
import org.sparkmc.spark.sync.RoundRelay;
import org.sparkmc.spark.sync.SyncPathLog;
import org.sparkmc.spark.sync.SyncVia;
import scala.Tuple2;

/**
 * Approximate distributed LDA (AD-LDA; Newman, Asuncion, Smyth &amp; Welling, JMLR 2009) on Spark: collapsed Gibbs
 * sampling of the topic assignments z of a corpus cut into B document blocks that stay cached on the executors.
 * Per step, every block sweeps its documents {@code syncInterval} times against its own copy of the global
 * topic–word counts ({@link AdLda#sweepBlock}), and the blocks' sparse count changes are merged, in block order,
 * into the next global counts. Two ways to run the steps ({@link SyncVia}), with the same draws:
 * <ul>
 *   <li><b>relay</b>: one barrier stage runs many steps ({@link RelayedSweepsStage}). Its tasks keep their blocks,
 *   exchange the count changes after each step through a {@link RoundRelay} on the driver and merge them themselves
 *   ({@link RelayedSweeps}). The driver merges nothing: it reads the blocks' figures, and partition 0's task sends it
 *   each step's topic–word term and the counts after the steps it asks for and after the stage's last. A few
 *   milliseconds of sync per step.</li>
 *   <li><b>jobs</b>: one Spark job per step. The driver broadcasts the counts (sparse, bit-packed:
 *   {@link TopicWordCounts}), collects the blocks' changes and merges them. Tens of milliseconds per step, but it runs
 *   where a barrier stage cannot: more partitions than task slots, or dynamic allocation.</li>
 * </ul>
 *
 * <p>Deterministic for a seed and a number of blocks: a block's stream is keyed by (sweep, block), never by a
 * partition or thread, and the merge adds integers, so any number of partitions or executors, and any retried or
 * recomputed task, gives the same topics bit for bit. The previous step's blocks are unpersisted once the next are
 * materialised, and the lineage is cut after the first step and every {@code lineageInterval} Spark jobs, or never
 * for −1, and at the end of every relayed stage (reliable checkpoints when Spark has a checkpoint directory, local
 * ones otherwise); only the broadcasts a recomputation could still need are kept, and only the newest reliable
 * checkpoint (none after {@link #close}).
 */
public final class AdLdaSpark implements LdaRun {
    private final JavaSparkContext sc;
    private final LdaPriors priors;
    private final RandomStreams streams;
    private final LdaKernel kernel;
    private final int numBlocks;
    private final int partitions;
    private final SyncVia syncVia;
    private final RelayedSweepsStage relayedStage;
    private final SyncPathLog syncPath = new SyncPathLog(LoggerFactory.getLogger(AdLdaSpark.class), "lda",
            "sync step");
    private final int lineageInterval;
    private final long tokens;
    private final List<Broadcast<TopicWordCounts>> liveBroadcasts = new ArrayList<>();
    private JavaRDD<LdaBlock> blocks;
    private final LineageCheckpoints lineageCheckpoints;
    private TopicWordCounts global;
    private int countsSweeps;
    private double documentTerms;
    private int sweeps;
    private int steps;
    private Step last;

    /**
     * How the sampler runs.
     *
     * @param priors K, α and β
     * @param numBlocks B, the document blocks (part of the result's contract with the seed)
     * @param partitions Spark partitions holding the blocks (does not change any number)
     * @param seed the root seed of every block's streams
     * @param kernel the per-token update
     * @param lineageInterval Spark jobs between cuts of the blocks' lineage, or −1 for never (MLlib's
     *     checkpointInterval); a relayed stage is always cut at its end
     * @param syncVia how the steps run (does not change any number)
     */
    public record Options(LdaPriors priors, int numBlocks, int partitions, long seed, LdaKernel kernel,
            int lineageInterval, SyncVia syncVia) {
        public Options {
            if (numBlocks < 1 || partitions < 1 || lineageInterval < 1 && lineageInterval != -1) {
                throw new IllegalArgumentException("blocks and partitions must be positive, the lineage interval "
                        + "positive or -1");
            }
        }

        /** The same options for a chain of root seed {@code chainSeed} (the {@code lda} job's several chains). */
        public Options withSeed(long chainSeed) {
            return new Options(priors, numBlocks, partitions, chainSeed, kernel, lineageInterval, syncVia);
        }
    }

    /**
     * What one step (a sync interval's sweeps and the merge) did.
     *
     * @param sweeps the sweeps done after this step
     * @param logLikelihood log p(w, z) after it
     * @param seconds the step's wall-clock time
     * @param samplingSeconds the busiest partition's sampling time (the step's critical path)
     * @param tokensPerSecond tokens swept per wall-clock second
     * @param syncBytes the bytes the sync moved: the broadcast counts' arrays (jobs) or the relayed reports (relay)
     * @param relayed whether the step ran in a relayed stage
     */
    public record Step(int sweeps, double logLikelihood, double perToken, double seconds, double samplingSeconds,
            double tokensPerSecond, long syncBytes, boolean relayed) {
        /** Time outside sampling: the sync (broadcast or relay), scheduling, collecting and merging the changes. */
        public double syncSeconds() {
            return Math.max(0, seconds - samplingSeconds);
        }
    }

    private AdLdaSpark(JavaSparkContext sc, Options options, long tokens) {
        this.sc = sc;
        this.lineageCheckpoints = new LineageCheckpoints(sc.hadoopConfiguration(), "lda");
        this.priors = options.priors();
        this.streams = new RandomStreams(options.seed());
        this.kernel = options.kernel();
        this.numBlocks = options.numBlocks();
        this.partitions = options.partitions();
        this.syncVia = options.syncVia();
        this.lineageInterval = options.lineageInterval();
        this.tokens = tokens;
        this.relayedStage = new RelayedSweepsStage(sc, options, streams, tokens);
    }

    /** Cuts {@code training} into blocks, ships them to the executors and draws the initial topics there. */
    public static AdLdaSpark start(JavaSparkContext sc, Corpus training, Options options) {
        return start(sc, keyed(sc, training, options), training.numTokens(), training.vocabularySize(), options);
    }

    /**
     * Starts from blocks already on the executors ({@code options.numBlocks()} of them, keyed 0..B−1): draws the
     * initial topics there.
     */
    public static AdLdaSpark start(JavaSparkContext sc, JavaPairRDD<Integer, Corpus> blocks, long tokens,
            int vocabularySize, Options options) {
        AdLdaSpark run = new AdLdaSpark(sc, options, tokens);
        LdaPriors p = run.priors;
        RandomStreams rs = run.streams;
        long t0 = System.nanoTime();
        double sampling = run.collectStep(blocks.map(t -> LdaBlock.initial(t._1(), t._2(), p, rs)),
                TopicWordCounts.empty(p.numTopics(), vocabularySize));
        run.last = run.stepSummary(seconds(t0), sampling, 1, 0, false);
        return run;
    }

    /**
     * Continues a run from saved topics after {@code sweepsDone} sweeps: {@code savedTopics} holds every block's
     * topics by block id; the global counts are rebuilt from them.
     */
    public static AdLdaSpark restore(JavaSparkContext sc, JavaPairRDD<Integer, Corpus> blocks, long tokens,
            int vocabularySize, Options options, int sweepsDone, JavaPairRDD<Integer, char[]> savedTopics) {
        AdLdaSpark run = new AdLdaSpark(sc, options, tokens);
        LdaPriors p = run.priors;
        JavaRDD<LdaBlock> restored = blocks.join(savedTopics, new HashPartitioner(options.partitions()))
                .map(t -> LdaBlock.restored(t._1(), t._2()._1(), t._2()._2(), p));
        run.collectStep(restored, TopicWordCounts.empty(p.numTopics(), vocabularySize));
        if (run.global.totalTokens() != tokens) {
            throw new IllegalStateException("saved topics cover " + run.global.totalTokens() + " of " + tokens
                    + " tokens");
        }
        run.sweeps = sweepsDone;
        run.countsSweeps = sweepsDone;
        run.last = run.stepSummary(0, 0, 0, 0, false);
        return run;
    }

    private static JavaPairRDD<Integer, Corpus> keyed(JavaSparkContext sc, Corpus training, Options options) {
        Corpus[] cut = training.blocks(options.numBlocks());
        List<Tuple2<Integer, Corpus>> keyed = new ArrayList<>(cut.length);
        for (int b = 0; b < cut.length; b++) {
            keyed.add(new Tuple2<>(b, cut[b]));
        }
        return sc.parallelizePairs(keyed, options.partitions());
    }

    /** As {@link #advance(int, int, IntPredicate, Consumer)}, wanting the counts after the last step only. */
    public void advance(int numSteps, int sweepsPerStep, Consumer<Step> afterStep) {
        advance(numSteps, sweepsPerStep, sweep -> false, afterStep);
    }

    /**
     * Runs {@code numSteps} steps of {@code sweepsPerStep} sweeps each and passes each step's figures to
     * {@code afterStep} as it ends; during the call the run's sweeps and log-likelihood are those after that step, and
     * so are its {@link #counts()} when {@code countsWanted} holds for the sweeps done (in relay mode the counts stay
     * on the executors otherwise). After the call the counts are the last step's. In relay mode the blocks keep
     * sampling meanwhile, so a slow {@code afterStep} costs the driver's CPU only.
     */
    @Override
    public void advance(int numSteps, int sweepsPerStep, IntPredicate countsWanted, Consumer<Step> afterStep) {
        if (numSteps < 1 || sweepsPerStep < 1) {
            throw new IllegalArgumentException("steps and sweeps per step must be positive");
        }
        if (syncPath.relays(syncVia.choose(sc, partitions))) {
            relayed(numSteps, sweepsPerStep, countsWanted, afterStep);
        } else {
            for (int i = 0; i < numSteps; i++) {
                afterStep.accept(step(sweepsPerStep));
            }
        }
    }

    /** Runs {@code numSweeps} sweeps of every block against the current global counts, then merges: one Spark job. */
    public Step step(int numSweeps) {
        long t0 = System.nanoTime();
        Broadcast<TopicWordCounts> counts = sc.broadcast(global);
        liveBroadcasts.add(counts);
        LdaPriors p = priors;
        RandomStreams rs = streams;
        LdaKernel k = kernel;
        int first = sweeps;
        sc.setJobGroup("sparkmc-lda-sweep-" + first, "lda: sweeps " + first + ".." + (first + numSweeps - 1), false);
        long broadcastBytes = global.payloadBytes();
        JavaRDD<LdaBlock> next = blocks.mapPartitions(part -> {
            BlockSweeper sweeper = new BlockSweeper(p, k);
            List<LdaBlock> swept = new ArrayList<>();
            part.forEachRemaining(b -> swept.add(b.sweep(sweeper, counts.value(), rs, first, numSweeps)));
            return swept.iterator();
        }, true);
        double sampling = collectStep(next, global);
        sweeps += numSweeps;
        countsSweeps = sweeps;
        last = stepSummary(seconds(t0), sampling, numSweeps, broadcastBytes, false);
        return last;
    }

    /**
     * The relay mode's steps: one barrier stage ({@link RelayedSweepsStage}), its rounds read as they are relayed. A
     * step is reported when the next round brings its topic–word term (and the counts, when wanted), one round late;
     * the stage's extra last round brings the last step's.
     */
    private void relayed(int numSteps, int sweepsPerStep, IntPredicate countsWanted, Consumer<Step> afterStep) {
        long t0 = System.nanoTime();
        Broadcast<TopicWordCounts> counts = sc.broadcast(global);
        liveBroadcasts.add(counts);
        boolean[] cut = {false};
        JavaRDD<LdaBlock> next = relayedStage.run(blocks, counts, t0, sweeps, numSteps, sweepsPerStep, countsWanted,
                new RelayedSweepsStage.Steps() {
                    @Override
                    public void keep(JavaRDD<LdaBlock> kept) {
                        cut[0] = prepare(kept, true);
                    }

                    @Override
                    public double takeFigures(List<LdaBlock.BlockFigures> figures) {
                        return AdLdaSpark.this.takeFigures(figures);
                    }

                    @Override
                    public void record(ReportFrames.Head keeper, Step p) {
                        sweeps += sweepsPerStep;
                        if (keeper.counts() != null) {
                            global = keeper.counts();
                            countsSweeps = sweeps;
                        }
                        last = new Step(sweeps, keeper.wordTerm() + documentTerms,
                                (keeper.wordTerm() + documentTerms) / tokens, p.seconds(), p.samplingSeconds(),
                                p.tokensPerSecond(), p.syncBytes(), true);
                        afterStep.accept(last);
                    }
                });
        adopt(next, cut[0]);
    }

    private static double seconds(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }

    private Step stepSummary(double seconds, double sampling, int numSweeps, long syncBytes, boolean relayed) {
        double ll = LdaLogLikelihood.topicWordTerm(global, priors.beta()) + documentTerms;
        return new Step(sweeps, ll, ll / tokens, seconds, sampling,
                seconds > 0 ? tokens * (double) numSweeps / seconds : 0, syncBytes, relayed);
    }

    /** The last step's figures (after {@link #start}: the random initial state's, as sweep 0). */
    @Override
    public Step lastStep() {
        return last;
    }

    /** Materialises {@code next}, collects its reports and merges them into {@code base}; returns the sampling time of
     * the busiest partition (its blocks run in turn), the step's critical path. */
    private double collectStep(JavaRDD<LdaBlock> next, TopicWordCounts base) {
        boolean cut = prepare(next, false);
        double slowest = absorb(new ArrayList<>(DirectFunctions.mapCollect(next, LdaBlock::report)), base);
        adopt(next, cut);
        return slowest;
    }

    /**
     * Caches the next blocks and marks them for a lineage cut when one is due (before their first action); returns
     * whether one is. A relayed stage's blocks are always cut: a recomputation could not rerun the stage, whose relay
     * is gone.
     */
    private boolean prepare(JavaRDD<LdaBlock> next, boolean relayed) {
        next.persist(StorageLevel.MEMORY_AND_DISK());
        // The random start is cut at once (until then every task would re-send its documents from the driver),
        // unless the lineage is never cut.
        steps++;
        boolean cut = relayed || lineageInterval > 0 && (steps == 1 || steps % lineageInterval == 0);
        if (cut) {
            if (sc.getCheckpointDir().isPresent()) {
                next.checkpoint();
            } else {
                next.rdd().localCheckpoint();
            }
        }
        return cut;
    }

    /** Merges a step's block reports into {@code base} as the new global counts and document terms; returns the
     * busiest partition's sampling time. */
    private double absorb(List<LdaBlock.BlockReport> reports, TopicWordCounts base) {
        global = AdLda.merge(base, RelayedSweeps.deltasInBlockOrder(reports, numBlocks));
        return takeFigures(reports.stream().map(LdaBlock.BlockReport::figures).collect(Collectors.toList()));
    }

    /**
     * Takes a step's document terms (summed in block order) from its blocks' figures; returns the busiest partition's
     * sampling time.
     */
    private double takeFigures(List<LdaBlock.BlockFigures> figures) {
        figures.sort(Comparator.comparingInt(LdaBlock.BlockFigures::block));
        RelayedSweeps.checkEveryBlockOnce(figures.stream().map(LdaBlock.BlockFigures::block).toList(), numBlocks);
        double docTerms = 0;
        BusiestPartition busiest = new BusiestPartition();
        for (LdaBlock.BlockFigures f : figures) {
            docTerms += f.documentTerm();
            busiest.add(f.partition(), f.samplingSeconds());
        }
        documentTerms = docTerms;
        return busiest.seconds();
    }

    /** Makes the materialised {@code next} the current blocks and releases what no recomputation can need. */
    private void adopt(JavaRDD<LdaBlock> next, boolean cut) {
        if (blocks != null) {
            blocks.unpersist(false);
        }
        blocks = next;
        if (cut && sc.getCheckpointDir().isPresent()) {
            lineageCheckpoints.written(next);
        }
        if (cut && !liveBroadcasts.isEmpty()) {
            // Nothing before this step can be recomputed any more: the older broadcasts may go. This step's stays
            // (its closure is still part of the checkpointed blocks, which Spark serialises with later tasks).
            Broadcast<TopicWordCounts> newest = liveBroadcasts.remove(liveBroadcasts.size() - 1);
            liveBroadcasts.forEach(b -> b.destroy(false));
            liveBroadcasts.clear();
            newest.unpersist(false);
            liveBroadcasts.add(newest);
        } else if (liveBroadcasts.size() > 1) {
            // Executors need only the newest; the driver keeps the older values for a recomputation.
            liveBroadcasts.get(liveBroadcasts.size() - 2).unpersist(false);
        }
    }

    /** log p(w, z) of the current state: the topic–word term plus every block's document term (summed in block order). */
    @Override
    public double logLikelihood() {
        return last.logLikelihood();
    }

    /**
     * The global topic–word counts of the current state.
     *
     * @throws IllegalStateException during relayed steps whose counts were not wanted (they stay on the executors)
     */
    @Override
    public TopicWordCounts counts() {
        if (countsSweeps != sweeps) {
            throw new IllegalStateException("lda: the counts after sweep " + sweeps + " stayed on the executors (the "
                    + "driver has those after sweep " + countsSweeps + ")");
        }
        return global;
    }

    @Override
    public int sweepsDone() {
        return sweeps;
    }

    @Override
    public long tokens() {
        return tokens;
    }

    @Override
    public LdaPriors priors() {
        return priors;
    }

    /** The blocks with their current topics (cached on the executors). */
    @Override
    public JavaRDD<LdaBlock> blocks() {
        return blocks;
    }

    /** Releases the cached blocks and broadcasts and deletes the last lineage checkpoint. */
    @Override
    public void close() {
        if (blocks != null) {
            blocks.unpersist(false);
        }
        lineageCheckpoints.deleteLast();
        liveBroadcasts.forEach(b -> b.destroy(false));
        liveBroadcasts.clear();
    }
}
