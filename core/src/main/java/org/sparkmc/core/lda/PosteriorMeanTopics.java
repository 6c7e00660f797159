package org.sparkmc.core.lda;

/**
 * The posterior-mean topics of a collapsed Gibbs run: φ̄_{k,w} = (1/S) Σ_s (n^s_{k,w} + β)/(n^s_k + Wβ), the average
 * over S saved states of each state's predictive topic–word distribution (Griffiths &amp; Steyvers 2004 average
 * over samples; Newman et al. 2009 score AD-LDA this way). Averaging removes much of one state's sampling noise
 * from the estimate, so held-out scores compare runs by their models rather than by their last sweep.
 *
 * <p>Kept dense, word-major ({@code phi[w * K + k]}, as {@link DocumentCompletion#evaluate(double[], int, double,
 * Corpus, org.sparkmc.core.random.RandomStreams)} takes it): 8·W·K bytes. Not thread-safe.
 */
public final class PosteriorMeanTopics {
    private final int numTopics;
    private final int vocabularySize;
    private final double beta;
    // Σ_s n^s_{k,w}/(n^s_k + Wβ) per cell, and Σ_s β/(n^s_k + Wβ) per topic (the same for every word).
    private final double[] sum;
    private final double[] smoothing;
    private int samples;

    private PosteriorMeanTopics(int numTopics, int vocabularySize, double beta) {
        this.numTopics = numTopics;
        this.vocabularySize = vocabularySize;
        this.beta = beta;
        this.sum = new double[Math.multiplyExact(numTopics, vocabularySize)];
        this.smoothing = new double[numTopics];
    }

    /** An empty average for K topics over W words with topic–word prior β. */
    public static PosteriorMeanTopics of(int numTopics, int vocabularySize, double beta) {
        if (numTopics < 1 || vocabularySize < 1 || !(beta > 0) || Double.isInfinite(beta)) {
            throw new IllegalArgumentException("need K >= 1, W >= 1 and a finite beta > 0, got K=" + numTopics
                    + ", W=" + vocabularySize + ", beta=" + beta);
        }
        return new PosteriorMeanTopics(numTopics, vocabularySize, beta);
    }

    /** Adds one state's φ: every cell gets β/(n_k + Wβ), non-zero cells also n_{k,w}/(n_k + Wβ). */
    public void add(TopicWordCounts counts) {
        counts.requireShape(numTopics, vocabularySize, "this average");
        double[] inv = new double[numTopics];
        for (int k = 0; k < numTopics; k++) {
            inv[k] = 1.0 / (counts.topicTotal(k) + vocabularySize * beta);
            smoothing[k] += beta * inv[k];
        }
        int[] topics = new int[numTopics];
        int[] cells = new int[numTopics];
        for (int w = 0; w < vocabularySize; w++) {
            int n = counts.row(w, topics, cells);
            for (int e = 0; e < n; e++) {
                int k = topics[e];
                sum[w * numTopics + k] += cells[e] * inv[k];
            }
        }
        samples++;
    }

    /** The number of states averaged so far. */
    public int samples() {
        return samples;
    }

    /** φ̄ word-major, {@code [w * K + k]}: each topic sums to 1 over the words. A fresh array. */
    public double[] phi() {
        if (samples == 0) {
            throw new IllegalStateException("no state has been added");
        }
        double[] phi = new double[sum.length];
        for (int i = 0; i < phi.length; i++) {
            phi[i] = (sum[i] + smoothing[i % numTopics]) / samples;
        }
        return phi;
    }

    public int numTopics() {
        return numTopics;
    }
}
