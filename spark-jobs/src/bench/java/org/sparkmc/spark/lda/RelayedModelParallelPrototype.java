package org.sparkmc.spark.lda;

import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.BarrierTaskContext;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.sparkmc.core.lda.AdLda;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.core.lda.DeltaSum;
import org.sparkmc.core.lda.LdaKernel;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.LdaSampler;
import org.sparkmc.core.lda.ModelParallelDriver;
import org.sparkmc.core.lda.ModelParallelLda;
import org.sparkmc.core.lda.TopicWordCounts;
import org.sparkmc.core.lda.TopicWordDelta;
import org.sparkmc.core.lda.UciBagOfWords;
import org.sparkmc.core.lda.WordSlices;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.SparkSetup;
import org.sparkmc.spark.sync.RelayAddress;
import org.sparkmc.spark.sync.RelayedStage;
import org.sparkmc.spark.sync.RoundClient;
import org.sparkmc.spark.sync.RoundRelay;
import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractFunction1;

/**
 * A measurement, not a job: model-parallel sweeps ({@link ModelParallelLda}'s schedule, topic totals merged after
 * every sub-step) run as the {@code lda} job's relay runs AD-LDA. The KOS training split is cut into P document blocks
 * and P word slices; one barrier stage on {@code local[2]} holds the blocks, and every task keeps a whole copy of the
 * counts. In sub-step s, block b redraws its tokens of slice (b + s) mod P against that copy, the tasks exchange
 * their summed changes through the {@link RoundRelay} and merge them. The slices held in one sub-step are disjoint,
 * so each token sees its word's exact row: the chain is core's {@link ModelParallelDriver} with
 * {@link ModelParallelDriver.TotalsSync#SUB_STEP}, and {@code check} compares the final counts with it.
 *
 * <p>Usage: {@code RelayedModelParallelPrototype <K> <alpha> <P> <sweeps> [check]}, Spark's JVM flags; prints the
 * tokens per second over the sweeps (from before the counts' broadcast and the stage's submission to the last
 * sub-step's round, as the job times its relayed steps), the first sweeps' times, and each task's sampling, exchange
 * and merge times.
 */
public final class RelayedModelParallelPrototype {
    private RelayedModelParallelPrototype() {
    }

    public static void main(String[] args) throws Exception {
        LdaPriors priors = new LdaPriors(Integer.parseInt(args[0]), Double.parseDouble(args[1]), 0.01);
        int p = Integer.parseInt(args[2]);
        int sweeps = Integer.parseInt(args[3]);
        boolean check = args.length > 4 && args[4].equals("check");
        long seed = 20261122L;
        Corpus kos = kosTraining();
        SparkSession spark = SparkSetup.session("relayed-mp-prototype", "local[2]");
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        RandomStreams streams = new RandomStreams(seed);
        WordSlices slices = WordSlices.balanced(kos.wordFrequencies(), p);
        Corpus[] cut = kos.blocks(p);
        List<LdaBlock> start = new ArrayList<>();
        List<TopicWordDelta> initial = new ArrayList<>();
        for (int b = 0; b < p; b++) {
            Corpus arranged = slices.arrange(cut[b]);
            char[] z = ModelParallelLda.initialTopics(arranged, b, priors, streams);
            start.add(LdaBlock.ofTopics(b, arranged, z));
            initial.add(AdLda.blockCounts(arranged, z, priors));
        }
        TopicWordCounts global = TopicWordCounts.empty(priors.numTopics(), kos.vocabularySize()).plus(initial);
        JavaRDD<LdaBlock> blocks = sc.parallelize(start, 2).persist(StorageLevel.MEMORY_AND_DISK());
        blocks.count();

        long t0 = System.nanoTime();
        Broadcast<TopicWordCounts> counts = sc.broadcast(global);
        int rounds = sweeps * p;
        long[] roundNanos = new long[rounds + 1];
        TopicWordCounts[] last = new TopicWordCounts[1];
        try (RoundRelay relay = RoundRelay.onDriver(sc.getConf(), 2)) {
            SubSteps task = new SubSteps(relay.address(), counts, slices, priors, streams, sweeps);
            ClassTag<LdaBlock> tag = ClassTag$.MODULE$.apply(LdaBlock.class);
            JavaRDD<LdaBlock> swept = new JavaRDD<>(blocks.rdd().barrier().mapPartitions(task, true, tag), tag);
            JavaFutureAction<Long> job = swept.countAsync();
            RelayedStage.run(relay, job, rounds + 1, round -> {
                roundNanos[round.round()] = round.relayedNanos();
                if (round.round() == rounds) {
                    last[0] = ReportFrames.decodeHead(round.frames()[0]).counts();
                }
            });
        }
        double seconds = (roundNanos[rounds - 1] - t0) / 1e9;
        StringBuilder first = new StringBuilder();
        for (int s = 0; s < Math.min(3, sweeps); s++) {
            long from = s == 0 ? t0 : roundNanos[s * p - 1];
            first.append(String.format(Locale.ROOT, " %.0f", (roundNanos[(s + 1) * p - 1] - from) / 1e6));
        }
        System.out.printf(Locale.ROOT, "RESULT K=%d P=%d sweeps=%d tokens_per_second=%.0f seconds=%.3f "
                + "first_sweeps_ms=%s nonzeros=%d%n", priors.numTopics(), p, sweeps,
                kos.numTokens() * (double) sweeps / seconds, seconds, first.toString().trim().replace(' ', ','),
                last[0].nonZeros());
        if (check) {
            ModelParallelDriver reference = ModelParallelDriver.start(kos, p, priors, new RandomStreams(seed),
                    ModelParallelDriver.TotalsSync.SUB_STEP);
            for (int s = 0; s < sweeps; s++) {
                reference.sweep();
            }
            boolean same = reference.counts().equals(last[0]);
            System.out.println("CHECK the same counts as core's ModelParallelDriver (SUB_STEP): " + same);
            if (!same) {
                System.exit(1);
            }
        }
        spark.stop();
    }

    private static Corpus kosTraining() throws IOException {
        Path dir = Path.of(System.getProperty("sparkmc.shared.data", "/work/shared/data"), "kos");
        try (InputStream in = Files.newInputStream(dir.resolve("docword.kos.txt.gz"))) {
            return UciBagOfWords.readDocword(in, "docword.kos.txt.gz").corpus().selectByDocId(id -> id % 10 != 0);
        }
    }

    /** The barrier task: every sub-step of every sweep of its blocks, the changes exchanged and merged after each. */
    private static final class SubSteps extends AbstractFunction1<Iterator<LdaBlock>, Iterator<LdaBlock>>
            implements Serializable {
        private static final long serialVersionUID = 1L;
        private final RelayAddress relay;
        private final Broadcast<TopicWordCounts> start;
        private final WordSlices slices;
        private final LdaPriors priors;
        private final RandomStreams streams;
        private final int sweeps;

        SubSteps(RelayAddress relay, Broadcast<TopicWordCounts> start, WordSlices slices, LdaPriors priors,
                RandomStreams streams, int sweeps) {
            this.relay = relay;
            this.start = start;
            this.slices = slices;
            this.priors = priors;
            this.streams = streams;
            this.sweeps = sweeps;
        }

        @Override
        public Iterator<LdaBlock> apply(Iterator<LdaBlock> partition) {
            BarrierTaskContext context = BarrierTaskContext.get();
            List<LdaBlock> blocks = new ArrayList<>();
            CollectionConverters.asJava(partition).forEachRemaining(blocks::add);
            int p = slices.numSlices();
            int[][][] ranges = new int[blocks.size()][p][];
            char[][] z = new char[blocks.size()][];
            for (int i = 0; i < blocks.size(); i++) {
                z[i] = blocks.get(i).topics();
                for (int j = 0; j < p; j++) {
                    ranges[i][j] = slices.ranges(blocks.get(i).docs(), j);
                }
            }
            TopicWordCounts global = start.value();
            long sampling = 0;
            long exchanging = 0;
            long merging = 0;
            try (RoundClient client = relay.connect(context)) {
                int round = 0;
                for (int sweep = 0; sweep < sweeps; sweep++) {
                    for (int s = 0; s < p; s++) {
                        long t0 = System.nanoTime();
                        LdaSampler sampler = LdaKernel.SPARSE_GIBBS.create(priors, global);
                        DeltaSum sum = new DeltaSum(global);
                        for (int i = 0; i < blocks.size(); i++) {
                            LdaBlock block = blocks.get(i);
                            int j = ModelParallelLda.sliceOf(block.id(), s, p);
                            char[] next = z[i].clone();
                            sampler.sweep(block.docs(), next, ranges[i][j],
                                    streams.stream(ModelParallelLda.SWEEP_STREAM, sweep, block.id(), j));
                            z[i] = next;
                            sampler.addDelta(sum, global, block.docs());
                            sampler.restore(global, block.docs());
                        }
                        TopicWordDelta own = sum.takeTotal();
                        long t1 = System.nanoTime();
                        byte[][] others = client.exchange(round++, ReportFrames.encode(List.of(), own, Double.NaN,
                                null));
                        List<TopicWordDelta> all = new ArrayList<>(others.length + 1);
                        all.add(own);
                        for (byte[] frame : others) {
                            all.add(ReportFrames.decode(frame).delta());
                        }
                        long t2 = System.nanoTime();
                        global = AdLda.merge(global, all);
                        sampling += t1 - t0;
                        exchanging += t2 - t1;
                        merging += System.nanoTime() - t2;
                    }
                }
                client.exchange(round, ReportFrames.encode(List.of(), TopicWordDelta.none(global), Double.NaN,
                        context.partitionId() == 0 ? global : null));
                client.done();
                System.err.printf(Locale.ROOT, "TASK %d: sampling %.3f s, exchange %.3f s, merge %.3f s%n",
                        context.partitionId(), sampling / 1e9, exchanging / 1e9, merging / 1e9);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            List<LdaBlock> out = new ArrayList<>();
            for (int i = 0; i < blocks.size(); i++) {
                out.add(LdaBlock.ofTopics(blocks.get(i).id(), blocks.get(i).docs(), z[i]));
            }
            return CollectionConverters.asScala(out.iterator());
        }
    }
}
