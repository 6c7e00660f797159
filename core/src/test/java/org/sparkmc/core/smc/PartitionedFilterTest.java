package org.sparkmc.core.smc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.smc.models.LinearGaussianModel;

/**
 * A whole filter run the way a distributed job would run it — partitions holding local arrays of whole blocks,
 * summaries folded by a driver, offspring counted from offsets and sent to the partition that owns their new
 * index, partitions rebalanced after each resampling — must give exactly the single-machine {@link ParticleSystem}'s
 * particles, summaries and log-likelihood, for 1, 3 and 8 partitions. Deterministic: no false failures.
 */
class PartitionedFilterTest {
    private static final int N = 700;
    private static final int BLOCK = 32; // 22 blocks, the last one short
    private static final int DIM = 2;

    /** A partition: blocks [firstBlock, endBlock) and their particles in local arrays. */
    static final class Partition {
        final int firstBlock;
        final int endBlock;
        final int globalFrom;
        double[] states;
        double[] logWeights;

        Partition(int firstBlock, int endBlock) {
            this.firstBlock = firstBlock;
            this.endBlock = endBlock;
            this.globalFrom = firstBlock * BLOCK;
            int size = Math.min(N, endBlock * BLOCK) - globalFrom;
            states = new double[size * DIM];
            logWeights = new double[size];
        }

        int localFrom(int b) {
            return b * BLOCK - globalFrom;
        }

        int localTo(int b) {
            return Math.min(N, (b + 1) * BLOCK) - globalFrom;
        }
    }

    static int blocks() {
        return (N + BLOCK - 1) / BLOCK;
    }

    /** Equal-as-possible runs of whole blocks; {@code skew} shifts the boundaries so layouts differ over time. */
    static List<Partition> layout(int p, int skew) {
        int nb = blocks();
        List<Partition> out = new ArrayList<>();
        int start = 0;
        for (int k = 0; k < p; k++) {
            int end = k == p - 1 ? nb : Math.min(nb - (p - 1 - k), Math.max(start + 1, (k + 1) * nb / p + (skew % 2)));
            out.add(new Partition(start, end));
            start = end;
        }
        return out;
    }

    static LinearGaussianModel model() {
        return new LinearGaussianModel(new double[][] {{0.9, 0.2}, {-0.1, 0.8}}, new double[][] {{0.5, 0.1}, {0.1, 0.3}},
                new double[][] {{1, 0}, {0.5, 1}}, new double[][] {{1, 0.2}, {0.2, 0.5}}, new double[] {0, 0},
                new double[][] {{1, 0}, {0, 1}});
    }

    @ParameterizedTest
    @EnumSource(ResamplingScheme.class)
    void partitionedRunsEqualTheSingleMachineRun(ResamplingScheme scheme) {
        double[][] y = LinearGaussianFilterTest.simulate(model(), 30, 17);
        y[7] = new double[] {Double.NaN, Double.NaN};
        SmcOptions options = SmcOptions.defaults().withScheme(scheme).withBlockSize(BLOCK).withEssThreshold(0.8)
                .withMissing(MissingObservations.SKIP);
        ParticleKernel kernel = ParticleKernel.guided(model(), model().optimalProposal());
        for (int p : new int[] {1, 3, 8}) {
            ParticleSystem single = new ParticleSystem(kernel, N, options, new RandomStreams(2024));
            RandomStreams streams = new RandomStreams(2024);
            List<Partition> parts = layout(p, 0);
            double previousLogSum = BlockPropagation.logSumAfterResampling(N);
            double logLikelihood = 0;
            int resamplings = 0;
            for (int step = 0; step < y.length; step++) {
                StepSummary expected = single.step(y[step]);
                // executors: move and weight their blocks
                BlockSummary[] summaries = new BlockSummary[blocks()];
                for (Partition part : parts) {
                    double[] scratch = new double[BLOCK];
                    for (int b = part.firstBlock; b < part.endBlock; b++) {
                        summaries[b] = BlockPropagation.propagate(kernel, step, y[step], part.states, part.logWeights,
                                part.localFrom(b), part.localTo(b), b, previousLogSum, streams, scratch);
                    }
                }
                // driver
                GlobalWeights g = GlobalWeights.of(step, List.of(summaries));
                logLikelihood += g.logSum();
                assertEquals(expected.logLikelihoodIncrement(), g.logSum(), 0.0);
                assertEquals(expected.ess(), g.ess(), 0.0);
                assertArrayEquals(expected.mean(), g.mean(), 0.0);
                assertArrayEquals(expected.variance(), g.variance(), 0.0);
                boolean resample = options.resamples(g.ess(), N);
                assertEquals(expected.resampled(), resample);
                if (resample) {
                    resamplings++;
                    parts = resample(scheme, parts, g, streams, step, p, resamplings);
                    previousLogSum = BlockPropagation.logSumAfterResampling(N);
                } else {
                    previousLogSum = g.logSum();
                }
                assertArrayEquals(single.states(), gather(parts), scheme + ", " + p + " partitions, step " + step);
            }
            assertEquals(single.logLikelihood(), logLikelihood, 0.0);
            assertTrue(resamplings > 3, "too few resampling steps to test: " + resamplings);
        }
    }

    /** Offspring counted per block from offsets, sent by new global index to a new (rebalanced) layout. */
    static List<Partition> resample(ResamplingScheme scheme, List<Partition> parts, GlobalWeights g, RandomStreams streams,
            int step, int p, int skew) {
        double[] outbox = new double[N * DIM]; // stands in for the shuffle: (new index, state) records
        boolean[] written = new boolean[N];
        ResidualWeights residual = null;
        ResamplingDraw draw;
        if (scheme == ResamplingScheme.RESIDUAL) {
            ResidualBlock[] rb = new ResidualBlock[blocks()];
            for (Partition part : parts) {
                for (int b = part.firstBlock; b < part.endBlock; b++) {
                    rb[b] = OffsetResampling.residualBlock(part.logWeights, part.localFrom(b), part.localTo(b), b, g, N);
                }
            }
            residual = ResidualWeights.of(N, List.of(rb));
            draw = scheme.draw(residual.residualPoints(), streams, step);
        } else {
            draw = scheme.draw(N, streams, step);
        }
        for (Partition part : parts) {
            int[] counts = new int[part.logWeights.length];
            for (int b = part.firstBlock; b < part.endBlock; b++) {
                int from = part.localFrom(b);
                int to = part.localTo(b);
                long next = residual == null
                        ? OffsetResampling.offspring(part.logWeights, from, to, b, g, draw, counts, from)
                        : OffsetResampling.residualOffspring(part.logWeights, from, to, b, g, residual, draw, counts,
                                from);
                for (int i = from; i < to; i++) {
                    for (int c = 0; c < counts[i]; c++) {
                        int target = (int) next++;
                        assertTrue(!written[target], "two offspring for new index " + target);
                        written[target] = true;
                        System.arraycopy(part.states, i * DIM, outbox, target * DIM, DIM);
                    }
                }
            }
        }
        List<Partition> next = layout(p, skew);
        for (Partition part : next) {
            System.arraycopy(outbox, part.globalFrom * DIM, part.states, 0, part.states.length);
            BlockPropagation.resetLogWeights(part.logWeights, 0, part.logWeights.length);
        }
        for (boolean w : written) {
            assertTrue(w, "a new index received no offspring");
        }
        return next;
    }

    static double[] gather(List<Partition> parts) {
        double[] all = new double[N * DIM];
        for (Partition part : parts) {
            System.arraycopy(part.states, 0, all, part.globalFrom * DIM, part.states.length);
        }
        return all;
    }

    @org.junit.jupiter.api.Test
    void layoutsCoverEveryBlockOnce() {
        for (int p : new int[] {1, 3, 8}) {
            for (int skew = 0; skew < 2; skew++) {
                int[] seen = new int[blocks()];
                for (Partition part : layout(p, skew)) {
                    assertTrue(part.endBlock > part.firstBlock);
                    for (int b = part.firstBlock; b < part.endBlock; b++) {
                        seen[b]++;
                    }
                }
                int[] ones = new int[blocks()];
                Arrays.fill(ones, 1);
                assertArrayEquals(ones, seen);
            }
        }
    }
}
