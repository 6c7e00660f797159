package org.sparkmc.spark.bench;

import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.RDDInfo;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.core.lda.LdaKernel;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.TopicWordCounts;
import org.sparkmc.spark.SparkSetup;
import org.sparkmc.spark.lda.AdLdaSpark;
import org.sparkmc.spark.lda.LdaCorpus;
import org.sparkmc.spark.lda.LdaCorpusReader;
import org.sparkmc.spark.sync.SyncVia;

/**
 * Memory of the lda job's data structures on KOS (training split, 8 blocks, local[2]) for each K given: Spark's
 * own size estimate of the cached blocks (documents, topics and last count changes) per training token, the
 * broadcast topic–word counts (payload and Spark's size estimate of the deserialised value) at the random start and
 * after the given sweeps, the dense W·K table for comparison, and the per-task sampler copy, which reserves
 * min(K, f_w) cells of 4 bytes for every word w (f_w its training frequency) plus 8 bytes per word.
 *
 * The cached blocks are measured after the random start (when each block's last count change is all its counts) and
 * after the last sweep.
 *
 * <p>Usage: {@code submit/bench spark-jobs org.sparkmc.spark.bench.LdaMemoryBenchmark [K,K,...] [sweeps]}
 */
public final class LdaMemoryBenchmark {
    public static void main(String[] args) {
        int[] ks = java.util.Arrays.stream((args.length > 0 ? args[0] : "100,1000").split(","))
                .mapToInt(Integer::parseInt).toArray();
        int sweeps = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        SparkSession spark = SparkSetup.session("lda-memory-benchmark", "local[2]");
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        LdaCorpus input = LdaCorpusReader.readUci(sc, "data/kos/docword.kos.txt.gz", "data/kos/vocab.kos.txt");
        Corpus training = input.documents().collect().selectByDocId(LdaCorpus.heldOut(10).negate());
        long n = training.numTokens();
        int w = training.vocabularySize();
        int[] f = training.wordFrequencies();
        System.out.printf(Locale.ROOT, "%nKOS training split: %d documents, %d tokens, W = %d; 8 blocks on local[2]; "
                + "%s%n%n", training.numDocuments(), n, w, java.time.LocalDate.now());
        System.out.println("| K | cached blocks at start / after (bytes/token) | broadcast at start: payload / estimated | broadcast "
                + "after " + sweeps + " sweeps: payload / estimated | non-zero cells after | dense W·K ints | "
                + "sampler copy per task |");
        System.out.println("|---|---|---|---|---|---|---|");
        for (int k : ks) {
            AdLdaSpark run = AdLdaSpark.start(sc, training, new AdLdaSpark.Options(new LdaPriors(k, 0.5, 0.01), 8, 2,
                    20261122L, LdaKernel.SPARSE_GIBBS, 10, SyncVia.JOBS));
            TopicWordCounts start = run.counts();
            long startPayload = start.payloadBytes();
            long startEstimate = org.apache.spark.util.SizeEstimator.estimate(start);
            long cachedStart = cached(sc);
            for (int s = 0; s < sweeps; s++) {
                run.step(1);
            }
            long cached = cached(sc);
            TopicWordCounts end = run.counts();
            long samplerCells = 0;
            for (int v = 0; v < w; v++) {
                samplerCells += Math.min(k, f[v]);
            }
            System.out.printf(Locale.ROOT, "| %d | %.2f / %.2f (%,d B after) | %,d / %,d B | %,d / %,d B | %,d | %,d B | %,d B |%n",
                    k, cachedStart / (double) n, cached / (double) n, cached, startPayload, startEstimate, end.payloadBytes(),
                    org.apache.spark.util.SizeEstimator.estimate(end), (end.payloadBytes() - 4L * (w + 1) - 4L * k) / 4,
                    4L * w * k, 4 * samplerCells + 8L * (w + 1));
            run.close();
        }
        spark.stop();
    }

    /** The largest cached RDD's size (memory + disk), by Spark's estimate: the current blocks. */
    private static long cached(JavaSparkContext sc) {
        long max = 0;
        for (RDDInfo info : sc.sc().getRDDStorageInfo()) {
            max = Math.max(max, info.memSize() + info.diskSize());
        }
        return max;
    }
}
