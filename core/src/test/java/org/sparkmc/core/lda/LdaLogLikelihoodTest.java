package org.sparkmc.core.lda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** log p(w, z) against an independent computation (no randomness: exact up to rounding). */
class LdaLogLikelihoodTest {
    /**
     * The chain rule gives p(w, z) as a product of Pólya-urn predictive probabilities, token by token in any order:
     * p(z_i = k | z_{&lt;i}) p(w_i | z_i = k, w_{&lt;i}, z_{&lt;i}) = (n_{d,k} + α)/(n_d + Kα) · (n_{k,w} + β)/(n_k + Wβ)
     * with counts over earlier tokens — no lnΓ anywhere, so it checks both Dirichlet–multinomial terms.
     */
    @Test
    void matchesTheSequentialPredictiveProduct() {
        LdaPriors priors = new LdaPriors(5, 0.7, 0.05);
        Corpus c = LdaFixtures.randomCorpus(15, 30, 11, 3);
        char[] z = LdaFixtures.randomTopics(c, 5, 4);
        int k = 5;
        int v = c.vocabularySize();
        int[] nkw = new int[v * k];
        int[] nk = new int[k];
        double expected = 0;
        for (int d = 0; d < c.numDocuments(); d++) {
            int[] ndk = new int[k];
            int nd = 0;
            for (int i = c.docStart(d); i < c.docEnd(d); i++) {
                int t = z[i];
                int w = c.word(i);
                expected += Math.log((ndk[t] + priors.alpha()) / (nd + k * priors.alpha()));
                expected += Math.log((nkw[w * k + t] + priors.beta()) / (nk[t] + v * priors.beta()));
                ndk[t]++;
                nd++;
                nkw[w * k + t]++;
                nk[t]++;
            }
        }
        double actual = LdaLogLikelihood.joint(c, z, TopicWordCounts.of(c, z, k), priors);
        assertEquals(expected, actual, 1e-9 * Math.abs(expected));
        // A wrong assignment gives a different value (the test can fail).
        z[0] = (char) ((z[0] + 1) % k);
        double other = LdaLogLikelihood.joint(c, z, TopicWordCounts.of(c, z, k), priors);
        assertEquals(true, Math.abs(other - expected) > 1e-6);
    }

    /** The document term adds over blocks, so the Spark job can sum the blocks' terms. */
    @Test
    void documentTermAddsOverBlocks() {
        LdaPriors priors = new LdaPriors(4, 0.2, 0.1);
        Corpus c = LdaFixtures.randomCorpus(20, 10, 7, 8);
        char[] z = LdaFixtures.randomTopics(c, 4, 9);
        double whole = LdaLogLikelihood.documentTerm(c, z, priors);
        double parts = 0;
        int from = 0;
        for (Corpus b : c.blocks(3)) {
            char[] zb = java.util.Arrays.copyOfRange(z, from, from + b.numTokens());
            parts += LdaLogLikelihood.documentTerm(b, zb, priors);
            from += b.numTokens();
        }
        assertEquals(whole, parts, 1e-9 * Math.abs(whole));
    }
}
