package org.sparkmc.core.lda;

import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * Document–topic proportions θ_d for a document given fixed topics φ_{k,w} = (n_{k,w} + β)/(n_k + Wβ) from trained
 * counts, by Gibbs sampling the document's topics alone ("fold-in": p(z = k) ∝ φ_{k,w} (n_{d,k} + α); Griffiths &amp;
 * Steyvers 2004, Wallach et al. 2009). Topics start uniform at random; after {@code burnIn} sweeps, θ_d is the mean
 * over {@code samples} sweeps of (n_{d,k} + α)/(n_d + Kα). O(K) per token and sweep. What a Spark ML model's
 * {@code transform} and the held-out evaluation call per document; the caller supplies the stream (keyed by the
 * document, so the result does not depend on partitioning). Not thread-safe (scratch arrays); cheap to create.
 *
 * <p>{@link #ofPhi} takes the topics as an explicit W×K matrix instead (e.g. another library's fitted topics, such
 * as Spark MLlib's {@code topicsMatrix} normalised per topic), so every model is scored by the same fold-in.
 */
public final class TopicInference {
    private final TopicWordCounts counts;
    /** Explicit topics, word-major ({@code phi[w * K + k]}), or null when they come from {@link #counts}. */
    private final double[] densePhi;
    private final int numTopics;
    private final double alpha;
    private final double beta;
    private final double[] invDenominator;
    private final int burnIn;
    private final int samples;
    // Scratch for a row of the counts: its topics and counts.
    private final int[] rowTopics;
    private final int[] rowCounts;
    private double[] phiRows = new double[0];
    private final int[] rowOf;
    private final int[] documentCounts;
    private final double[] cumulative;

    private TopicInference(TopicWordCounts counts, LdaPriors priors, int burnIn, int samples) {
        this.counts = counts;
        this.densePhi = null;
        this.numTopics = priors.numTopics();
        this.alpha = priors.alpha();
        this.beta = priors.beta();
        this.burnIn = burnIn;
        this.samples = samples;
        this.rowTopics = new int[numTopics];
        this.rowCounts = new int[numTopics];
        this.invDenominator = new double[numTopics];
        for (int k = 0; k < numTopics; k++) {
            invDenominator[k] = 1.0 / (counts.topicTotal(k) + counts.vocabularySize() * beta);
        }
        this.rowOf = new int[counts.vocabularySize()];
        Arrays.fill(rowOf, -1);
        this.documentCounts = new int[numTopics];
        this.cumulative = new double[numTopics];
    }

    private TopicInference(double[] phi, int numTopics, int vocabularySize, double alpha, int burnIn, int samples) {
        this.counts = null;
        this.densePhi = phi;
        this.numTopics = numTopics;
        this.alpha = alpha;
        this.beta = 0;
        this.burnIn = burnIn;
        this.samples = samples;
        this.rowTopics = null;
        this.rowCounts = null;
        this.invDenominator = null;
        this.rowOf = new int[vocabularySize];
        Arrays.fill(rowOf, -1);
        this.documentCounts = new int[numTopics];
        this.cumulative = new double[numTopics];
    }

    /**
     * @param burnIn fold-in sweeps discarded (≥ 0)
     * @param samples sweeps whose θ estimates are averaged (≥ 1)
     */
    public static TopicInference of(TopicWordCounts counts, LdaPriors priors, int burnIn, int samples) {
        if (counts.numTopics() != priors.numTopics()) {
            throw new IllegalArgumentException("counts for K=" + counts.numTopics() + ", priors for K="
                    + priors.numTopics());
        }
        if (burnIn < 0 || samples < 1) {
            throw new IllegalArgumentException("need burnIn >= 0 and samples >= 1, got " + burnIn + ", " + samples);
        }
        return new TopicInference(counts, priors, burnIn, samples);
    }

    /**
     * Fold-in against explicit topics.
     *
     * @param phi word-major topics, {@code phi[w * K + k]} = φ_{k,w}: finite, non-negative, each topic summing to 1
     *     over the W words (within 10^-6); not copied, not modified
     * @param numTopics K (W = phi.length / K)
     * @param alpha the document–topic concentration used in the fold-in (&gt; 0)
     * @param burnIn fold-in sweeps discarded (≥ 0)
     * @param samples sweeps whose θ estimates are averaged (≥ 1)
     */
    public static TopicInference ofPhi(double[] phi, int numTopics, double alpha, int burnIn, int samples) {
        if (numTopics < 1 || phi.length == 0 || phi.length % numTopics != 0) {
            throw new IllegalArgumentException("phi of length " + phi.length + " is not W·K for K=" + numTopics);
        }
        if (!(alpha > 0) || Double.isInfinite(alpha)) {
            throw new IllegalArgumentException("alpha must be positive and finite, is " + alpha);
        }
        if (burnIn < 0 || samples < 1) {
            throw new IllegalArgumentException("need burnIn >= 0 and samples >= 1, got " + burnIn + ", " + samples);
        }
        int w = phi.length / numTopics;
        double[] sums = new double[numTopics];
        for (int i = 0; i < phi.length; i++) {
            double v = phi[i];
            if (!(v >= 0) || Double.isInfinite(v)) {
                throw new IllegalArgumentException("phi[" + i + "] (word " + i / numTopics + ", topic "
                        + i % numTopics + ") is " + v + "; expected a finite probability");
            }
            sums[i % numTopics] += v;
        }
        for (int k = 0; k < numTopics; k++) {
            if (Math.abs(sums[k] - 1) > 1e-6) {
                throw new IllegalArgumentException("topic " + k + " sums to " + sums[k] + " over the " + w
                        + " words; expected 1");
            }
        }
        return new TopicInference(phi, numTopics, w, alpha, burnIn, samples);
    }

    /** W, the vocabulary size of the topics. */
    public int vocabularySize() {
        return rowOf.length;
    }

    /** α, the document–topic concentration of the fold-in. */
    public double alpha() {
        return alpha;
    }

    /** K. */
    public int numTopics() {
        return numTopics;
    }

    /** φ_{k,w}. */
    public double phi(int word, int topic) {
        if (densePhi != null) {
            return densePhi[word * numTopics + topic];
        }
        return (counts.count(word, topic) + beta) * invDenominator[topic];
    }

    /** Fills {@code out[0..K)} with φ_{·,w}. */
    public void phiRow(int word, double[] out, int offset) {
        if (densePhi != null) {
            System.arraycopy(densePhi, word * numTopics, out, offset, numTopics);
            return;
        }
        for (int k = 0; k < numTopics; k++) {
            out[offset + k] = beta * invDenominator[k];
        }
        int n = counts.row(word, rowTopics, rowCounts);
        for (int e = 0; e < n; e++) {
            int k = rowTopics[e];
            out[offset + k] = (rowCounts[e] + beta) * invDenominator[k];
        }
    }

    /** θ for a document whose tokens are {@code words[0..n)} (word ids; n may be 0, giving the uniform prior mean). */
    public double[] theta(int[] words, int n, UniformRandomProvider rng) {
        int[] local = new int[n];
        double[] rows = documentRows(words, 0, n, local);
        int[] z = new int[n];
        int[] nd = documentCounts;
        Arrays.fill(nd, 0);
        for (int i = 0; i < n; i++) {
            z[i] = rng.nextInt(numTopics);
            nd[z[i]]++;
        }
        double[] theta = new double[numTopics];
        double norm = 1.0 / (n + numTopics * alpha);
        for (int sweep = 0; sweep < burnIn + samples; sweep++) {
            gibbsSweep(nd, 0, z, 0, n, rows, local, alpha, cumulative, rng);
            if (sweep >= burnIn) {
                for (int k = 0; k < numTopics; k++) {
                    theta[k] += (nd[k] + alpha) * norm;
                }
            }
        }
        for (int k = 0; k < numTopics; k++) {
            theta[k] /= samples;
        }
        return theta;
    }

    /**
     * The φ rows of the distinct words of {@code words[from..from+n)}, one copy each, in a scratch block of this
     * instance (valid until the next call); {@code rowAt[i]} receives the offset of token i's row.
     */
    double[] documentRows(int[] words, int from, int n, int[] rowAt) {
        int distinct = 0;
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            int w = words[from + i];
            if (rowOf[w] < 0) {
                rowOf[w] = distinct;
                order[distinct++] = w;
            }
            rowAt[i] = rowOf[w] * numTopics;
        }
        if (phiRows.length < distinct * numTopics) {
            phiRows = new double[Math.max(distinct * numTopics, 2 * phiRows.length)];
        }
        for (int j = 0; j < distinct; j++) {
            phiRow(order[j], phiRows, j * numTopics);
            rowOf[order[j]] = -1;
        }
        return phiRows;
    }

    /**
     * One systematic-scan Gibbs sweep over topics z[zBase..zBase+n) whose counts are counts[base..base+K): token i
     * (φ row at rows[rowAt[i]..]) is redrawn from p(z_i = k | z_{−i}) ∝ φ_{k,w_i} (n_k^{−i} + α), which leaves
     * p(z | w, φ, α) invariant.
     */
    static void gibbsSweep(int[] counts, int base, int[] z, int zBase, int n, double[] rows, int[] rowAt, double alpha,
            double[] cumulative, UniformRandomProvider rng) {
        int k = cumulative.length;
        for (int i = 0; i < n; i++) {
            counts[base + z[zBase + i]]--;
            double sum = 0;
            for (int t = 0; t < k; t++) {
                sum += rows[rowAt[i] + t] * (counts[base + t] + alpha);
                cumulative[t] = sum;
            }
            int t = draw(cumulative, sum, rng);
            counts[base + t]++;
            z[zBase + i] = t;
        }
    }

    /** The index drawn with probability ∝ the increments of {@code cumulative} (total {@code sum}). */
    static int draw(double[] cumulative, double sum, UniformRandomProvider rng) {
        double u = rng.nextDouble() * sum;
        int t = 0;
        while (t < cumulative.length - 1 && cumulative[t] <= u) {
            t++;
        }
        return t;
    }
}
