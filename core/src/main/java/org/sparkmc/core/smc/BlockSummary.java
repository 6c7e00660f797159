package org.sparkmc.core.smc;

import java.io.Serializable;
import java.util.Arrays;

/**
 * What one block of particles contributes to the global picture after weighting: its maximum log-weight m, the
 * sum T = Σ exp(lw_i − m) accumulated in index order, Σ exp(2(lw_i − m)) for the ESS, and per state component the
 * weighted mean and weighted sum of squared deviations (two passes within the block, for accuracy).
 *
 * <p>A partition sends one summary per block it owns to the driver; {@link GlobalWeights#of} folds them in block
 * order. T is computed by exactly the loop {@link OffsetResampling} repeats, so cumulative weights telescope
 * exactly across blocks.
 */
public final class BlockSummary implements Serializable {
    private static final long serialVersionUID = 1L;

    private int block;
    private int count;
    private double maxLogWeight;
    private double sumWeights;
    private double sumSquaredWeights;
    private double[] mean;
    private double[] sumSquaredDeviations;

    /** For serialization frameworks only. */
    public BlockSummary() {
    }

    BlockSummary(int block, int count, double maxLogWeight, double sumWeights, double sumSquaredWeights,
            double[] mean, double[] sumSquaredDeviations) {
        this.block = block;
        this.count = count;
        this.maxLogWeight = maxLogWeight;
        this.sumWeights = sumWeights;
        this.sumSquaredWeights = sumSquaredWeights;
        this.mean = mean;
        this.sumSquaredDeviations = sumSquaredDeviations;
    }

    /**
     * The summary whose accessors return these values: one read back from its parts (a relay frame). The arrays are
     * kept, not copied.
     *
     * @throws IllegalArgumentException if the mean and the squared deviations differ in length
     */
    public static BlockSummary ofParts(int block, int count, double maxLogWeight, double sumWeights,
            double sumSquaredWeights, double[] mean, double[] sumSquaredDeviations) {
        if (mean.length != sumSquaredDeviations.length) {
            throw new IllegalArgumentException("block " + block + ": a mean of " + mean.length
                    + " components with squared deviations of " + sumSquaredDeviations.length);
        }
        return new BlockSummary(block, count, maxLogWeight, sumWeights, sumSquaredWeights, mean,
                sumSquaredDeviations);
    }

    /**
     * Summarises particles [from, to) of arrays holding d-dimensional states.
     *
     * @param block the block's global index (for ordering and for error messages)
     * @param scratch at least {@code to − from} doubles of working space (overwritten)
     * @throws IllegalStateException if a log-weight is NaN or +∞ (a model bug)
     */
    public static BlockSummary of(int block, double[] states, double[] logWeights, int from, int to, int dimension,
            double[] scratch) {
        if (to <= from) {
            throw new IllegalArgumentException("empty block " + block + ": [" + from + ", " + to + ")");
        }
        double max = Double.NEGATIVE_INFINITY;
        for (int i = from; i < to; i++) {
            double lw = logWeights[i];
            if (!(lw < Double.POSITIVE_INFINITY)) {
                throw invalid(block, i, lw);
            }
            if (lw > max) {
                max = lw;
            }
        }
        return of(block, states, logWeights, from, to, dimension, scratch, max);
    }

    private static IllegalStateException invalid(int block, int particle, double logWeight) {
        return new IllegalStateException("log-weight " + logWeight + " for particle " + particle + " of block "
                + block + ": the model's log-density returned NaN or +∞");
    }

    /**
     * The summary of a block in which a particle has the log-weight {@code logWeight}, NaN or +∞: it carries that as
     * its maximum, for {@link GlobalWeights#of} to refuse naming the step and the block.
     */
    static BlockSummary nonFinite(int block, int count, double logWeight, int dimension) {
        return new BlockSummary(block, count, logWeight, 0, 0, new double[dimension], new double[dimension]);
    }

    /** As {@link #of} with the block's maximum log-weight already known (and every log-weight checked). */
    static BlockSummary of(int block, double[] states, double[] logWeights, int from, int to, int dimension,
            double[] scratch, double max) {
        double[] mean = new double[dimension];
        double[] ssd = new double[dimension];
        if (max == Double.NEGATIVE_INFINITY) {
            return new BlockSummary(block, to - from, max, 0, 0, mean, ssd);
        }
        double sum = 0;
        double sumSq = 0;
        for (int i = from; i < to; i++) {
            double w = Math.exp(logWeights[i] - max);
            scratch[i - from] = w;
            sum += w;
            sumSq += w * w;
            int base = i * dimension;
            for (int d = 0; d < dimension; d++) {
                mean[d] += w * states[base + d];
            }
        }
        for (int d = 0; d < dimension; d++) {
            mean[d] /= sum;
        }
        for (int i = from; i < to; i++) {
            double w = scratch[i - from];
            int base = i * dimension;
            for (int d = 0; d < dimension; d++) {
                double dev = states[base + d] - mean[d];
                ssd[d] += w * dev * dev;
            }
        }
        return new BlockSummary(block, to - from, max, sum, sumSq, mean, ssd);
    }

    public int block() {
        return block;
    }

    public int count() {
        return count;
    }

    public double maxLogWeight() {
        return maxLogWeight;
    }

    /** Σ exp(lw_i − m), summed in index order from 0. */
    public double sumWeights() {
        return sumWeights;
    }

    public double sumSquaredWeights() {
        return sumSquaredWeights;
    }

    public double[] mean() {
        return mean.clone();
    }

    public double[] sumSquaredDeviations() {
        return sumSquaredDeviations.clone();
    }

    double[] meanView() {
        return mean;
    }

    double[] ssdView() {
        return sumSquaredDeviations;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BlockSummary s && block == s.block && count == s.count
                && Double.compare(maxLogWeight, s.maxLogWeight) == 0 && Double.compare(sumWeights, s.sumWeights) == 0
                && Double.compare(sumSquaredWeights, s.sumSquaredWeights) == 0 && Arrays.equals(mean, s.mean)
                && Arrays.equals(sumSquaredDeviations, s.sumSquaredDeviations);
    }

    @Override
    public int hashCode() {
        return 31 * block + Double.hashCode(sumWeights);
    }

    @Override
    public String toString() {
        return "BlockSummary[block=" + block + ", count=" + count + ", max=" + maxLogWeight + ", sum=" + sumWeights
                + "]";
    }
}
