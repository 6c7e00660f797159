package org.sparkmc.core.lda;

import java.io.Serializable;
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
public final class DocumentCompletion implements Serializable {
    private static final long serialVersionUID = 1L;
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
    public record Result(double perplexity, double logLikelihood, long scoredTokens, int documents)
            implements Serializable {
    }

    /** Scores {@code heldOut} against topics estimated from {@code training} counts. */
    public Result evaluate(TopicWordCounts training, LdaPriors priors, Corpus heldOut, RandomStreams streams) {
        if (training.numTopics() != priors.numTopics() || training.vocabularySize() != heldOut.vocabularySize()) {
            throw new IllegalArgumentException("counts, priors and held-out corpus disagree on K or W");
        }
        return evaluate(TopicInference.of(training, priors, burnIn, samples), heldOut, streams);
    }

    /**
     * Scores {@code heldOut} against explicit topics (e.g. another library's fitted model): {@code phi[w * K + k]} =
     * φ_{k,w}, each topic a distribution over the W words; the fold-in uses the symmetric prior α. Same split,
     * streams and fold-in as {@link #evaluate(TopicWordCounts, LdaPriors, Corpus, RandomStreams)}, so the two agree
     * exactly when φ is the counts' (n_{k,w} + β)/(n_k + Wβ).
     */
    public Result evaluate(double[] phi, int numTopics, double alpha, Corpus heldOut, RandomStreams streams) {
        TopicInference inference = TopicInference.ofPhi(phi, numTopics, alpha, burnIn, samples);
        if (inference.vocabularySize() != heldOut.vocabularySize()) {
            throw new IllegalArgumentException("topics over " + inference.vocabularySize() + " words, held-out corpus"
                    + " over " + heldOut.vocabularySize());
        }
        return evaluate(inference, heldOut, streams);
    }

    private static Result evaluate(TopicInference inference, Corpus heldOut, RandomStreams streams) {
        int k = inference.numTopics();
        double[] phi = new double[k];
        double logLik = 0;
        long scored = 0;
        for (int d = 0; d < heldOut.numDocuments(); d++) {
            int from = heldOut.docStart(d);
            int len = heldOut.docLength(d);
            UniformRandomProvider rng = streams.stream(STREAM, heldOut.docId(d));
            // Random split: a Fisher–Yates shuffle of the document's words; the first ⌊L/2⌋ are observed.
            int[] shuffled = new int[len];
            for (int i = 0; i < len; i++) {
                shuffled[i] = heldOut.word(from + i);
            }
            for (int i = len - 1; i > 0; i--) {
                int j = rng.nextInt(i + 1);
                int t = shuffled[i];
                shuffled[i] = shuffled[j];
                shuffled[j] = t;
            }
            int observed = len / 2;
            double[] theta = inference.theta(shuffled, observed, rng);
            for (int i = observed; i < len; i++) {
                inference.phiRow(shuffled[i], phi, 0);
                double p = 0;
                for (int t = 0; t < k; t++) {
                    p += theta[t] * phi[t];
                }
                logLik += Math.log(p);
                scored++;
            }
        }
        return new Result(Math.exp(-logLik / scored), logLik, scored, heldOut.numDocuments());
    }
}
