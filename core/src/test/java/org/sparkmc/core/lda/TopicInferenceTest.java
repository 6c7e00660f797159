package org.sparkmc.core.lda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.numbers.gamma.LogGamma;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.random.RandomStreams;

class TopicInferenceTest {
    /**
     * Fold-in against enumeration: for a 4-token document and K=3 fixed topics, E[(n_{d,k} + α)/(n_d + Kα) | w]
     * under p(z | w, φ) ∝ Π_i φ_{z_i,w_i} · DirMult(z; α) is a sum over the 81 assignments. 2,000 independent fold-ins
     * (burn-in 30, 20 samples; each its own stream) must average within 4 standard errors of it (computed from the
     * 2,000 estimates) for every k: about 0.006% false failures per topic for an unbiased estimate (the burn-in
     * bias of a 30-sweep chain on these 81 states is not computed; it is assumed negligible next to the tolerance).
     * The prior mean θ = 1/K lies outside the same tolerance, so the test can fail.
     */
    @Test
    void foldInAveragesTheExactPosteriorMeanOfTheta() {
        // Training counts: 3 topics over 4 words, each topic favouring one or two words.
        int k = 3;
        int w = 4;
        int[] dense = {30, 2, 1, 1, 25, 1, 4, 3, 40, 10, 10, 2}; // [word * K + topic]
        TopicWordCounts counts = TopicWordCounts.fromDense(dense, k, w);
        LdaPriors priors = new LdaPriors(k, 0.4, 0.1);
        int[] doc = {0, 3, 1, 3};
        TopicInference inference = TopicInference.of(counts, priors, 30, 20);
        double[][] phi = new double[w][k];
        for (int v = 0; v < w; v++) {
            for (int t = 0; t < k; t++) {
                phi[v][t] = inference.phi(v, t);
            }
        }
        // Enumeration.
        double[] exact = new double[k];
        double total = 0;
        int n = doc.length;
        for (int code = 0; code < 81; code++) {
            int[] nd = new int[k];
            double logp = 0;
            int c = code;
            for (int i = 0; i < n; i++) {
                int z = c % 3;
                c /= 3;
                nd[z]++;
                logp += Math.log(phi[doc[i]][z]);
            }
            for (int t = 0; t < k; t++) {
                logp += LogGamma.value(nd[t] + priors.alpha()) - LogGamma.value(priors.alpha());
            }
            double p = Math.exp(logp);
            total += p;
            for (int t = 0; t < k; t++) {
                exact[t] += p * (nd[t] + priors.alpha()) / (n + k * priors.alpha());
            }
        }
        RandomStreams streams = new RandomStreams(77);
        int runs = 2000;
        double[] sum = new double[k];
        double[] sumSq = new double[k];
        for (int r = 0; r < runs; r++) {
            double[] theta = inference.theta(doc, n, streams.stream("fold-in", r));
            for (int t = 0; t < k; t++) {
                sum[t] += theta[t];
                sumSq[t] += theta[t] * theta[t];
            }
        }
        boolean priorMeanRejected = false;
        for (int t = 0; t < k; t++) {
            double mean = sum[t] / runs;
            double se = Math.sqrt((sumSq[t] / runs - mean * mean) / runs);
            assertEquals(exact[t] / total, mean, 4 * se, "topic " + t);
            priorMeanRejected |= Math.abs(1.0 / k - mean) > 4 * se;
        }
        assertTrue(priorMeanRejected);
    }
}
