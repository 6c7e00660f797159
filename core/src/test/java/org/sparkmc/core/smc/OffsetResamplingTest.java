package org.sparkmc.core.smc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.sparkmc.core.random.RandomStreams;

/**
 * The offset form of resampling, as partitions would run it, against the single-machine resampler: the counts must be
 * bit-identical (deterministic tests, no false failures).
 */
class OffsetResamplingTest {
    private static final int N = 1000;
    private static final int BLOCK = 37; // 28 blocks, the last one short

    /** Log-weights over a wide range, with some −∞ and one block entirely −∞. */
    static double[] logWeights(long seed) {
        UniformRandomProvider rng = new RandomStreams(seed).stream("weights");
        double[] lw = new double[N];
        for (int i = 0; i < N; i++) {
            double u = rng.nextDouble();
            lw[i] = u < 0.05 ? Double.NEGATIVE_INFINITY : 40 * rng.nextDouble() - 700 + (i % 7) * 3;
        }
        Arrays.fill(lw, 5 * BLOCK, 6 * BLOCK, Double.NEGATIVE_INFINITY);
        return lw;
    }

    static int blocks() {
        return (N + BLOCK - 1) / BLOCK;
    }

    /** Block ranges per partition: unequal runs of whole blocks. */
    static List<int[]> partitions(int p) {
        int nb = blocks();
        List<int[]> out = new ArrayList<>();
        int start = 0;
        for (int k = 0; k < p; k++) {
            // uneven: partition k gets roughly (k+1)-proportional shares
            int end = k == p - 1 ? nb : start + Math.max(1, (int) Math.round(2.0 * nb * (k + 1) / (p * (p + 1.0))));
            end = Math.min(end, nb - (p - 1 - k));
            out.add(new int[] {start, end});
            start = end;
        }
        return out;
    }

    /** What a distributed job does: local arrays per partition, summaries to the driver, offsets back. */
    static int[] partitioned(ResamplingScheme scheme, double[] lw, int p, RandomStreams streams, long step,
            long[] firstIndexOut) {
        List<int[]> parts = partitions(p);
        // executors: summaries of their blocks, from local copies of their particles
        BlockSummary[] summaries = new BlockSummary[blocks()];
        List<double[]> local = new ArrayList<>();
        for (int[] part : parts) {
            int gFrom = part[0] * BLOCK;
            int gTo = Math.min(N, part[1] * BLOCK);
            double[] mine = Arrays.copyOfRange(lw, gFrom, gTo);
            local.add(mine);
            for (int b = part[0]; b < part[1]; b++) {
                int from = b * BLOCK - gFrom;
                int to = Math.min(N, (b + 1) * BLOCK) - gFrom;
                summaries[b] = BlockSummary.of(b, new double[0], mine, from, to, 0, new double[BLOCK]);
            }
        }
        // driver
        GlobalWeights g = GlobalWeights.of((int) step, List.of(summaries));
        int[] counts = new int[N];
        if (scheme == ResamplingScheme.RESIDUAL) {
            ResidualBlock[] rb = new ResidualBlock[blocks()];
            for (int k = 0; k < parts.size(); k++) {
                int[] part = parts.get(k);
                int gFrom = part[0] * BLOCK;
                for (int b = part[0]; b < part[1]; b++) {
                    rb[b] = OffsetResampling.residualBlock(local.get(k), b * BLOCK - gFrom,
                            Math.min(N, (b + 1) * BLOCK) - gFrom, b, g, N);
                }
            }
            ResidualWeights r = ResidualWeights.of(N, List.of(rb));
            ResamplingDraw draw = scheme.draw(r.residualPoints(), streams, step);
            for (int k = 0; k < parts.size(); k++) {
                int[] part = parts.get(k);
                int gFrom = part[0] * BLOCK;
                int[] mine = new int[local.get(k).length];
                for (int b = part[0]; b < part[1]; b++) {
                    long first = OffsetResampling.residualOffspring(local.get(k), b * BLOCK - gFrom,
                            Math.min(N, (b + 1) * BLOCK) - gFrom, b, g, r, draw, mine, b * BLOCK - gFrom);
                    firstIndexOut[b] = first;
                }
                System.arraycopy(mine, 0, counts, gFrom, mine.length);
            }
            return counts;
        }
        ResamplingDraw draw = scheme.draw(N, streams, step);
        for (int k = 0; k < parts.size(); k++) {
            int[] part = parts.get(k);
            int gFrom = part[0] * BLOCK;
            int[] mine = new int[local.get(k).length];
            for (int b = part[0]; b < part[1]; b++) {
                firstIndexOut[b] = OffsetResampling.offspring(local.get(k), b * BLOCK - gFrom,
                        Math.min(N, (b + 1) * BLOCK) - gFrom, b, g, draw, mine, b * BLOCK - gFrom);
            }
            System.arraycopy(mine, 0, counts, gFrom, mine.length);
        }
        return counts;
    }

    @ParameterizedTest
    @EnumSource(ResamplingScheme.class)
    void partitionsReproduceTheGlobalResamplerBitForBit(ResamplingScheme scheme) {
        for (long step = 0; step < 20; step++) {
            double[] lw = logWeights(step);
            RandomStreams streams = new RandomStreams(42);
            List<BlockSummary> all = new ArrayList<>();
            for (int b = 0; b < blocks(); b++) {
                all.add(BlockSummary.of(b, new double[0], lw, b * BLOCK, Math.min(N, (b + 1) * BLOCK), 0,
                        new double[BLOCK]));
            }
            GlobalWeights g = GlobalWeights.of((int) step, all);
            int[] global = new int[N];
            Resampling.offspring(scheme, lw, BLOCK, g, N, streams, step, global);
            assertEquals(N, Arrays.stream(global).sum());
            for (int i = 0; i < N; i++) {
                if (lw[i] == Double.NEGATIVE_INFINITY) {
                    assertEquals(0, global[i], "a zero-weight particle got offspring");
                }
            }
            for (int p : new int[] {1, 3, 8}) {
                long[] first = new long[blocks()];
                int[] counts = partitioned(scheme, lw, p, new RandomStreams(42), step, first);
                assertArrayEquals(global, counts, scheme + ", step " + step + ", " + p + " partitions");
                // each block knows where its offspring start: the running sum of the global counts
                long running = 0;
                for (int b = 0; b < blocks(); b++) {
                    assertEquals(running, first[b], "first offspring index of block " + b);
                    for (int i = b * BLOCK; i < Math.min(N, (b + 1) * BLOCK); i++) {
                        running += global[i];
                    }
                }
            }
        }
    }

    /**
     * One block per partition (1, 3 and 8 blocks of ⌈N/P⌉ particles): each partition, seeing only its own weights and
     * the driver's offsets, reproduces the global resampler's counts.
     */
    @ParameterizedTest
    @EnumSource(ResamplingScheme.class)
    void oneBlockPerPartition(ResamplingScheme scheme) {
        double[] lw = logWeights(77);
        for (int p : new int[] {1, 3, 8}) {
            int size = (N + p - 1) / p;
            List<BlockSummary> summaries = new ArrayList<>();
            List<double[]> local = new ArrayList<>();
            for (int b = 0; b < p; b++) {
                double[] mine = Arrays.copyOfRange(lw, b * size, Math.min(N, (b + 1) * size));
                local.add(mine);
                summaries.add(BlockSummary.of(b, new double[0], mine, 0, mine.length, 0, new double[mine.length]));
            }
            GlobalWeights g = GlobalWeights.of(0, summaries);
            int[] global = new int[N];
            Resampling.offspring(scheme, lw, size, g, N, new RandomStreams(5), 3, global);
            int[] counts = new int[N];
            if (scheme == ResamplingScheme.RESIDUAL) {
                List<ResidualBlock> rb = new ArrayList<>();
                for (int b = 0; b < p; b++) {
                    rb.add(OffsetResampling.residualBlock(local.get(b), 0, local.get(b).length, b, g, N));
                }
                ResidualWeights r = ResidualWeights.of(N, rb);
                ResamplingDraw draw = scheme.draw(r.residualPoints(), new RandomStreams(5), 3);
                for (int b = 0; b < p; b++) {
                    int[] mine = new int[local.get(b).length];
                    OffsetResampling.residualOffspring(local.get(b), 0, mine.length, b, g, r, draw, mine, 0);
                    System.arraycopy(mine, 0, counts, b * size, mine.length);
                }
            } else {
                ResamplingDraw draw = scheme.draw(N, new RandomStreams(5), 3);
                for (int b = 0; b < p; b++) {
                    int[] mine = new int[local.get(b).length];
                    OffsetResampling.offspring(local.get(b), 0, mine.length, b, g, draw, mine, 0);
                    System.arraycopy(mine, 0, counts, b * size, mine.length);
                }
            }
            assertArrayEquals(global, counts, scheme + " with " + p + " blocks");
            assertEquals(N, Arrays.stream(counts).sum());
        }
    }

    /** With one block, systematic resampling is the textbook algorithm: points (k + U)/N on the cumulative sums. */
    @Test
    void oneBlockSystematicIsTheTextbookAlgorithm() {
        for (long step = 0; step < 50; step++) {
            double[] lw = logWeights(100 + step);
            RandomStreams streams = new RandomStreams(3);
            GlobalWeights g = GlobalWeights.of(0, List.of(BlockSummary.of(0, new double[0], lw, 0, N, 0,
                    new double[N])));
            int[] counts = new int[N];
            Resampling.offspring(ResamplingScheme.SYSTEMATIC, lw, N, g, N, streams, step, counts);
            double u = streams.stream(ResamplingDraws.RESAMPLE_STREAM, step).nextDouble();
            double max = g.blockMax(0);
            double[] cum = new double[N];
            double c = 0;
            for (int i = 0; i < N; i++) {
                c += lw[i] == Double.NEGATIVE_INFINITY ? 0 : Math.exp(lw[i] - max);
                cum[i] = c;
            }
            int[] textbook = new int[N];
            int i = 0;
            for (int k = 0; k < N; k++) {
                double point = (k + u) / N * c;
                while (cum[i] <= point) {
                    i++;
                }
                textbook[i]++;
            }
            assertArrayEquals(textbook, counts, "step " + step);
        }
    }

    /** Draws and global weights survive Java serialization (as in a broadcast) and still give the same counts. */
    @ParameterizedTest
    @EnumSource(value = ResamplingScheme.class, names = {"MULTINOMIAL", "SYSTEMATIC", "STRATIFIED"})
    void shippedObjectsSerializeWithoutChangingTheCounts(ResamplingScheme scheme) throws Exception {
        double[] lw = logWeights(9);
        List<BlockSummary> all = new ArrayList<>();
        for (int b = 0; b < blocks(); b++) {
            all.add(BlockSummary.of(b, new double[0], lw, b * BLOCK, Math.min(N, (b + 1) * BLOCK), 0, new double[BLOCK]));
        }
        GlobalWeights g = GlobalWeights.of(0, all);
        ResamplingDraw draw = scheme.draw(N, new RandomStreams(4), 0);
        int[] before = new int[N];
        int[] after = new int[N];
        GlobalWeights g2 = roundTrip(g);
        ResamplingDraw d2 = roundTrip(draw);
        for (int b = 0; b < blocks(); b++) {
            int from = b * BLOCK;
            int to = Math.min(N, from + BLOCK);
            OffsetResampling.offspring(lw, from, to, b, g, draw, before, from);
            OffsetResampling.offspring(lw, from, to, b, g2, d2, after, from);
        }
        assertArrayEquals(before, after);
        for (Class<?> c : SmcClasses.shipped()) {
            assertEquals(true, java.io.Serializable.class.isAssignableFrom(c), c + " is not serializable");
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> T roundTrip(T object) throws Exception {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
            out.writeObject(object);
        }
        try (java.io.ObjectInputStream in = new java.io.ObjectInputStream(
                new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
            return (T) in.readObject();
        }
    }
}
