package org.sparkmc.core.bench.lda;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.sparkmc.core.lda.AdLda;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.core.lda.DeltaSum;
import org.sparkmc.core.lda.LdaKernel;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.LdaSampler;
import org.sparkmc.core.lda.ModelParallelLda;
import org.sparkmc.core.lda.TopicWordCounts;
import org.sparkmc.core.lda.TopicWordDelta;
import org.sparkmc.core.lda.WordSlices;
import org.sparkmc.core.random.RandomStreams;

/**
 * What a relayed model-parallel {@code lda} could reach on this machine, without Spark: the KOS training split cut
 * into P document blocks and P word slices ({@link ModelParallelLda}'s schedule, topic totals merged after every
 * sub-step), on a pool of plain threads. Each thread builds one SparseLDA sampler from the merged counts per sub-step
 * and sweeps its blocks' tokens of their slices, restoring the sampler between blocks; the changes are merged on the
 * calling thread, as {@link KosThreadCeiling} does for AD-LDA. A relayed stage would add its exchange to this.
 *
 * <p>Usage: {@code KosModelParallelCeiling <K> <alpha> <P> <threads> <sweeps> [rounds]}; prints tokens per second over
 * the sweeps, the busiest thread's and the merge's shares of the wall time, the first three sweeps' times and how
 * dense the counts ended. The first round runs in a fresh JVM (the "warm-up" line).
 */
public final class KosModelParallelCeiling {
    private KosModelParallelCeiling() {
    }

    public static void main(String[] args) throws Exception {
        int k = Integer.parseInt(args[0]);
        LdaPriors priors = new LdaPriors(k, Double.parseDouble(args[1]), 0.01);
        int p = Integer.parseInt(args[2]);
        int threads = Integer.parseInt(args[3]);
        int sweeps = Integer.parseInt(args[4]);
        int rounds = args.length > 5 ? Integer.parseInt(args[5]) : 2;
        Corpus kos = KosTraining.split();
        WordSlices slices = WordSlices.balanced(kos.wordFrequencies(), p);
        Corpus[] blocks = kos.blocks(p);
        int[][][] ranges = new int[p][p][];
        for (int b = 0; b < p; b++) {
            blocks[b] = slices.arrange(blocks[b]);
            for (int j = 0; j < p; j++) {
                ranges[b][j] = slices.ranges(blocks[b], j);
            }
        }
        for (int r = 0; r < rounds; r++) {
            run(kos.numTokens(), blocks, ranges, priors, threads, sweeps, r == 0);
        }
    }

    private static void run(long tokens, Corpus[] blocks, int[][][] ranges, LdaPriors priors, int threads,
            int sweeps, boolean warmUp) throws Exception {
        int p = blocks.length;
        RandomStreams streams = new RandomStreams(1);
        KosTraining.Start start = KosTraining.randomStart(blocks, priors, streams);
        char[][] z = start.topics();
        TopicWordCounts global = start.global();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            long busiest = 0;
            long merging = 0;
            double[] firstSweeps = new double[3];
            long t0 = System.nanoTime();
            for (int sweep = 0; sweep < sweeps; sweep++) {
                long sweepStart = System.nanoTime();
                for (int s = 0; s < p; s++) {
                    List<Future<SubStepWork>> work = new ArrayList<>();
                    for (int w = 0; w < threads; w++) {
                        work.add(pool.submit(new SubStep(blocks, ranges, z, global, priors, streams, sweep, s,
                                w * p / threads, (w + 1) * p / threads)));
                    }
                    List<TopicWordDelta> deltas = new ArrayList<>();
                    long slowest = 0;
                    for (Future<SubStepWork> f : work) {
                        SubStepWork done = f.get();
                        slowest = Math.max(slowest, done.nanos());
                        deltas.add(done.delta());
                    }
                    busiest += slowest;
                    long m0 = System.nanoTime();
                    global = AdLda.merge(global, deltas);
                    merging += System.nanoTime() - m0;
                }
                if (sweep < firstSweeps.length) {
                    firstSweeps[sweep] = (System.nanoTime() - sweepStart) / 1e6;
                }
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            System.out.printf(Locale.ROOT, "%sK=%d P=%d threads=%d: %.2f M tokens/s over %d sweeps (%.1f ms per "
                    + "sweep; busiest thread %.0f%%, merge %.0f%% of the wall time; sweeps 1-3 %.0f, %.0f, %.0f ms); "
                    + "then %d non-zero counts, a token's word row %.2f long on average%n", warmUp ? "(warm-up) " : "",
                    priors.numTopics(), p, threads, tokens * (double) sweeps / seconds / 1e6, sweeps,
                    1e3 * seconds / sweeps, 100 * busiest / 1e9 / seconds, 100 * merging / 1e9 / seconds,
                    firstSweeps[0], firstSweeps[1], firstSweeps[2], global.nonZeros(),
                    KosThreadCeiling.meanRowLength(global));
        } finally {
            pool.shutdownNow();
        }
    }

    /** A thread's share of a sub-step: its time and its blocks' summed count changes. */
    private record SubStepWork(long nanos, TopicWordDelta delta) {
    }

    /** Blocks [from, to) each sweep their tokens of slice (b + s) mod P against {@code global}. */
    private record SubStep(Corpus[] blocks, int[][][] ranges, char[][] z, TopicWordCounts global, LdaPriors priors,
            RandomStreams streams, int sweep, int subStep, int from, int to)
            implements Callable<SubStepWork> {
        @Override
        public SubStepWork call() {
            long t0 = System.nanoTime();
            LdaSampler sampler = LdaKernel.SPARSE_GIBBS.create(priors, global);
            DeltaSum sum = new DeltaSum(global);
            for (int b = from; b < to; b++) {
                int j = ModelParallelLda.sliceOf(b, subStep, blocks.length);
                char[] next = z[b].clone();
                sampler.sweep(blocks[b], next, ranges[b][j],
                        streams.stream(ModelParallelLda.SWEEP_STREAM, sweep, b, j));
                z[b] = next;
                sampler.addDelta(sum, global, blocks[b]);
                sampler.restore(global, blocks[b]);
            }
            return new SubStepWork(System.nanoTime() - t0, sum.takeTotal());
        }
    }
}
