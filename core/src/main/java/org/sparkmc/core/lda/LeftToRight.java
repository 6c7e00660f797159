package org.sparkmc.core.lda;

import java.io.Serializable;
import org.apache.commons.rng.UniformRandomProvider;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.smc.LogWeights;
import org.sparkmc.core.smc.Resampling;
import org.sparkmc.core.smc.ResamplingScheme;

/**
 * Held-out likelihood of whole documents, p(w_d | φ, α) = ∫ Π_i Σ_k θ_k φ_{k,w_i} Dir(θ; α) dθ, by the left-to-right
 * estimator of Wallach, Murray, Salakhutdinov &amp; Mimno (2009, §4.3) run as a particle filter: R particles each
 * carry topics for the tokens so far; at token n every particle is weighted by
 * p(w_n | z_{&lt;n}) = Σ_k φ_{k,w_n} (n_k + α)/(n + Kα) and then draws z_n ∝ φ_{k,w_n} (n_k + α). The estimate of
 * p(w_d) is the average over particles of the product of their weights, with resampling (the chosen scheme) whenever
 * the effective sample size falls below R/2 — the standard SMC estimator of a normalising constant, unbiased for
 * p(w_d) for any R ≥ 1 (Del Moral 2004), which is what its tests check against exact enumeration. (Wallach et
 * al.'s listing instead averages each position's probability over unweighted particles whose earlier topics are
 * Gibbs-resampled; that average is exact only when those particles are exact posterior draws.) Optional
 * resample–move steps ({@link #of(int, ResamplingScheme, int)}) Gibbs-resample the earlier topics after each
 * resampling, keeping the estimate unbiased. E[log p̂] ≤ log p(w_d) (Jensen): the reported perplexity is pessimistic,
 * less so with more particles or moves.
 *
 * <p>Each document uses the stream {@code ("lda-left-to-right", docId)}, so its estimate does not depend on which
 * other documents are evaluated with it. Cost: O(R·K) per token, plus moves·R·K per earlier token at each resampling.
 */
public final class LeftToRight implements Serializable {
    private static final long serialVersionUID = 1L;
    /** Stream purpose of a document's particles. */
    public static final String STREAM = "lda-left-to-right";

    private final int particles;
    private final ResamplingScheme scheme;
    private final int moves;

    private LeftToRight(int particles, ResamplingScheme scheme, int moves) {
        this.particles = particles;
        this.scheme = scheme;
        this.moves = moves;
    }

    /**
     * @param particles R ≥ 1
     * @param scheme the resampling scheme used when the effective sample size falls below R/2
     */
    public static LeftToRight of(int particles, ResamplingScheme scheme) {
        return of(particles, scheme, 0);
    }

    /**
     * With resample–move steps (Gilks &amp; Berzuini 2001): after each resampling at token n, every particle's topics
     * of tokens 0..n get {@code moves} Gibbs sweeps given its other topics and φ, a move that leaves the particles'
     * target p(z_{≤n} | w_{≤n}) invariant, so the estimate stays unbiased while the particles regain diversity (what
     * Wallach et al.'s resampling of earlier tokens is for). Cost: moves · n · K per particle per resampling.
     *
     * @param moves Gibbs sweeps after each resampling (≥ 0; 0: none)
     */
    public static LeftToRight of(int particles, ResamplingScheme scheme, int moves) {
        if (particles < 1) {
            throw new IllegalArgumentException("need at least 1 particle, got " + particles);
        }
        if (moves < 0) {
            throw new IllegalArgumentException("moves must be >= 0, got " + moves);
        }
        return new LeftToRight(particles, scheme, moves);
    }

    public int particles() {
        return particles;
    }

    /**
     * Scores every document of {@code docs} against topics from {@code training} counts; the result's scored tokens
     * are all of the documents' tokens.
     */
    public DocumentCompletion.Result evaluate(TopicWordCounts training, LdaPriors priors, Corpus docs,
            RandomStreams streams) {
        if (training.numTopics() != priors.numTopics() || training.vocabularySize() != docs.vocabularySize()) {
            throw new IllegalArgumentException("counts, priors and documents disagree on K or W");
        }
        return evaluate(TopicInference.of(training, priors, 0, 1), docs, streams);
    }

    /** The same against explicit topics, {@code phi[w * K + k]} = φ_{k,w} (see {@link TopicInference#ofPhi}). */
    public DocumentCompletion.Result evaluate(double[] phi, int numTopics, double alpha, Corpus docs,
            RandomStreams streams) {
        TopicInference topics = TopicInference.ofPhi(phi, numTopics, alpha, 0, 1);
        if (topics.vocabularySize() != docs.vocabularySize()) {
            throw new IllegalArgumentException("topics over " + topics.vocabularySize() + " words, documents over "
                    + docs.vocabularySize());
        }
        return evaluate(topics, docs, streams);
    }

    private DocumentCompletion.Result evaluate(TopicInference topics, Corpus docs, RandomStreams streams) {
        double logLik = 0;
        for (int d = 0; d < docs.numDocuments(); d++) {
            logLik += logProbability(topics, docs.words(), docs.docStart(d), docs.docEnd(d),
                    streams.stream(STREAM, docs.docId(d)));
        }
        return new DocumentCompletion.Result(Math.exp(-logLik / docs.numTokens()), logLik, docs.numTokens(),
                docs.numDocuments());
    }

    /**
     * The estimate of log p(words[from..to) | φ, α) for one document (word ids), with φ and α from {@code topics},
     * drawing from {@code rng}; 0 for an empty range.
     */
    public double logProbability(TopicInference topics, int[] words, int from, int to, UniformRandomProvider rng) {
        int k = topics.numTopics();
        double alpha = topics.alpha();
        int r = particles;
        int[] counts = new int[r * k];
        int[] scratch = new int[r * k];
        double[] logWeights = new double[r];
        double[] cumulative = new double[k];
        int len = to - from;
        int[] rowAt = new int[len];
        double[] rows = topics.documentRows(words, from, len, rowAt);
        // Every particle's topics, kept only when the moves need them.
        int[] z = moves > 0 ? new int[r * len] : null;
        int[] zScratch = moves > 0 ? new int[r * len] : null;
        RandomStreams resampling = new RandomStreams(rng.nextLong());
        double logEstimate = 0;
        for (int n = 0; n < len; n++) {
            double logNorm = Math.log(n + k * alpha);
            for (int p = 0; p < r; p++) {
                int base = p * k;
                double sum = 0;
                for (int t = 0; t < k; t++) {
                    sum += rows[rowAt[n] + t] * (counts[base + t] + alpha);
                    cumulative[t] = sum;
                }
                logWeights[p] += Math.log(sum) - logNorm;
                int t = TopicInference.draw(cumulative, sum, rng);
                counts[base + t]++;
                if (z != null) {
                    z[p * len + n] = t;
                }
            }
            if (n + 1 < len && r > 1 && LogWeights.effectiveSampleSize(logWeights) < r / 2.0) {
                logEstimate += logMean(logWeights);
                int[] ancestors = Resampling.ancestors(Resampling.offspring(scheme, LogWeights.normalise(logWeights),
                        r, resampling, n));
                for (int p = 0; p < r; p++) {
                    System.arraycopy(counts, ancestors[p] * k, scratch, p * k, k);
                    if (z != null) {
                        System.arraycopy(z, ancestors[p] * len, zScratch, p * len, n + 1);
                    }
                }
                int[] swap = counts;
                counts = scratch;
                scratch = swap;
                if (z != null) {
                    swap = z;
                    z = zScratch;
                    zScratch = swap;
                    for (int p = 0; p < r; p++) {
                        move(counts, p * k, z, p * len, n + 1, rows, rowAt, alpha, cumulative, rng);
                    }
                }
                java.util.Arrays.fill(logWeights, 0);
            }
        }
        return logEstimate + logMean(logWeights);
    }

    /** {@link #moves} Gibbs sweeps over one particle's topics of tokens 0..n−1, given φ and its other topics. */
    private void move(int[] counts, int base, int[] z, int zBase, int n, double[] rows, int[] rowAt, double alpha,
            double[] cumulative, UniformRandomProvider rng) {
        for (int sweep = 0; sweep < moves; sweep++) {
            TopicInference.gibbsSweep(counts, base, z, zBase, n, rows, rowAt, alpha, cumulative, rng);
        }
    }

    /** log((1/R) Σ exp(logWeights)). */
    private static double logMean(double[] logWeights) {
        return LogWeights.logSumExp(logWeights) - Math.log(logWeights.length);
    }
}
