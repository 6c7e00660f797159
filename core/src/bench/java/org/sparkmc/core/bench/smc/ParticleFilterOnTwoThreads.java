package org.sparkmc.core.bench.smc;

import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CyclicBarrier;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.smc.BlockPropagation;
import org.sparkmc.core.smc.BlockSummary;
import org.sparkmc.core.smc.GlobalWeights;
import org.sparkmc.core.smc.ObservationCsv;
import org.sparkmc.core.smc.OffsetResampling;
import org.sparkmc.core.smc.ParticleKernel;
import org.sparkmc.core.smc.ParticleSystem;
import org.sparkmc.core.smc.ResamplingDraw;
import org.sparkmc.core.smc.ResamplingScheme;
import org.sparkmc.core.smc.SmcOptions;
import org.sparkmc.core.smc.models.LocalLevelModel;

/**
 * The machine's ceiling for issue 17's {@code smc} rows, without Spark: the Nile bootstrap filter (systematic,
 * τ = 0.5, blocks of 4096) as {@link ParticleSystem} runs it on one thread, then the same blocks split in two
 * halves over two plain threads that meet at a barrier after every move and every resampling, sharing one particle
 * array (each thread writes its own blocks' offspring at their global indices). The final particles and log p̂ are
 * checked equal to the one-thread filter's, bit for bit. Prints each repeat's seconds and speed-up.
 *
 * <pre>java -Xmx4g -Xms4g -XX:+AlwaysPreTouch -cp … org.sparkmc.core.bench.smc.ParticleFilterOnTwoThreads
 *     [particles=1000000] [steps=100] [repeats=6]</pre>
 */
public final class ParticleFilterOnTwoThreads {
    private ParticleFilterOnTwoThreads() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int steps = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int repeats = args.length > 2 ? Integer.parseInt(args[2]) : 6;
        Path file = Path.of("data/nile/nile.csv");
        double[][] y;
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            y = ObservationCsv.read(r, file.toString(), ObservationCsv.Options.defaults().withTimeColumn("year"))
                    .values();
        }
        ParticleKernel kernel = ParticleKernel.bootstrap(LocalLevelModel.nile());
        SmcOptions options = SmcOptions.defaults();
        RandomStreams streams = new RandomStreams(1);
        for (int rep = 1; rep <= repeats; rep++) {
            long t0 = System.nanoTime();
            ParticleSystem one = new ParticleSystem(kernel, n, options, streams);
            for (int s = 0; s < steps; s++) {
                one.step(y[s]);
            }
            double oneSeconds = (System.nanoTime() - t0) / 1e9;
            t0 = System.nanoTime();
            TwoThreadFilter two = new TwoThreadFilter(kernel, n, options, streams, y, steps);
            two.run();
            double twoSeconds = (System.nanoTime() - t0) / 1e9;
            if (!Arrays.equals(one.states(), two.states) || one.logLikelihood() != two.logLikelihood) {
                throw new IllegalStateException("two threads' particles differ from one thread's");
            }
            System.out.printf(Locale.ROOT, "RESULT rep=%d one_thread_s=%.3f two_threads_s=%.3f speedup=%.2f "
                    + "resamplings=%d%n", rep, oneSeconds, twoSeconds, oneSeconds / twoSeconds, two.resamplings);
        }
    }

    /** The filter of {@link ParticleSystem}, its blocks in two halves on two threads. */
    private static final class TwoThreadFilter {
        private final ParticleKernel kernel;
        private final int n;
        private final SmcOptions options;
        private final RandomStreams streams;
        private final double[][] y;
        private final int steps;
        private final int blocks;
        private final int bs;
        private final BlockSummary[] summaries;
        private final CyclicBarrier barrier;
        private double[] states;
        private double[] spare;
        private final double[] logWeights;
        private double previousLogSum;
        private double logLikelihood;
        private int resamplings;
        private GlobalWeights weights;
        private ResamplingDraw draw;
        private int stepsFolded;

        TwoThreadFilter(ParticleKernel kernel, int n, SmcOptions options, RandomStreams streams, double[][] y,
                int steps) {
            this.kernel = kernel;
            this.n = n;
            this.options = options;
            this.streams = streams;
            this.y = y;
            this.steps = steps;
            this.bs = options.blockSize();
            this.blocks = (n + bs - 1) / bs;
            this.summaries = new BlockSummary[blocks];
            this.states = new double[n * kernel.dimension()];
            this.spare = new double[states.length];
            this.logWeights = new double[n];
            this.previousLogSum = BlockPropagation.logSumAfterResampling(n);
            this.barrier = new CyclicBarrier(2, this::fold);
        }

        void run() throws Exception {
            Thread other = new Thread(() -> half(blocks / 2, blocks));
            other.start();
            half(0, blocks / 2);
            other.join();
        }

        /** Runs on the barrier's last thread: the global weights, and the resampling draw if the ESS calls. */
        private void fold() {
            if (draw != null) { // the end of a resampling: swap the generations
                double[] t = states;
                states = spare;
                spare = t;
                BlockPropagation.resetLogWeights(logWeights, 0, n);
                previousLogSum = BlockPropagation.logSumAfterResampling(n);
                draw = null;
                return;
            }
            int step = stepsFolded++;
            weights = GlobalWeights.of(step, new ArrayList<>(List.of(summaries)));
            logLikelihood += weights.logSum();
            if (options.resamples(weights.ess(), n)) {
                draw = ResamplingScheme.SYSTEMATIC.draw(n, streams, step);
                resamplings++;
            } else {
                previousLogSum = weights.logSum();
            }
        }

        private void half(int fromBlock, int toBlock) {
            double[] scratch = new double[bs];
            int[] counts = new int[bs];
            try {
                for (int s = 0; s < steps; s++) {
                    for (int b = fromBlock; b < toBlock; b++) {
                        int from = b * bs;
                        summaries[b] = BlockPropagation.propagate(kernel, s, y[s], states, logWeights, from,
                                Math.min(n, from + bs), b, previousLogSum, streams, scratch);
                    }
                    barrier.await();
                    if (draw == null) {
                        continue;
                    }
                    for (int b = fromBlock; b < toBlock; b++) {
                        int from = b * bs;
                        int to = Math.min(n, from + bs);
                        int k = (int) OffsetResampling.offspring(logWeights, from, to, b, weights, draw, counts, 0);
                        for (int i = from; i < to; i++) {
                            double x = states[i];
                            for (int c = counts[i - from]; c > 0; c--) {
                                spare[k++] = x;
                            }
                        }
                    }
                    barrier.await();
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }
}
