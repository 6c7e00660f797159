package org.sparkmc.core.lda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.function.BiFunction;
import org.apache.commons.rng.UniformRandomProvider;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.testing.ChiSquare;

/**
 * The exact collapsed posterior of a corpus small enough to enumerate, for whole-sweep tests of the LDA kernels:
 * p(z_S | z_F, w) over the K^|S| topics of the swept tokens S (all tokens, or those of a sweep's ranges), the others'
 * topics F fixed, from the closed form of the collapsed joint
 * <pre>
 *   p(w, z) ∝ Π_d Π_k (α)_{n_{d,k}}  ·  Π_k Π_w (β)_{n_{k,w}} / (Wβ)_{n_k}
 * </pre>
 * with (a)_n = a(a + 1)…(a + n − 1) the rising factorial (Γ(a + n)/Γ(a)); the documents' Γ(Kα)/Γ(N_d + Kα) and the
 * topics' Γ(Wβ)/Γ(β)^W do not depend on z. Computed here from the counts directly, not by the code under test.
 */
final class EnumeratedPosterior {
    private final Corpus corpus;
    private final LdaPriors priors;
    private final int[] ranges;
    private final char[] fixed;
    private final int[] swept;
    private final double[] probability;
    private final double[] cumulative;

    private EnumeratedPosterior(Corpus corpus, LdaPriors priors, int[] ranges, char[] fixed, int[] swept) {
        this.corpus = corpus;
        this.priors = priors;
        this.ranges = ranges;
        this.fixed = fixed;
        this.swept = swept;
        int k = priors.numTopics();
        int states = (int) Math.pow(k, swept.length);
        probability = new double[states];
        double total = 0;
        for (int code = 0; code < states; code++) {
            probability[code] = joint(assignment(code));
            total += probability[code];
        }
        cumulative = new double[states];
        double sum = 0;
        for (int code = 0; code < states; code++) {
            probability[code] /= total;
            sum += probability[code];
            cumulative[code] = sum;
        }
    }

    /**
     * The posterior of the tokens a sweep over {@code ranges} redraws (every token when it is null), the others'
     * topics fixed at {@code topics}'.
     */
    static EnumeratedPosterior of(Corpus corpus, LdaPriors priors, char[] topics, int[] ranges) {
        int[] swept = new int[corpus.numTokens()];
        int m = 0;
        for (int d = 0; d < corpus.numDocuments(); d++) {
            int to = ranges == null ? corpus.docEnd(d) : ranges[2 * d + 1];
            for (int i = ranges == null ? corpus.docStart(d) : ranges[2 * d]; i < to; i++) {
                swept[m++] = i;
            }
        }
        if (Math.pow(priors.numTopics(), m) > 1 << 16) {
            throw new IllegalArgumentException(priors.numTopics() + "^" + m + " assignments are too many to enumerate");
        }
        return new EnumeratedPosterior(corpus, priors, ranges, topics.clone(), Arrays.copyOf(swept, m));
    }

    /** Two documents, [0, 1, 0, 2] and [1, 2, 1], over 3 words: 2^7 = 128 assignments at K = 2. */
    static Corpus tinyCorpus() {
        return Corpus.of(new int[] {0, 4, 7}, new int[] {0, 1, 0, 2, 1, 2, 1}, new int[] {1, 2}, 3);
    }

    /** p(z_S = the assignment numbered {@code code} | z_F, w). */
    double probability(int code) {
        return probability[code];
    }

    /** The number of assignments of the swept tokens, K^|S|. */
    int states() {
        return probability.length;
    }

    /** The full assignment with the swept tokens' topics the base-K digits of {@code code}, lowest first. */
    char[] assignment(int code) {
        char[] z = fixed.clone();
        int k = priors.numTopics();
        for (int i : swept) {
            z[i] = (char) (code % k);
            code /= k;
        }
        return z;
    }

    /** The number of the swept tokens' assignment in {@code z}; fails if a token outside the sweep has moved. */
    int code(char[] z) {
        char[] others = z.clone();
        int code = 0;
        for (int j = swept.length - 1; j >= 0; j--) {
            code = code * priors.numTopics() + z[swept[j]];
            others[swept[j]] = fixed[swept[j]];
        }
        assertEquals(new String(fixed), new String(others), "a token outside the sweep changed its topic");
        return code;
    }

    /**
     * The samplers' sweep test on the {@link #tinyCorpus} (K = 2, α = 0.5, β = 0.3), in two cases: every token swept
     * (128 assignments), and every document but its first token (32 assignments of the other 5 given the 2 fixed).
     * In each, {@code exact}'s sweeps must keep 100,000 exact draws exact (p ≥ 0.001), and each of {@code broken}
     * must fail with 10,000 (p < 0.001). Streams from {@code seed}.
     */
    static void assertSweepsKeepItExact(BiFunction<LdaPriors, TopicWordCounts, LdaSampler> exact,
            List<BiFunction<LdaPriors, TopicWordCounts, LdaSampler>> broken, long seed) {
        LdaPriors p = new LdaPriors(2, 0.5, 0.3);
        char[] z = {0, 1, 1, 0, 1, 0, 0};
        RandomStreams streams = new RandomStreams(seed);
        for (int[] ranges : new int[][] {null, {1, 4, 5, 7}}) {
            EnumeratedPosterior posterior = of(tinyCorpus(), p, z, ranges);
            String name = ranges == null ? "whole sweep" : "sweep of ranges";
            double pValue = posterior.sweptPValue(exact, 100_000, 3, streams.stream(name));
            assertTrue(pValue >= 0.001, name + ": p = " + pValue);
            for (int b = 0; b < broken.size(); b++) {
                double wrong = posterior.sweptPValue(broken.get(b), 10_000, 3, streams.stream(name, b + 1));
                assertTrue(wrong < 0.001, name + ": broken sampler " + b + " passed, p = " + wrong);
            }
        }
    }

    /**
     * The sweep-level test: {@code draws} times, an assignment drawn exactly from the posterior, a fresh sampler on
     * its counts ({@code sampler}), {@code sweeps} sweeps (over the ranges, if any), and the assignment reached
     * tallied. The sweeps leave the posterior invariant exactly when the tally fits it: the p-value of the
     * chi-square test with the assignments expected fewer than 5 times pooled ({@link ChiSquare#pooledPValue}).
     * Each draw starts its own chain, so the tallies are independent and the p-value is uniform for a correct kernel.
     * It checks that the posterior is stationary under the sweeps, not how fast a chain from elsewhere reaches it.
     */
    double sweptPValue(BiFunction<LdaPriors, TopicWordCounts, LdaSampler> sampler, int draws, int sweeps,
            UniformRandomProvider rng) {
        long[] tally = new long[probability.length];
        for (int n = 0; n < draws; n++) {
            int code = Arrays.binarySearch(cumulative, rng.nextDouble());
            code = Math.min(code < 0 ? -code - 1 : code + 1, cumulative.length - 1);
            char[] z = assignment(code);
            LdaSampler s = sampler.apply(priors, TopicWordCounts.of(corpus, z, priors.numTopics()));
            for (int t = 0; t < sweeps; t++) {
                if (ranges == null) {
                    s.sweep(corpus, z, rng);
                } else {
                    s.sweep(corpus, z, ranges, rng);
                }
            }
            tally[code(z)]++;
        }
        return ChiSquare.pooledPValue(tally, probability);
    }

    /** The collapsed joint p(w, z) up to a factor that does not depend on z. */
    private double joint(char[] z) {
        int k = priors.numTopics();
        int v = corpus.vocabularySize();
        double p = 1;
        for (int d = 0; d < corpus.numDocuments(); d++) {
            int[] ndk = new int[k];
            for (int i = corpus.docStart(d); i < corpus.docEnd(d); i++) {
                ndk[z[i]]++;
            }
            for (int t = 0; t < k; t++) {
                p *= rising(priors.alpha(), ndk[t]);
            }
        }
        int[] nk = new int[k];
        int[] nkw = new int[k * v];
        for (int i = 0; i < corpus.numTokens(); i++) {
            nk[z[i]]++;
            nkw[z[i] * v + corpus.word(i)]++;
        }
        for (int t = 0; t < k; t++) {
            for (int w = 0; w < v; w++) {
                p *= rising(priors.beta(), nkw[t * v + w]);
            }
            p /= rising(v * priors.beta(), nk[t]);
        }
        return p;
    }

    private static double rising(double a, int n) {
        double p = 1;
        for (int j = 0; j < n; j++) {
            p *= a + j;
        }
        return p;
    }
}
