package org.sparkmc.spark.lda;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import org.sparkmc.core.lda.AdLda;
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
import scala.Tuple2;

/**
 * Approximate distributed LDA (AD-LDA; Newman, Asuncion, Smyth &amp; Welling, JMLR 2009) on Spark: collapsed Gibbs
 * sampling of the topic assignments z of a corpus cut into B document blocks that stay cached on the executors.
 * Per step, the driver broadcasts the global topic–word counts (sparse, bit-packed: {@link TopicWordCounts}), every
 * block sweeps its documents {@code syncInterval} times against its own copy ({@link AdLda#sweepBlock}), and the
 * driver merges the blocks' sparse count changes into the next global counts.
 *
 * <p>Deterministic for a seed and a number of blocks: a block's stream is keyed by (sweep, block), never by a
 * partition or thread, and the merge adds integers, so any number of partitions or executors, and any retried or
 * recomputed task, gives the same topics bit for bit. The previous step's blocks are unpersisted once the next are
 * materialised, and the lineage is cut after the first step and every {@code lineageInterval} steps (reliable
 * checkpoints when Spark has a checkpoint directory, local ones otherwise), or never for −1; only the broadcasts a
 * recomputation could still need are kept, and only the newest reliable checkpoint (none after {@link #close}).
 */
public final class AdLdaSpark {
    private final JavaSparkContext sc;
    private final LdaPriors priors;
    private final RandomStreams streams;
    private final LdaKernel kernel;
    private final int numBlocks;
    private final int lineageInterval;
    private final long tokens;
    private final List<Broadcast<TopicWordCounts>> liveBroadcasts = new ArrayList<>();
    private JavaRDD<LdaBlock> blocks;
    private final LineageCheckpoints lineageCheckpoints;
    private TopicWordCounts global;
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
     * @param lineageInterval steps between cuts of the blocks' lineage, or −1 for never (MLlib's checkpointInterval)
     */
    public record Options(LdaPriors priors, int numBlocks, int partitions, long seed, LdaKernel kernel,
            int lineageInterval) {
        public Options {
            if (numBlocks < 1 || partitions < 1 || lineageInterval < 1 && lineageInterval != -1) {
                throw new IllegalArgumentException("blocks and partitions must be positive, the lineage interval "
                        + "positive or -1");
            }
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
     * @param broadcastBytes the size of the broadcast counts' arrays
     */
    public record Step(int sweeps, double logLikelihood, double perToken, double seconds, double samplingSeconds,
            double tokensPerSecond, long broadcastBytes) {
        /** Time outside sampling: broadcast, scheduling, collecting and merging the changes. */
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
        this.lineageInterval = options.lineageInterval();
        this.tokens = tokens;
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
                TopicWordCounts.empty(p.numTopics(), vocabularySize), t0);
        run.last = run.stepSummary(t0, sampling, 1, 0);
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
        run.collectStep(restored, TopicWordCounts.empty(p.numTopics(), vocabularySize), System.nanoTime());
        if (run.global.totalTokens() != tokens) {
            throw new IllegalStateException("saved topics cover " + run.global.totalTokens() + " of " + tokens
                    + " tokens");
        }
        run.sweeps = sweepsDone;
        run.last = run.stepSummary(System.nanoTime(), 0, 0, 0);
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

    /** Runs {@code numSweeps} sweeps of every block against the current global counts, then merges. */
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
        double sampling = collectStep(DirectFunctions.map(blocks, b -> b.sweep(counts.value(), p, rs, first, numSweeps,
                k)), global, t0);
        sweeps += numSweeps;
        last = stepSummary(t0, sampling, numSweeps, broadcastBytes);
        return last;
    }

    private Step stepSummary(long t0, double sampling, int numSweeps, long broadcastBytes) {
        double seconds = (System.nanoTime() - t0) / 1e9;
        double ll = logLikelihood();
        return new Step(sweeps, ll, ll / tokens, seconds, sampling,
                seconds > 0 ? tokens * (double) numSweeps / seconds : 0, broadcastBytes);
    }

    /** The last step's figures (after {@link #start}: the random initial state's, as sweep 0). */
    public Step lastStep() {
        return last;
    }

    /** Materialises {@code next}, collects its reports and merges them into {@code base}; returns the sampling time of
     * the busiest partition (its blocks run in turn), the step's critical path. */
    private double collectStep(JavaRDD<LdaBlock> next, TopicWordCounts base, long t0) {
        next.persist(StorageLevel.MEMORY_AND_DISK());
        // The random start is cut at once (until then every task would re-send its documents from the driver),
        // unless the lineage is never cut.
        steps++;
        boolean cut = lineageInterval > 0 && (steps == 1 || steps % lineageInterval == 0);
        boolean reliable = sc.getCheckpointDir().isPresent();
        if (cut) {
            if (reliable) {
                next.checkpoint();
            } else {
                next.rdd().localCheckpoint();
            }
        }
        List<LdaBlock.BlockReport> reports = new ArrayList<>(DirectFunctions.mapCollect(next, LdaBlock::report));
        reports.sort(Comparator.comparingInt(LdaBlock.BlockReport::block));
        if (reports.size() != numBlocks) {
            throw new IllegalStateException(reports.size() + " block reports for " + numBlocks + " blocks");
        }
        List<TopicWordDelta> deltas = new ArrayList<>(numBlocks);
        double docTerms = 0;
        BusiestPartition busiest = new BusiestPartition();
        for (LdaBlock.BlockReport r : reports) {
            deltas.add(r.delta());
            docTerms += r.documentTerm();
            busiest.add(r.partition(), r.samplingSeconds());
        }
        double slowest = busiest.seconds();
        global = AdLda.merge(base, deltas);
        documentTerms = docTerms;
        if (blocks != null) {
            blocks.unpersist(false);
        }
        blocks = next;
        if (cut && reliable) {
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
        return slowest;
    }

    /** log p(w, z) of the current state: the topic–word term plus every block's document term (summed in block order). */
    public double logLikelihood() {
        return LdaLogLikelihood.topicWordTerm(global, priors.beta()) + documentTerms;
    }

    /** The global topic–word counts of the current state. */
    public TopicWordCounts counts() {
        return global;
    }

    public int sweepsDone() {
        return sweeps;
    }

    public long tokens() {
        return tokens;
    }

    public LdaPriors priors() {
        return priors;
    }

    /** The blocks with their current topics (cached on the executors). */
    JavaRDD<LdaBlock> blocks() {
        return blocks;
    }

    /** Releases the cached blocks and broadcasts and deletes the last lineage checkpoint. */
    public void close() {
        if (blocks != null) {
            blocks.unpersist(false);
        }
        lineageCheckpoints.deleteLast();
        liveBroadcasts.forEach(b -> b.destroy(false));
        liveBroadcasts.clear();
    }
}
