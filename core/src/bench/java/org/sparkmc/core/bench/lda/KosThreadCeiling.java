package org.sparkmc.core.bench.lda;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.sparkmc.core.lda.AdLda;
import org.sparkmc.core.lda.BlockSweeper;
import org.sparkmc.core.lda.BlockUpdate;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.core.lda.LdaKernel;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.TopicWordCounts;
import org.sparkmc.core.lda.TopicWordDelta;
import org.sparkmc.core.random.RandomStreams;

/**
 * The ceiling of the {@code lda} job's design on this machine without Spark: AD-LDA on the KOS training split with
 * the job's per-block work (sampler built from the global counts, {@code syncInterval} sweeps, count changes) run
 * on a pool of plain Java threads, and the merge on the calling thread, as the driver does. Spark adds its per-step
 * cost on top of this, so the job's tokens per second cannot exceed what this prints for the same threads.
 *
 * <p>Usage: {@code KosThreadCeiling <K> <alpha> <blocks> <threads,…> <sweeps> [syncInterval]}; prints, per thread
 * count, tokens per second over the sweeps, the share of the wall time the busiest thread spent on its blocks, and
 * how dense the counts ended (non-zero cells, and the mean length of the row a token's draw scans). The first round
 * runs in a fresh JVM (the "warm-up" line), the second after it ({@code -Drounds=1}: the first only); each line is
 * followed by a {@code RESULT} line with its tokens per second, which {@code submit/bench-all --ceilings} reads.
 */
public final class KosThreadCeiling {
    public static void main(String[] args) throws Exception {
        int k = Integer.parseInt(args[0]);
        double alpha = Double.parseDouble(args[1]);
        int numBlocks = Integer.parseInt(args[2]);
        String[] threadCounts = args[3].split(",");
        int sweeps = Integer.parseInt(args[4]);
        int syncInterval = args.length > 5 ? Integer.parseInt(args[5]) : 1;
        Corpus kos = KosTraining.split();
        LdaPriors p = new LdaPriors(k, alpha, 0.01);
        Corpus[] blocks = kos.blocks(numBlocks);
        int rounds = Integer.getInteger("rounds", 2);
        for (int round = 0; round < rounds; round++) {
            for (String t : threadCounts) {
                run(kos.numTokens(), blocks, p, Integer.parseInt(t), sweeps, syncInterval, round == 0);
            }
        }
    }

    /**
     * The length of the row the sparse sampler scans for a token, averaged over the tokens: Σ_w n_w · nnz_w / N.
     * AD-LDA's blocks, each blind to the others' moves within a sweep, leave more topics per word than one sampler.
     */
    static double meanRowLength(TopicWordCounts counts) {
        int[] starts = counts.rowStarts();
        double weighted = 0;
        long tokens = 0;
        for (int w = 0; w < counts.vocabularySize(); w++) {
            int length = counts.isWide(w) ? counts.numTopics() : starts[w + 1] - starts[w];
            weighted += (double) counts.wordTotal(w) * length;
            tokens += counts.wordTotal(w);
        }
        return weighted / tokens;
    }

    private static void run(long tokens, Corpus[] blocks, LdaPriors p, int threads, int sweeps, int syncInterval,
            boolean warmUp) throws Exception {
        RandomStreams rs = new RandomStreams(1);
        KosTraining.Start start = KosTraining.randomStart(blocks, p, rs);
        char[][] z = start.topics();
        List<TopicWordDelta> deltas = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            TopicWordCounts global = start.global();
            long busiest = 0;
            long t0 = System.nanoTime();
            for (int s = 0; s < sweeps; s += syncInterval) {
                TopicWordCounts counts = global;
                int first = s;
                List<Future<long[]>> work = new ArrayList<>();
                BlockUpdate[] updates = new BlockUpdate[blocks.length];
                for (int w = 0; w < threads; w++) {
                    int worker = w;
                    work.add(pool.submit(() -> {
                        long start0 = System.nanoTime();
                        // One sweeper per thread, as each of the job's tasks has one (its sampler restored between
                        // blocks); blocks dealt to threads as Spark's parallelize slices them over partitions.
                        BlockSweeper sweeper = new BlockSweeper(p, LdaKernel.SPARSE_GIBBS);
                        for (int b = worker * blocks.length / threads; b < (worker + 1) * blocks.length / threads;
                                b++) {
                            updates[b] = sweeper.sweep(blocks[b], z[b], counts, rs, first, syncInterval, b);
                        }
                        return new long[] {System.nanoTime() - start0};
                    }));
                }
                long slowest = 0;
                for (Future<long[]> f : work) {
                    slowest = Math.max(slowest, f.get()[0]);
                }
                busiest += slowest;
                deltas.clear();
                for (int b = 0; b < blocks.length; b++) {
                    z[b] = updates[b].topics();
                    deltas.add(updates[b].delta());
                }
                global = AdLda.merge(global, deltas);
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            double tokensPerSecond = tokens * (double) sweeps / seconds;
            System.out.printf(Locale.ROOT, "%sK=%d blocks=%d sync=%d threads=%d: %.2f M tokens/s over %d sweeps "
                    + "(%.1f ms per sweep; busiest thread %.0f%% of the wall time); then %d non-zero counts, "
                    + "a token's word row %.2f long on average%n", warmUp ? "(warm-up) " : "",
                    p.numTopics(), blocks.length, syncInterval, threads, tokensPerSecond / 1e6,
                    sweeps, 1e3 * seconds / sweeps, 100 * busiest / 1e9 / seconds, global.nonZeros(),
                    meanRowLength(global));
            System.out.printf(Locale.ROOT, "RESULT fresh_jvm=%b threads=%d tokens_per_second=%.0f%n", warmUp, threads,
                    tokensPerSecond);
        } finally {
            pool.shutdownNow();
        }
    }
}
