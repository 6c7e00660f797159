package org.sparkmc.core.smc;

import java.util.ArrayList;
import java.util.List;
import org.sparkmc.core.random.RandomStreams;

/**
 * Single-machine resampling: offspring counts for all particles, and ancestor indices from counts. It runs the
 * block-wise {@link OffsetResampling} over every block in turn, so a distributed job that calls
 * {@link OffsetResampling} per block gets the same counts bit for bit.
 */
public final class Resampling {
    private Resampling() {
    }

    /**
     * Offspring counts from normalised (or unnormalised, non-negative) weights, treated as one block: the
     * textbook form. The counts sum to {@code points}.
     *
     * @throws IllegalArgumentException if a weight is negative, NaN or infinite, or every weight is 0
     */
    public static int[] offspring(ResamplingScheme scheme, double[] weights, long points, RandomStreams streams,
            long step) {
        double[] logWeights = new double[weights.length];
        boolean positive = false;
        for (int i = 0; i < weights.length; i++) {
            if (!(weights[i] >= 0) || Double.isInfinite(weights[i])) {
                throw new IllegalArgumentException("weight " + i + " is " + weights[i]
                        + "; weights must be finite and non-negative");
            }
            positive |= weights[i] > 0;
            logWeights[i] = Math.log(weights[i]);
        }
        if (!positive && weights.length > 0) {
            throw new IllegalArgumentException("every weight is 0 (of " + weights.length
                    + "): there is no particle to resample");
        }
        GlobalWeights g = GlobalWeights.of((int) step,
                List.of(BlockSummary.of(0, new double[0], logWeights, 0, logWeights.length, 0,
                        new double[logWeights.length])));
        int[] counts = new int[weights.length];
        offspring(scheme, logWeights, weights.length, g, points, streams, step, counts);
        return counts;
    }

    /**
     * Offspring counts for all N particles whose log-weights were summarised by {@code g} in blocks of
     * {@code blockSize} (the last block may be shorter).
     */
    public static void offspring(ResamplingScheme scheme, double[] logWeights, int blockSize, GlobalWeights g,
            long points, RandomStreams streams, long step, int[] counts) {
        int n = logWeights.length;
        int blocks = g.blocks();
        if ((long) blocks * blockSize < n || (long) (blocks - 1) * blockSize >= n) {
            throw new IllegalArgumentException(blocks + " blocks of " + blockSize + " do not cover " + n
                    + " particles");
        }
        if (scheme == ResamplingScheme.RESIDUAL) {
            List<ResidualBlock> parts = new ArrayList<>(blocks);
            for (int b = 0; b < blocks; b++) {
                parts.add(OffsetResampling.residualBlock(logWeights, b * blockSize,
                        Math.min(n, (b + 1) * blockSize), b, g, points));
            }
            ResidualWeights r = ResidualWeights.of(points, parts);
            ResamplingDraw draw = scheme.draw(r.residualPoints(), streams, step);
            for (int b = 0; b < blocks; b++) {
                int from = b * blockSize;
                OffsetResampling.residualOffspring(logWeights, from, Math.min(n, from + blockSize), b, g, r, draw,
                        counts, from);
            }
            return;
        }
        ResamplingDraw draw = scheme.draw(points, streams, step);
        for (int b = 0; b < blocks; b++) {
            int from = b * blockSize;
            OffsetResampling.offspring(logWeights, from, Math.min(n, from + blockSize), b, g, draw, counts, from);
        }
    }

    /** Ancestor indices from offspring counts: particle i repeated counts[i] times, in index order. */
    public static int[] ancestors(int[] counts) {
        long total = 0;
        for (int c : counts) {
            if (c < 0) {
                throw new IllegalArgumentException("negative offspring count " + c);
            }
            total += c;
        }
        int[] a = new int[Math.toIntExact(total)];
        int k = 0;
        for (int i = 0; i < counts.length; i++) {
            for (int c = counts[i]; c > 0; c--) {
                a[k++] = i;
            }
        }
        return a;
    }
}
