package org.sparkmc.spark.bench;

import java.io.InputStream;
import java.io.Serializable;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.serializers.JavaSerializer;
import org.apache.spark.BarrierTaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.rdd.RDD;
import org.apache.spark.serializer.KryoRegistrator;
import org.apache.spark.sql.SparkSession;
import org.sparkmc.core.lda.AdLda;
import org.sparkmc.core.lda.AdLdaDriver;
import org.sparkmc.core.lda.BlockUpdate;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.core.lda.LdaLogLikelihood;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.TopicWordCounts;
import org.sparkmc.core.lda.TopicWordDelta;
import org.sparkmc.core.lda.UciBagOfWords;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.SparkSetup;
import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractFunction1;

/**
 * A prototype of the {@code lda} job's per-sweep synchronisation without a Spark job per sweep: ONE barrier stage
 * ({@code rdd.barrier().mapPartitions}, used only for gang scheduling and all-task retry) runs every sweep. Each task
 * keeps its document blocks, their topics and its own copy of the global counts; after each sweep it sends its
 * blocks' {@link TopicWordDelta}s to a {@link SweepSyncServer} on the driver, gets every block's deltas back in
 * block order and merges them itself ({@link AdLda#merge}, as the job's driver does), so the run is bit-identical to
 * core's {@link AdLdaDriver}. KOS training split (as {@code KosBlockParts}), β = 0.01, 8 blocks on 2 partitions.
 * The stage's results go through a one-partition shuffle: Spark reruns a failed barrier ShuffleMapStage (every task,
 * from sweep 0, the same draws), but aborts the job when a barrier ResultStage fails.
 *
 * <p>Prints tokens per second, ms per sweep and its split (sampling / waiting for the sync / merge) over the first
 * 10 sweeps and at steady state (sweeps 150–200, or the last quarter; the sync wait also split into waiting for the
 * slower partition's sampling and the rest: encoding, the relay and decoding), then compares the final counts,
 * topics and log p(w, z) with {@link AdLdaDriver} run in this JVM: MATCH or MISMATCH.
 *
 * <p>Usage: {@code BarrierSyncLdaBenchmark <K> <alpha> <sweeps> <seed> [failAtSweep] [master]}; {@code failAtSweep}
 * makes partition 1's first attempt throw at that sweep, to exercise the barrier stage's retry;
 * {@code -Dsparkmc.bench.frames=varint|int} picks the deltas' encoding ({@link DeltaFrames}), and
 * {@code -Dsparkmc.bench.runs=n} runs the stage n times in this JVM (the later runs with a warm JIT).
 */
public final class BarrierSyncLdaBenchmark {
    static final int BLOCKS = 8;
    static final int PARTITIONS = 2;
    static final int TIMEOUT_MILLIS = 120_000;

    public static void main(String[] args) throws Exception {
        String loadBefore = loadAverage();
        LdaPriors p = new LdaPriors(Integer.parseInt(args[0]), Double.parseDouble(args[1]), 0.01);
        int sweeps = Integer.parseInt(args[2]);
        long seed = Long.parseLong(args[3]);
        int failAt = args.length > 4 ? Integer.parseInt(args[4]) : -1;
        String master = args.length > 5 ? args[5] : "local[2]";
        Path dir = Path.of(System.getProperty("sparkmc.shared.data", "/work/shared/data"), "kos");
        Corpus kos;
        try (InputStream in = Files.newInputStream(dir.resolve("docword.kos.txt.gz"))) {
            kos = UciBagOfWords.readDocword(in, "docword.kos.txt.gz").corpus().selectByDocId(id -> id % 10 != 0);
        }
        Corpus[] cut = kos.blocks(BLOCKS);
        List<Tuple2<Integer, Corpus>> keyed = new ArrayList<>();
        for (int b = 0; b < BLOCKS; b++) {
            keyed.add(new Tuple2<>(b, cut[b]));
        }

        System.setProperty("spark.kryo.registrator", Registrator.class.getName());
        SparkSession spark = SparkSetup.session("barrier-sync-lda", master);
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        long tokens = kos.numTokens();
        String encoding = System.getProperty("sparkmc.bench.frames", "varint");
        int runs = Integer.getInteger("sparkmc.bench.runs", 1);
        System.out.printf(Locale.ROOT, "%s, K=%d alpha=%s beta=0.01, %d blocks on %d partitions, seed %d, %d sweeps,"
                + " %,d tokens, %s frames%n", master, p.numTopics(), args[1], BLOCKS, PARTITIONS, seed, sweeps, tokens,
                encoding);
        List<PartitionResult> results = null;
        for (int run = 1; run <= runs; run++) {
            System.out.printf("run %d of %d in this JVM:%n", run, runs);
            results = stage(sc, keyed, p, seed, sweeps, kos.vocabularySize(), run == 1 ? failAt : -1, encoding,
                    tokens);
        }
        spark.stop();

        long r0 = System.nanoTime();
        AdLdaDriver reference = AdLdaDriver.start(kos, BLOCKS, p, new RandomStreams(seed));
        for (int s = 0; s < sweeps; s++) {
            reference.sweep();
        }
        double referenceSeconds = (System.nanoTime() - r0) / 1e9;
        boolean blocksMatch = results.size() == PARTITIONS
                && results.stream().mapToInt(r -> r.blockIds().length).sum() == BLOCKS;
        boolean countsMatch = true;
        // Summed as AdLdaDriver sums: the topic-word term, then each block's document term in block order.
        double ll = LdaLogLikelihood.topicWordTerm(results.get(0).global(), p.beta());
        for (PartitionResult r : results) {
            countsMatch &= r.global().equals(reference.counts());
            for (int i = 0; i < r.blockIds().length; i++) {
                blocksMatch &= Arrays.equals(r.topics()[i], reference.topics(r.blockIds()[i]));
                ll += LdaLogLikelihood.documentTerm(cut[r.blockIds()[i]], r.topics()[i], p);
            }
        }
        double refLl = reference.logLikelihood();
        boolean match = countsMatch && blocksMatch && ll == refLl;
        if (!match) {
            System.out.printf(Locale.ROOT, "counts equal: %s; every block's topics equal: %s; log p(w,z) equal: %s "
                    + "(difference %g)%n", countsMatch, blocksMatch, ll == refLl, ll - refLl);
        }
        System.out.printf(Locale.ROOT, "log p(w,z): barrier stage %.6f, AdLdaDriver %.6f (one thread, %.2f M tokens/s)"
                + "%n%s: final global counts of every task, every block's topics and log p(w,z) vs AdLdaDriver%n", ll,
                refLl, tokens * (double) sweeps / referenceSeconds / 1e6, match ? "MATCH" : "MISMATCH");
        System.out.println("load average (1, 5, 15 min) before: " + loadBefore + "; after: " + loadAverage());
    }

    private static String loadAverage() throws java.io.IOException {
        Path proc = Path.of("/proc/loadavg");
        return Files.exists(proc) ? String.join(" ", Arrays.copyOf(Files.readString(proc).split(" "), 3)) : "n/a";
    }

    /** Runs the barrier stage once and prints its timings; returns the tasks' results in partition order. */
    private static List<PartitionResult> stage(JavaSparkContext sc, List<Tuple2<Integer, Corpus>> keyed, LdaPriors p,
            long seed, int sweeps, int vocabularySize, int failAt, String encoding, long tokens) throws Exception {
        String host = sc.getConf().get("spark.driver.host");
        List<PartitionResult> results;
        long[] rounds;
        long[] bytes;
        double seconds;
        try (SweepSyncServer server = new SweepSyncServer(sc.getConf().get("spark.driver.bindAddress", host),
                PARTITIONS, TIMEOUT_MILLIS)) {
            Sweeps task = new Sweeps(host, server.port(), p, new RandomStreams(seed), sweeps, BLOCKS, vocabularySize,
                    failAt, encoding);
            ClassTag<PartitionResult> tag = ClassTag$.MODULE$.apply(PartitionResult.class);
            long t0 = System.nanoTime();
            RDD<PartitionResult> run = sc.parallelize(keyed, PARTITIONS).rdd().barrier().mapPartitions(task, false,
                    tag);
            // Through a shuffle: Spark retries a failed barrier ShuffleMapStage, never a barrier ResultStage.
            results = new ArrayList<>(new JavaRDD<>(run, tag).repartition(1).collect());
            seconds = (System.nanoTime() - t0) / 1e9;
            rounds = server.roundTimes();
            bytes = server.roundBytes();
            System.out.printf(Locale.ROOT, "server: %.2f ms per round sending the deltas back%n",
                    server.relayNanos() / 1e6 / Math.max(1, rounds.length));
        }
        results.sort((a, b) -> Integer.compare(a.partition(), b.partition()));
        System.out.printf(Locale.ROOT, "whole stage (launch, initial topics, %d sweeps, collect): %.2f s = %.2f M "
                + "tokens/s%n", sweeps, seconds, tokens * (double) sweeps / seconds / 1e6);
        System.out.printf(Locale.ROOT, "sweeps only (server clock, end of init to end of last sweep): %.2f M "
                + "tokens/s, %.2f ms per sweep%n", tokens * (double) sweeps / ((rounds[sweeps] - rounds[0]) / 1e9)
                / 1e6, (rounds[sweeps] - rounds[0]) / 1e6 / sweeps);
        window(results, rounds, bytes, 0, Math.min(10, sweeps));
        window(results, rounds, bytes, Math.min(150, sweeps * 3 / 4), sweeps);
        return results;
    }

    /** Prints the wall ms per sweep (server clock) and each partition's split over sweeps [from, to). */
    private static void window(List<PartitionResult> results, long[] rounds, long[] bytes, int from, int to) {
        int n = to - from;
        long sent = 0;
        for (int s = from; s < to; s++) {
            sent += bytes[s + 1];
        }
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "sweeps %d-%d: %.2f ms per sweep, %.2f MB "
                + "of deltas per sweep;", from, to, (rounds[to] - rounds[from]) / 1e6 / n, sent / 1e6 / n));
        long[] slowest = new long[to];
        for (PartitionResult r : results) {
            for (int s = from; s < to; s++) {
                slowest[s] = Math.max(slowest[s], r.samplingNanos()[s]);
            }
        }
        for (PartitionResult r : results) {
            long[] communication = new long[to];
            for (int s = from; s < to; s++) {
                communication[s] = r.syncNanos()[s] - (slowest[s] - r.samplingNanos()[s]);
            }
            line.append(String.format(Locale.ROOT, " partition %d: sampling %.2f, sync wait %.2f (of which beyond the "
                    + "slowest partition's sampling %.2f), merge %.2f ms;", r.partition(),
                    mean(r.samplingNanos(), from, to), mean(r.syncNanos(), from, to), mean(communication, from, to),
                    mean(r.mergeNanos(), from, to)));
        }
        System.out.println(line);
    }

    private static double mean(long[] nanos, int from, int to) {
        long sum = 0;
        for (int i = from; i < to; i++) {
            sum += nanos[i];
        }
        return sum / 1e6 / (to - from);
    }

    /**
     * What a task returns: its blocks' final topics, its final copy of the global counts, and per sweep its sampling
     * time, its time from sending its deltas to having every block's deltas decoded, and its merge time.
     */
    record PartitionResult(int partition, int[] blockIds, char[][] topics, TopicWordCounts global,
            long[] samplingNanos, long[] syncNanos, long[] mergeNanos) implements Serializable {
    }

    /** Adds the benchmark's task result (a record: Java serialization inside Kryo) to sparkmc's registrations. */
    public static final class Registrator implements KryoRegistrator {
        @Override
        public void registerClasses(Kryo kryo) {
            kryo.register(PartitionResult.class, new JavaSerializer());
            kryo.register(PartitionResult[].class);
        }
    }

    /** The barrier task: initial topics, then every sweep of its blocks with the sync after each. */
    static final class Sweeps extends AbstractFunction1<scala.collection.Iterator<Tuple2<Integer, Corpus>>,
            scala.collection.Iterator<PartitionResult>> implements Serializable {
        private final String host;
        private final int port;
        private final LdaPriors priors;
        private final RandomStreams streams;
        private final int sweeps;
        private final int numBlocks;
        private final int vocabularySize;
        private final int failAt;
        private final String encoding;

        Sweeps(String host, int port, LdaPriors priors, RandomStreams streams, int sweeps, int numBlocks,
                int vocabularySize, int failAt, String encoding) {
            this.host = host;
            this.port = port;
            this.priors = priors;
            this.streams = streams;
            this.sweeps = sweeps;
            this.numBlocks = numBlocks;
            this.vocabularySize = vocabularySize;
            this.failAt = failAt;
            this.encoding = encoding;
        }

        @Override
        public scala.collection.Iterator<PartitionResult> apply(scala.collection.Iterator<Tuple2<Integer, Corpus>> it) {
            BarrierTaskContext context = BarrierTaskContext.get();
            List<Tuple2<Integer, Corpus>> mine = new ArrayList<>();
            CollectionConverters.asJava(it).forEachRemaining(mine::add);
            int[] ids = mine.stream().mapToInt(Tuple2::_1).toArray();
            Corpus[] docs = mine.stream().map(Tuple2::_2).toArray(Corpus[]::new);
            char[][] z = new char[ids.length][];
            long[] sampling = new long[sweeps];
            long[] sync = new long[sweeps];
            long[] merge = new long[sweeps];
            TopicWordCounts global;
            try (SweepSyncClient client = new SweepSyncClient(host, port, context.partitionId(),
                    context.stageAttemptNumber(), TIMEOUT_MILLIS, encoding)) {
                List<TopicWordDelta> deltas = new ArrayList<>();
                for (int i = 0; i < ids.length; i++) {
                    BlockUpdate u = AdLda.initializeBlock(docs[i], ids[i], priors, streams);
                    z[i] = u.topics();
                    deltas.add(u.delta());
                }
                global = AdLda.merge(TopicWordCounts.empty(priors.numTopics(), vocabularySize),
                        client.exchange(0, ids, deltas, numBlocks));
                for (int s = 0; s < sweeps; s++) {
                    if (s == failAt && context.partitionId() == 1 && context.stageAttemptNumber() == 0) {
                        throw new IllegalStateException("injected failure at sweep " + s);
                    }
                    long t0 = System.nanoTime();
                    deltas.clear();
                    for (int i = 0; i < ids.length; i++) {
                        BlockUpdate u = AdLda.sweepBlock(docs[i], z[i], global, priors, streams, s, 1, ids[i]);
                        z[i] = u.topics();
                        deltas.add(u.delta());
                    }
                    long t1 = System.nanoTime();
                    List<TopicWordDelta> all = client.exchange(s + 1, ids, deltas, numBlocks);
                    long t2 = System.nanoTime();
                    global = AdLda.merge(global, all);
                    long t3 = System.nanoTime();
                    sampling[s] = t1 - t0;
                    sync[s] = t2 - t1;
                    merge[s] = t3 - t2;
                }
                client.done();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return CollectionConverters.asScala(List.of(new PartitionResult(context.partitionId(), ids, z, global,
                    sampling, sync, merge)).iterator());
        }
    }
}
