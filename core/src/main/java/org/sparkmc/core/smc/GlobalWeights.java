package org.sparkmc.core.smc;

import java.io.Serializable;
import java.util.List;

/**
 * The global view of the weighted particles at one time step, folded from {@link BlockSummary block summaries}
 * in block order (so the result does not depend on how blocks are spread over partitions): log Σ_i r^i, the ESS
 * (Σ r)² / Σ r², the weighted mean and variance of each state component (block moments merged with Chan, Golub
 * &amp; LeVeque's pairwise formula), and the cumulative-weight offsets that {@link OffsetResampling} needs.
 *
 * <p>Offsets: with M the largest log-weight, block b's weights are scaled by s_b = exp(m_b − M) and block b
 * starts at O_b = Σ_{b' &lt; b} T_{b'} s_{b'} (summed in block order), the total being S = O_B. A driver
 * computes this once and ships it (a few doubles per block) to the partitions.
 */
public final class GlobalWeights implements Serializable {
    private static final long serialVersionUID = 1L;

    private long particles;
    private double maxLogWeight;
    private double logSum;
    private double ess;
    private double[] mean;
    private double[] variance;
    private double[] blockMax;
    private double[] scale;
    private double[] offset;

    /** For serialization frameworks only. */
    public GlobalWeights() {
    }

    /**
     * Folds the summaries of all blocks, which must be given in block order 0, 1, …, B−1.
     *
     * @param step the time step, named in the exception if the weights collapsed
     * @throws WeightCollapseException if every log-weight is −∞, or a block's maximum is NaN or +∞
     */
    public static GlobalWeights of(int step, List<BlockSummary> blocks) {
        int nb = blocks.size();
        if (nb == 0) {
            throw new IllegalArgumentException("no blocks");
        }
        int dim = blocks.get(0).meanView().length;
        long n = 0;
        double runMax = Double.NEGATIVE_INFINITY;
        double runW = 0;
        double runW2 = 0;
        double[] mean = new double[dim];
        double[] m2 = new double[dim];
        double[] blockMax = new double[nb];
        for (int b = 0; b < nb; b++) {
            BlockSummary s = blocks.get(b);
            if (s.block() != b) {
                throw new IllegalArgumentException("block summaries out of order: position " + b + " holds block "
                        + s.block());
            }
            if (!(s.maxLogWeight() < Double.POSITIVE_INFINITY)) { // NaN or +∞ (a block of BlockSummary.nonFinite)
                throw WeightCollapseException.nonFinite(step, b, s.maxLogWeight());
            }
            n += s.count();
            blockMax[b] = s.maxLogWeight();
            if (s.maxLogWeight() == Double.NEGATIVE_INFINITY) {
                continue;
            }
            double newMax = Math.max(runMax, s.maxLogWeight());
            double a = runMax == Double.NEGATIVE_INFINITY ? 0 : Math.exp(runMax - newMax);
            double c = Math.exp(s.maxLogWeight() - newMax);
            double wa = runW * a;
            double wb = s.sumWeights() * c;
            double w = wa + wb;
            double[] mb = s.meanView();
            double[] ssd = s.ssdView();
            for (int d = 0; d < dim; d++) {
                if (wa == 0) {
                    mean[d] = mb[d];
                    m2[d] = ssd[d] * c;
                } else {
                    double delta = mb[d] - mean[d];
                    mean[d] += delta * (wb / w);
                    m2[d] = m2[d] * a + ssd[d] * c + delta * delta * (wa * wb / w);
                }
            }
            runW2 = runW2 * a * a + s.sumSquaredWeights() * c * c;
            runW = w;
            runMax = newMax;
        }
        if (runMax == Double.NEGATIVE_INFINITY) {
            throw new WeightCollapseException(step, n);
        }
        GlobalWeights g = new GlobalWeights();
        g.particles = n;
        g.maxLogWeight = runMax;
        g.logSum = runMax + Math.log(runW);
        g.ess = runW * runW / runW2;
        g.mean = mean;
        g.variance = new double[dim];
        for (int d = 0; d < dim; d++) {
            g.variance[d] = m2[d] / runW;
        }
        g.blockMax = blockMax;
        g.scale = new double[nb];
        g.offset = new double[nb + 1];
        for (int b = 0; b < nb; b++) {
            g.scale[b] = blockMax[b] == Double.NEGATIVE_INFINITY ? 0 : Math.exp(blockMax[b] - runMax);
            g.offset[b + 1] = g.offset[b] + blocks.get(b).sumWeights() * g.scale[b];
        }
        return g;
    }

    /** Total number of particles N. */
    public long particles() {
        return particles;
    }

    public int blocks() {
        return scale.length;
    }

    /** M = max_i lw_i. */
    public double maxLogWeight() {
        return maxLogWeight;
    }

    /** log Σ_i exp(lw_i). */
    public double logSum() {
        return logSum;
    }

    /** Effective sample size (Σ r)² / Σ r², in [1, N]. */
    public double ess() {
        return ess;
    }

    /** Weighted mean of each state component. */
    public double[] mean() {
        return mean.clone();
    }

    /** Weighted variance Σ W (x − mean)² of each state component. */
    public double[] variance() {
        return variance.clone();
    }

    /** m_b, block b's largest log-weight. */
    public double blockMax(int b) {
        return blockMax[b];
    }

    /** s_b = exp(m_b − M). */
    public double scale(int b) {
        return scale[b];
    }

    /** O_b, the cumulative (scaled) weight before block b; O_B = total. */
    public double offset(int b) {
        return offset[b];
    }

    /** S = O_B, the total of the scaled weights used for resampling. */
    public double total() {
        return offset[offset.length - 1];
    }
}
