package org.sparkmc.core.lda;

import org.apache.commons.rng.UniformRandomProvider;
import org.sparkmc.core.random.RandomStreams;

/**
 * Held-out evaluation by document completion (Wallach, Murray, Salakhutdinov &amp; Mimno 2009, §4): with the topics
 * fixed at φ_{k,w} = (n_{k,w} + β)/(n_k + Wβ) from the training counts, each held-out document's tokens are split at
 * random into an observed half (⌊L/2⌋ tokens) and a scored half (the other ⌈L/2⌉); θ_d is estimated from the observed
 * half by Gibbs sampling its topics given φ (p(z = k) ∝ φ_{k,w} (n_{d,k} + α)), and the scored half gets
 * log p(w) = log Σ_k θ_{d,k} φ_{k,w}. Perplexity = exp(−Σ log p(w) / N_scored).
 *
 * <p>Fold-in: topics start uniform at random, {@code burnIn} sweeps are discarded, and θ_d is the average over the
 * next {@code samples} sweeps of (n_{d,k} + α)/(L_obs + Kα). Each document's split and fold-in use the stream
 * {@code ("lda-completion", docId)}, so a document's score does not depend on which others are evaluated with it.
 */
public final class DocumentCompletion {
    /** Stream purpose of a held-out document's split and fold-in. */
    public static final String STREAM = "lda-completion";

    private final int burnIn;
    private final int samples;

    private DocumentCompletion(int burnIn, int samples) {
        this.burnIn = burnIn;
        this.samples = samples;
    }

    /**
     * @param burnIn fold-in sweeps discarded (≥ 0)
     * @param samples fold-in sweeps whose θ estimates are averaged (≥ 1)
     */
    public static DocumentCompletion of(int burnIn, int samples) {
        if (burnIn < 0 || samples < 1) {
            throw new IllegalArgumentException("need burnIn >= 0 and samples >= 1, got " + burnIn + ", " + samples);
        }
        return new DocumentCompletion(burnIn, samples);
    }

    /** The protocol used in the benchmarks: 50 burn-in sweeps, then θ averaged over 50 sweeps. */
    public static DocumentCompletion standard() {
        return of(50, 50);
    }

    /**
     * Result of an evaluation.
     *
     * @param perplexity exp(−logLikelihood / scoredTokens)
     * @param logLikelihood Σ log p(w) over the scored tokens
     * @param scoredTokens N_scored
     * @param documents the held-out documents evaluated
     */
    public record Result(double perplexity, double logLikelihood, long scoredTokens, int documents) {
    }

    /** Scores {@code heldOut} against topics estimated from {@code training} counts. */
    public Result evaluate(TopicWordCounts training, LdaPriors priors, Corpus heldOut, RandomStreams streams) {
        if (training.numTopics() != priors.numTopics() || training.vocabularySize() != heldOut.vocabularySize()) {
            throw new IllegalArgumentException("counts, priors and held-out corpus disagree on K or W");
        }
        int k = priors.numTopics();
        int v = training.vocabularySize();
        double alpha = priors.alpha();
        double beta = priors.beta();
        double[] invDen = new double[k];
        for (int t = 0; t < k; t++) {
            invDen[t] = 1.0 / (training.topicTotal(t) + v * beta);
        }
        int[] rowStarts = training.rowStarts();
        int[] entries = training.entries();
        int bits = training.topicBits();
        int mask = (1 << bits) - 1;
        int[] localIndex = new int[v];
        java.util.Arrays.fill(localIndex, -1);
        double[] cumulative = new double[k];
        double[] theta = new double[k];
        int[] nd = new int[k];
        double logLik = 0;
        long scored = 0;
        for (int d = 0; d < heldOut.numDocuments(); d++) {
            int from = heldOut.docStart(d);
            int len = heldOut.docLength(d);
            UniformRandomProvider rng = streams.stream(STREAM, heldOut.docId(d));
            // φ rows of the document's distinct words.
            int[] distinct = new int[len];
            int nDistinct = 0;
            int[] local = new int[len];
            for (int i = 0; i < len; i++) {
                int w = heldOut.word(from + i);
                if (localIndex[w] < 0) {
                    localIndex[w] = nDistinct;
                    distinct[nDistinct++] = w;
                }
                local[i] = localIndex[w];
            }
            double[] phi = new double[nDistinct * k];
            for (int j = 0; j < nDistinct; j++) {
                int w = distinct[j];
                localIndex[w] = -1;
                for (int t = 0; t < k; t++) {
                    phi[j * k + t] = beta * invDen[t];
                }
                for (int e = rowStarts[w]; e < rowStarts[w + 1]; e++) {
                    int t = entries[e] & mask;
                    phi[j * k + t] = ((entries[e] >>> bits) + beta) * invDen[t];
                }
            }
            // Random split: a Fisher–Yates shuffle of positions; the first ⌊L/2⌋ are observed.
            int[] order = new int[len];
            for (int i = 0; i < len; i++) {
                order[i] = i;
            }
            for (int i = len - 1; i > 0; i--) {
                int j = rng.nextInt(i + 1);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
            int observed = len / 2;
            int[] z = new int[observed];
            java.util.Arrays.fill(nd, 0);
            java.util.Arrays.fill(theta, 0);
            for (int i = 0; i < observed; i++) {
                z[i] = rng.nextInt(k);
                nd[z[i]]++;
            }
            for (int sweep = 0; sweep < burnIn + samples; sweep++) {
                for (int i = 0; i < observed; i++) {
                    int row = local[order[i]] * k;
                    nd[z[i]]--;
                    double sum = 0;
                    for (int t = 0; t < k; t++) {
                        sum += phi[row + t] * (nd[t] + alpha);
                        cumulative[t] = sum;
                    }
                    double u = rng.nextDouble() * sum;
                    int t = 0;
                    while (t < k - 1 && cumulative[t] <= u) {
                        t++;
                    }
                    z[i] = t;
                    nd[t]++;
                }
                if (sweep >= burnIn) {
                    double norm = 1.0 / (observed + k * alpha);
                    for (int t = 0; t < k; t++) {
                        theta[t] += (nd[t] + alpha) * norm;
                    }
                }
            }
            for (int t = 0; t < k; t++) {
                theta[t] /= samples;
            }
            for (int i = observed; i < len; i++) {
                int row = local[order[i]] * k;
                double p = 0;
                for (int t = 0; t < k; t++) {
                    p += theta[t] * phi[row + t];
                }
                logLik += Math.log(p);
                scored++;
            }
        }
        return new Result(Math.exp(-logLik / scored), logLik, scored, heldOut.numDocuments());
    }
}
