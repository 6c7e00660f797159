package org.sparkmc.spark.lda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.lda.LdaKernel;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.ModelParallelDriver.TotalsSync;
import org.sparkmc.core.lda.TopicWordCounts;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.SparkmcKryoRegistrator;
import scala.Tuple2;

/**
 * The model-parallel mode runs a model larger than an executor's heap: a Spark {@code local-cluster} of two executor
 * JVMs of {@value #EXECUTOR_MB} MB each (Spark's testing mode, so that it reserves none of that small heap), a
 * corpus generated on the executors whose topic–word table, as one sampler holds it, does not fit in one executor's
 * heap, let alone the several copies the broadcast mode keeps (the broadcast value, its pieces, a sampler per task).
 * In the model-parallel mode a task holds one of P = {@value #BLOCKS} blocks (one per partition) and one slice, about
 * 1/P of each; the slices rotate between the two executors. The
 * driver, a JVM of its own with a larger heap, gathers the counts at the end and finds every token counted.
 *
 * <p>That run takes about four minutes on two cores (30 million tokens, most of it in one sweep), so it is tagged
 * {@code heavy} ({@code -Pheavy}). The default run keeps the same path at a tenth of the corpus, in
 * {@value #SMALL_BLOCKS} blocks, with executors of {@value #SMALL_EXECUTOR_MB} MB (about 35 s): slices rotating
 * between executor JVMs, every token counted once, and a sweep that raises the likelihood.
 *
 * <p>Tagged {@code local-cluster}: it runs in its own Surefire execution, whose environment starts Spark's testing
 * mode (which changes other Spark behaviour).
 */
@Tag("local-cluster")
class LdaModelLargerThanHeapTest {
    static final int EXECUTOR_MB = 96;
    static final int BLOCKS = 32;
    static final int TOPICS = 1000;
    static final int VOCABULARY = 200_000;
    static final int DOCUMENTS = 120_000;
    static final int THEMES = 50;
    static final int SMALL_EXECUTOR_MB = 256;
    static final int SMALL_BLOCKS = 4;

    @Test
    @Tag("heavy")
    void aModelLargerThanAnExecutorsHeapRunsModelParallel() throws java.io.IOException, InterruptedException {
        runModelParallel(EXECUTOR_MB, VOCABULARY, DOCUMENTS, BLOCKS, true);
    }

    @Test
    void aTenthOfThatCorpusRunsModelParallelAcrossExecutorJvms() throws java.io.IOException, InterruptedException {
        runModelParallel(SMALL_EXECUTOR_MB, VOCABULARY / 10, DOCUMENTS / 10, SMALL_BLOCKS, false);
    }

    /**
     * One sweep of the model-parallel mode in {@code blocks} blocks on {@code documentCount} generated documents over
     * {@code vocabulary} words, on two executor JVMs of {@code executorMb} MB; with {@code largerThanHeap}, first
     * checks that the table one sampler of the broadcast mode would hold exceeds an executor's heap.
     */
    private static void runModelParallel(int executorMb, int vocabulary, int documentCount, int blocks,
            boolean largerThanHeap) throws java.io.IOException, InterruptedException {
        // Spark's testing mode wants a Spark home; the executors take this JVM's class path.
        java.nio.file.Files.createDirectories(java.nio.file.Path.of(System.getProperty("spark.test.home")));
        SparkConf conf = new SparkConf().setMaster("local-cluster[2,1," + executorMb + "]")
                .setAppName("lda-model-larger-than-heap")
                .set("spark.executor.memory", executorMb + "m")
                // An executor refuses to start when its direct memory (its heap, here) is below this (200 MB by
                // default); larger remote blocks are fetched to disk instead.
                .set("spark.network.maxRemoteBlockSizeFetchToMem", "8m")
                // Cached blocks beyond a fifth of the heap go to disk: the rest is for the tasks' blocks and slices.
                .set("spark.memory.fraction", "0.2")
                .set("spark.executor.extraJavaOptions", moduleFlags())
                .set("spark.ui.enabled", "false")
                .set("spark.driver.host", "127.0.0.1")
                .set("spark.driver.bindAddress", "127.0.0.1")
                .set("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
                .set("spark.kryo.registrationRequired", "true")
                .set("spark.kryo.registrator", SparkmcKryoRegistrator.class.getName());
        try (JavaSparkContext sc = new JavaSparkContext(conf)) {
            // Both executor JVMs registered (and the driver's block manager): with one core each, the run's tasks
            // then run in both, and the slices move between them.
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (sc.sc().getExecutorMemoryStatus().size() < 3 && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertEquals(3, sc.sc().getExecutorMemoryStatus().size(), "block managers: the driver and two executors");
            LdaDocuments docs = generated(sc, vocabulary, documentCount, 2 * blocks);
            int[] frequencies = docs.wordFrequencies();
            if (largerThanHeap) {
                long heap = sc.parallelize(List.of(0, 1), 2).map(i -> Runtime.getRuntime().maxMemory())
                        .reduce(Math::max);
                long cells = 0;
                for (int f : frequencies) {
                    cells += Math.min(TOPICS, f);
                }
                // The table one sampler of the broadcast mode holds: a cell per (word, topic) a word can fill,
                // and its rows.
                long table = 4 * cells + 8L * (vocabulary + 1);
                assertTrue(table > heap, "the table, " + (table >> 20) + " MB, exceeds an executor's heap of "
                        + (heap >> 20) + " MB");
            }
            LdaPriors priors = new LdaPriors(TOPICS, 0.1, 0.01);
            ModelParallelSpark run = ModelParallelSpark.start(sc, docs.blocks(blocks, blocks), docs.numTokens(),
                    vocabulary, new ModelParallelSpark.Options(priors, blocks, blocks, 5,
                            LdaKernel.SPARSE_GIBBS, -1, TotalsSync.SWEEP));
            docs.release();
            double start = run.lastStep().perToken();
            List<AdLdaSpark.Step> steps = new ArrayList<>();
            run.advance(1, 1, sweep -> false, steps::add);
            TopicWordCounts counts = run.counts();
            assertEquals(docs.numTokens(), counts.totalTokens());
            int[] words = new int[vocabulary];
            for (int w = 0; w < vocabulary; w++) {
                words[w] = counts.wordTotal(w);
            }
            assertArrayEquals(frequencies, words, "every token counted once, under its word");
            assertTrue(steps.get(0).perToken() > start, "the sweep raised log p(w,z)/token from " + start + " to "
                    + steps.get(0).perToken());
            run.close();
        }
    }

    /**
     * Documents 1..D (D = {@code documentCount}) generated on the executors, each from its own stream: 200–300
     * tokens drawn uniformly from one of {@value #THEMES} bands of the vocabulary (a document's theme), so every word
     * occurs about N/W ≈ 150 times. (A planted corpus needs an alias table over the whole vocabulary per planted topic
     * in every task: more than these executors hold.)
     */
    private static LdaDocuments generated(JavaSparkContext sc, int vocabulary, int documentCount, int parts) {
        List<Integer> slices = IntStream.range(0, parts).boxed().collect(Collectors.toList());
        JavaPairRDD<Integer, int[]> documents = sc.parallelize(slices, parts).flatMapToPair(part -> {
            RandomStreams streams = new RandomStreams(20261127);
            int band = vocabulary / THEMES;
            return IntStream.iterate(1 + part, d -> d <= documentCount, d -> d + parts).mapToObj(d -> {
                UniformRandomProvider rng = streams.stream("document", d);
                int first = rng.nextInt(THEMES) * band;
                int[] tokens = new int[200 + rng.nextInt(101)];
                for (int i = 0; i < tokens.length; i++) {
                    tokens[i] = first + rng.nextInt(band);
                }
                return new Tuple2<>(d, tokens);
            }).iterator();
        });
        return LdaDocuments.of(documents, vocabulary);
    }

    /** The JVM flags Spark needs on Java 17, as this JVM was given them. */
    private static String moduleFlags() {
        return ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("--add-") || a.startsWith("-XX:+IgnoreUnrecognized") || a.startsWith("-Dio.")
                        || a.startsWith("-Djdk.") || a.startsWith("--enable-native"))
                .collect(Collectors.joining(" "));
    }
}
