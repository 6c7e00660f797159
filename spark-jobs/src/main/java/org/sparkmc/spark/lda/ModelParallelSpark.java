package org.sparkmc.spark.lda;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.storage.StorageLevel;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.core.lda.LdaKernel;
import org.sparkmc.core.lda.LdaLogLikelihood;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.ModelParallelDriver.TotalsSync;
import org.sparkmc.core.lda.ModelParallelLda;
import org.sparkmc.core.lda.TopicWordCounts;
import org.sparkmc.core.lda.TopicWordSlice;
import org.sparkmc.core.lda.WordSlices;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.BusiestPartition;
import org.sparkmc.spark.DirectFunctions;
import org.sparkmc.spark.io.LineageCheckpoints;
import scala.Tuple2;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * Model-parallel collapsed LDA on Spark ({@link ModelParallelLda}; LightLDA's model slices, Nomad-LDA's
 * rotation): the corpus in P document blocks and the topic–word table in P word slices, balanced by tokens, both
 * cached on the executors. A sweep is P sub-steps, each one Spark job of one stage ({@link SubStepRDD}): block b
 * samples its tokens of slice (b + s) mod P against its own exclusive copy of it, then every slice moves to the
 * partition of the block that needs it next, through the block manager from executor to executor. No executor ever
 * holds the whole table: a task holds one block and one slice at a time, a partition the slices of its blocks.
 *
 * <p>Only the K topic totals are global. The driver holds them and passes them with each sub-step; the blocks
 * report their changes after every sub-step ({@link TotalsSync#SUB_STEP}: each block sees the others' changes one
 * sub-step late) or after every sweep ({@link TotalsSync#SWEEP}, as LightLDA: one sweep late, and the driver
 * receives K integers per block once a sweep instead of once a sub-step). The slices never pass through the driver,
 * except when the counts themselves are asked for ({@link #counts()}: outputs, topic samples).
 *
 * <p>Deterministic for a seed and P: a block's stream is keyed by (sweep, block, slice), never by partition, and the
 * totals are sums of integers, so 1, 2, … partitions (any divisor of P) and retried or recomputed tasks give the same
 * topics bit for bit as {@link org.sparkmc.core.lda.ModelParallelDriver} on one machine. The previous state is
 * unpersisted once the next is materialised; the lineage is cut at the end of the first sweep and every
 * {@code lineageInterval} sweeps (reliable checkpoints when Spark has a checkpoint directory, local ones otherwise).
 */
public final class ModelParallelSpark implements LdaRun {
    private static final ClassTag<ModelParallelState> TAG = ClassTag$.MODULE$.apply(ModelParallelState.class);

    private final JavaSparkContext sc;
    private final LdaPriors priors;
    private final LdaKernel kernel;
    private final RandomStreams streams;
    private final TotalsSync sync;
    private final int numBlocks;
    private final int lineageInterval;
    private final long tokens;
    private final int vocabularySize;
    private final Broadcast<WordSlices> slices;
    private final JavaPairRDD<Integer, Corpus> docs;
    private final LineageCheckpoints lineageCheckpoints;
    private JavaRDD<ModelParallelState> state;
    private int[] totals;
    private int sweeps;
    private AdLdaSpark.Step last;
    private TopicWordCounts counts;
    private int countsSweeps = -1;

    /**
     * How the sampler runs.
     *
     * @param priors K, α and β
     * @param numBlocks P, the document blocks and word slices (with the seed, part of the result's contract)
     * @param partitions Spark partitions holding them: a divisor of P (changes no number)
     * @param seed the root seed of every stream
     * @param kernel the per-token update: SparseLDA Gibbs or cycle MH
     * @param lineageInterval sweeps between cuts of the lineage, or −1 for never
     * @param sync when the topic totals are synchronised (part of the result's contract)
     */
    public record Options(LdaPriors priors, int numBlocks, int partitions, long seed, LdaKernel kernel,
            int lineageInterval, TotalsSync sync) {
        public Options {
            if (numBlocks < 1 || partitions < 1 || numBlocks % partitions != 0) {
                throw new IllegalArgumentException("model-parallel LDA needs a positive number of blocks and a number "
                        + "of partitions that divides it, got " + numBlocks + " blocks on " + partitions);
            }
            if (lineageInterval < 1 && lineageInterval != -1) {
                throw new IllegalArgumentException("the lineage interval must be positive or -1");
            }
        }

        /** The same options for a chain of root seed {@code chainSeed} (the {@code lda} job's several chains). */
        public Options withSeed(long chainSeed) {
            return new Options(priors, numBlocks, partitions, chainSeed, kernel, lineageInterval, sync);
        }
    }

    private ModelParallelSpark(JavaSparkContext sc, Options options, long tokens, int vocabularySize,
            Broadcast<WordSlices> slices, JavaPairRDD<Integer, Corpus> docs) {
        this.sc = sc;
        this.priors = options.priors();
        this.kernel = options.kernel();
        this.streams = new RandomStreams(options.seed());
        this.sync = options.sync();
        this.numBlocks = options.numBlocks();
        this.lineageInterval = options.lineageInterval();
        this.tokens = tokens;
        this.vocabularySize = vocabularySize;
        this.slices = slices;
        this.docs = docs;
        this.lineageCheckpoints = new LineageCheckpoints(sc.hadoopConfiguration(), "lda");
    }

    /**
     * Starts from blocks on the executors ({@code options.numBlocks()} of them, keyed 0..P−1): cuts the vocabulary
     * into slices by the blocks' word frequencies, arranges the blocks and draws the initial topics there.
     */
    public static ModelParallelSpark start(JavaSparkContext sc, JavaPairRDD<Integer, Corpus> blocks, long tokens,
            int vocabularySize, Options options) {
        ModelParallelSpark run = prepare(sc, blocks, tokens, vocabularySize, options);
        LdaPriors p = run.priors;
        RandomStreams rs = run.streams;
        run.begin(run.docs.mapPartitionsToPair(part -> {
            List<Tuple2<Integer, char[]>> out = new ArrayList<>();
            part.forEachRemaining(t -> out.add(new Tuple2<>(t._1(), ModelParallelLda.initialTopics(t._2(), t._1(), p,
                    rs))));
            return out.iterator();
        }, true));
        return run;
    }

    /**
     * Continues a run from saved topics after {@code sweepsDone} sweeps: {@code savedTopics} holds every block's
     * topics by block id, aligned with its arranged documents (as {@link #blocks()} gives them); the slices and
     * totals are rebuilt from them.
     */
    public static ModelParallelSpark restore(JavaSparkContext sc, JavaPairRDD<Integer, Corpus> blocks, long tokens,
            int vocabularySize, Options options, int sweepsDone, JavaPairRDD<Integer, char[]> savedTopics) {
        ModelParallelSpark run = prepare(sc, blocks, tokens, vocabularySize, options);
        run.sweeps = sweepsDone;
        run.begin(savedTopics.partitionBy(new HashPartitioner(options.partitions())));
        return run;
    }

    private static ModelParallelSpark prepare(JavaSparkContext sc, JavaPairRDD<Integer, Corpus> blocks, long tokens,
            int vocabularySize, Options options) {
        sc.setJobGroup("sparkmc-lda-start", "lda: word slices and arranged blocks", false);
        JavaPairRDD<Integer, Corpus> input = blocks.partitionBy(new HashPartitioner(options.partitions()));
        int[] frequencies = input.values().map(Corpus::wordFrequencies).treeReduce(ModelParallelSpark::sum);
        Broadcast<WordSlices> slices = sc.broadcast(WordSlices.balanced(frequencies, options.numBlocks()));
        JavaPairRDD<Integer, Corpus> arranged = input.mapValues(c -> slices.value().arrange(c))
                .persist(StorageLevel.MEMORY_AND_DISK());
        return new ModelParallelSpark(sc, options, tokens, vocabularySize, slices, arranged);
    }

    private static int[] sum(int[] a, int[] b) {
        int[] out = a.clone();
        for (int i = 0; i < out.length; i++) {
            out[i] += b[i];
        }
        return out;
    }

    /**
     * The state of the given topics (by block, laid out as the documents): the blocks' topics and the slices
     * summed from every block's share, each slice placed with the block that held it in the sub-step before the
     * first (so that one rotation brings it to block j in sub-step 0), and the totals.
     */
    private void begin(JavaPairRDD<Integer, char[]> topics) {
        long t0 = System.nanoTime();
        int k = priors.numTopics();
        int p = numBlocks;
        LdaPriors pr = priors;
        Broadcast<WordSlices> ws = slices;
        JavaPairRDD<Integer, Tuple2<Corpus, char[]>> joined = docs.join(topics);
        totals = joined.values().map(t -> histogram(t._2(), k)).treeReduce(ModelParallelSpark::sum);
        int[] start = totals.clone();
        // The blocks' topics stay in their partitions; only the slices' shares are shuffled, summed and placed.
        JavaRDD<ModelParallelState> blockItems = joined.mapPartitions(part -> {
            List<ModelParallelState> out = new ArrayList<>();
            part.forEachRemaining(t -> out.add(new ModelParallelState.BlockTopics(t._1(), t._2()._2(), start, false,
                    LdaLogLikelihood.documentTerm(t._2()._1(), t._2()._2(), pr), 0, -1)));
            return out.iterator();
        }, true);
        JavaRDD<ModelParallelState> sliceItems = joined.flatMapToPair(t -> Arrays.stream(
                ModelParallelLda.blockSlices(t._2()._1(), t._2()._2(), ws.value(), k))
                .map(s -> new Tuple2<>(s.slice(), s)).iterator())
                .reduceByKey(TopicWordSlice::plus)
                .mapToPair(t -> new Tuple2<>(ModelParallelLda.holderOf(t._1(), -1, p),
                        (ModelParallelState) new ModelParallelState.SliceCounts(t._2(), t._2().cellTerm(pr.beta()))))
                .partitionBy(new HashPartitioner(docs.getNumPartitions())).values();
        JavaRDD<ModelParallelState> first = blockItems.zipPartitions(sliceItems, (a, b) -> {
            List<ModelParallelState> out = new ArrayList<>();
            a.forEachRemaining(out::add);
            b.forEachRemaining(out::add);
            return out.iterator();
        });
        sc.setJobGroup("sparkmc-lda-start", "lda: initial topics and word slices", false);
        mark(first, true);
        Terms terms = new Terms();
        for (ModelParallelState.Figures f : DirectFunctions.mapCollect(first, ModelParallelState::figures)) {
            terms.add(f);
        }
        adopt(first, true);
        last = step(terms, (System.nanoTime() - t0) / 1e9, 0, 0);
    }

    /** Caches a state before its first action, and marks it for a lineage cut when {@code cut}. */
    private void mark(JavaRDD<ModelParallelState> next, boolean cut) {
        next.persist(StorageLevel.MEMORY_AND_DISK());
        if (cut) {
            if (sc.getCheckpointDir().isPresent()) {
                next.checkpoint();
            } else {
                next.rdd().localCheckpoint();
            }
        }
    }

    /** Makes the materialised {@code next} the current state and drops the previous one (and its checkpoint). */
    private void adopt(JavaRDD<ModelParallelState> next, boolean cut) {
        if (state != null) {
            state.unpersist(false);
        }
        state = next;
        if (cut && sc.getCheckpointDir().isPresent()) {
            lineageCheckpoints.written(next);
        }
    }

    private static int[] histogram(char[] topics, int k) {
        int[] h = new int[k];
        for (char t : topics) {
            h[t]++;
        }
        return h;
    }

    /** The terms of log p(w, z) the blocks and slices report at the end of a sweep, in block and slice order. */
    private final class Terms {
        private final double[] documents = new double[numBlocks];
        private final double[] cells = new double[numBlocks];
        private final boolean[] blockSeen = new boolean[numBlocks];
        private final boolean[] sliceSeen = new boolean[numBlocks];

        void add(ModelParallelState.Figures f) {
            boolean block = f.slice() < 0;
            int id = block ? f.block() : f.slice();
            boolean[] seen = block ? blockSeen : sliceSeen;
            if (seen[id]) {
                throw new IllegalStateException((block ? "block " : "slice ") + id + " reported twice");
            }
            seen[id] = true;
            (block ? documents : cells)[id] = f.term();
        }

        double logLikelihood() {
            for (int i = 0; i < numBlocks; i++) {
                if (!blockSeen[i] || !sliceSeen[i]) {
                    throw new IllegalStateException("block or slice " + i + " did not report");
                }
            }
            return ModelParallelLda.logLikelihood(cells, totals, vocabularySize, documents, priors.beta());
        }
    }

    private AdLdaSpark.Step step(Terms terms, double seconds, double sampling, long bytes) {
        double ll = terms.logLikelihood();
        return new AdLdaSpark.Step(sweeps, ll, ll / tokens, seconds, sampling,
                seconds > 0 && sampling > 0 ? tokens / seconds : 0, bytes, false);
    }

    /** One sweep: P sub-steps, one Spark job each. */
    private AdLdaSpark.Step sweep() {
        long t0 = System.nanoTime();
        double sampling = 0;
        long bytes = 0;
        Terms terms = new Terms();
        for (int s = 0; s < numBlocks; s++) {
            boolean afterSync = sync == TotalsSync.SUB_STEP || s == 0;
            boolean syncAfter = sync == TotalsSync.SUB_STEP || s == numBlocks - 1;
            ModelParallelSubStep f = new ModelParallelSubStep(slices, priors, kernel, streams, sweeps, s, totals,
                    afterSync, syncAfter);
            JavaRDD<ModelParallelState> next = new JavaRDD<>(new SubStepRDD(docs.rdd(), state.rdd(), f), TAG);
            boolean cut = s == numBlocks - 1 && lineageInterval > 0
                    && (sweeps == 0 || (sweeps + 1) % lineageInterval == 0);
            mark(next, cut);
            sc.setJobGroup("sparkmc-lda-sweep-" + sweeps, "lda: sweep " + sweeps + ", sub-step " + s + " of "
                    + numBlocks + ", model-parallel", false);
            List<ModelParallelState.Figures> figures = DirectFunctions.mapCollect(next, ModelParallelState::figures);
            adopt(next, cut);
            BusiestPartition busiest = new BusiestPartition();
            long[] changes = new long[totals.length];
            int reported = 0;
            for (ModelParallelState.Figures fig : figures) {
                if (fig.slice() >= 0) {
                    bytes += fig.bytes();
                } else {
                    busiest.add(fig.partition(), fig.samplingSeconds());
                    if (fig.totals() != null) {
                        reported++;
                        for (int k = 0; k < changes.length; k++) {
                            changes[k] += fig.totals()[k] - totals[k];
                        }
                    }
                }
                if (s == numBlocks - 1) {
                    terms.add(fig);
                }
            }
            sampling += busiest.seconds();
            if (syncAfter) {
                if (reported != numBlocks) {
                    throw new IllegalStateException(reported + " of " + numBlocks + " blocks reported their totals");
                }
                for (int k = 0; k < changes.length; k++) {
                    totals[k] = Math.toIntExact(totals[k] + changes[k]);
                }
            }
        }
        sweeps++;
        return step(terms, (System.nanoTime() - t0) / 1e9, sampling, bytes);
    }

    /**
     * Runs {@code numSteps} sweeps (the model-parallel mode has no sync interval: {@code sweepsPerStep} must be 1)
     * and passes each one's figures to {@code afterStep}. The counts are gathered on the driver only when asked for.
     */
    @Override
    public void advance(int numSteps, int sweepsPerStep, IntPredicate countsWanted,
            Consumer<AdLdaSpark.Step> afterStep) {
        if (numSteps < 1 || sweepsPerStep != 1) {
            throw new IllegalArgumentException("model-parallel LDA runs whole sweeps: steps must be positive and "
                    + "one sweep each, got " + numSteps + " of " + sweepsPerStep);
        }
        for (int i = 0; i < numSteps; i++) {
            last = sweep();
            afterStep.accept(last);
        }
    }

    /** The counts, gathered from the slices on the executors (once per sweep at most). */
    @Override
    public TopicWordCounts counts() {
        if (countsSweeps != sweeps) {
            sc.setJobGroup("sparkmc-lda-counts", "lda: gather the word slices after sweep " + sweeps, false);
            List<TopicWordSlice> parts = new ArrayList<>();
            for (TopicWordSlice s : DirectFunctions.mapCollect(state, ModelParallelSpark::sliceOrNull)) {
                if (s != null) {
                    parts.add(s);
                }
            }
            counts = TopicWordSlice.assemble(parts, vocabularySize);
            countsSweeps = sweeps;
            if (!Arrays.equals(counts.topicTotals(), totals)) {
                throw new IllegalStateException("the slices' topic totals disagree with the synchronised ones");
            }
        }
        return counts;
    }

    private static TopicWordSlice sliceOrNull(ModelParallelState item) {
        return item instanceof ModelParallelState.SliceCounts c ? c.counts() : null;
    }

    /** The word slices of this run (a copy of the cut the executors use). */
    public WordSlices wordSlices() {
        return slices.value();
    }

    @Override
    public int sweepsDone() {
        return sweeps;
    }

    @Override
    public AdLdaSpark.Step lastStep() {
        return last;
    }

    @Override
    public long tokens() {
        return tokens;
    }

    @Override
    public LdaPriors priors() {
        return priors;
    }

    @Override
    public String syncName(AdLdaSpark.Step step) {
        return "model-parallel, slices rotated";
    }

    /** The blocks (arranged: each document's tokens ordered by slice) with their current topics. */
    @Override
    public JavaRDD<LdaBlock> blocks() {
        return docs.zipPartitions(state, ModelParallelSpark::zipBlocks);
    }

    private static Iterator<LdaBlock> zipBlocks(Iterator<Tuple2<Integer, Corpus>> docs,
            Iterator<ModelParallelState> items) {
        java.util.Map<Integer, char[]> topics = new java.util.HashMap<>();
        items.forEachRemaining(item -> {
            if (item instanceof ModelParallelState.BlockTopics t) {
                topics.put(t.block(), t.topics());
            }
        });
        List<LdaBlock> out = new ArrayList<>();
        docs.forEachRemaining(d -> out.add(LdaBlock.ofTopics(d._1(), d._2(), topics.get(d._1()))));
        return out.iterator();
    }

    @Override
    public void close() {
        if (state != null) {
            state.unpersist(false);
        }
        docs.unpersist(false);
        lineageCheckpoints.deleteLast();
        slices.destroy(false);
    }
}
