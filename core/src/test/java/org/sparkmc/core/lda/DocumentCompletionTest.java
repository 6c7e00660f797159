package org.sparkmc.core.lda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sparkmc.core.random.RandomStreams;

class DocumentCompletionTest {
    /**
     * With one topic θ = 1 whatever the fold-in does, so the perplexity has a closed form: the scored half's tokens
     * get p(w) = (n_w + β)/(N + Wβ). The split is recomputed here from the documented stream and shuffle.
     */
    @Test
    void oneTopicGivesTheSmoothedUnigramPerplexity() {
        Corpus train = LdaFixtures.randomCorpus(30, 20, 12, 1);
        Corpus heldOut = LdaFixtures.randomCorpus(10, 15, 12, 2);
        LdaPriors priors = new LdaPriors(1, 0.5, 0.1);
        TopicWordCounts counts = TopicWordCounts.of(train, new char[train.numTokens()], 1);
        RandomStreams streams = new RandomStreams(3);
        DocumentCompletion.Result r = DocumentCompletion.of(2, 3).evaluate(counts, priors, heldOut, streams);
        int[] f = train.wordFrequencies();
        double logLik = 0;
        long n = 0;
        for (int d = 0; d < heldOut.numDocuments(); d++) {
            int len = heldOut.docLength(d);
            var rng = streams.stream(DocumentCompletion.STREAM, heldOut.docId(d));
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
            for (int i = len / 2; i < len; i++) {
                int w = heldOut.word(heldOut.docStart(d) + order[i]);
                logLik += Math.log((f[w] + 0.1) / (train.numTokens() + 12 * 0.1));
                n++;
            }
        }
        assertEquals(n, r.scoredTokens());
        assertEquals(logLik, r.logLikelihood(), 1e-9 * Math.abs(logLik));
        assertEquals(Math.exp(-logLik / n), r.perplexity(), 1e-9 * r.perplexity());
    }

    /** Planted, well-separated topics: completion beats the one-topic model and is reproducible for a seed. */
    @Test
    void foldInUsesTheObservedHalf() {
        LdaFixtures.PlantedSplit planted = LdaFixtures.plantedSplit(5, 10, 300, 40, 4);
        Corpus train = planted.train();
        Corpus heldOut = planted.heldOut();
        LdaPriors priors = new LdaPriors(5, 0.1, 0.01);
        TopicWordCounts counts = planted.counts();
        double topics = DocumentCompletion.standard().evaluate(counts, priors, heldOut, new RandomStreams(5))
                .perplexity();
        double again = DocumentCompletion.standard().evaluate(counts, priors, heldOut, new RandomStreams(5))
                .perplexity();
        assertEquals(topics, again, 0.0);
        TopicWordCounts unigram = TopicWordCounts.of(train, new char[train.numTokens()], 1);
        double one = DocumentCompletion.standard().evaluate(unigram, new LdaPriors(1, 0.1, 0.01), heldOut,
                new RandomStreams(5)).perplexity();
        // Documents mix ~1-2 topics of 10 words each: ≈ 10-20 with topics vs ≈ 50 without.
        assertTrue(topics < 20 && one > 40, topics + " vs " + one);
    }

    /**
     * The explicit-φ entry point runs the same split, streams and fold-in: given the counts' own φ it reproduces the
     * counts-based result bit for bit (deterministic, cannot fail by chance). A φ from a different β must differ,
     * so the comparison does see φ.
     */
    @Test
    void explicitPhiMatchesTheCountsPathExactly() {
        LdaFixtures.PlantedSplit planted = LdaFixtures.plantedSplit(5, 10, 300, 40, 4);
        Corpus heldOut = planted.heldOut();
        LdaPriors priors = new LdaPriors(5, 0.1, 0.01);
        TopicWordCounts counts = planted.counts();
        DocumentCompletion completion = DocumentCompletion.of(5, 10);
        DocumentCompletion.Result fromCounts = completion.evaluate(counts, priors, heldOut, new RandomStreams(9));
        DocumentCompletion.Result fromPhi = completion.evaluate(LdaFixtures.phiOf(counts, 0.01), 5, 0.1, heldOut,
                new RandomStreams(9));
        assertEquals(fromCounts, fromPhi);
        DocumentCompletion.Result otherBeta = completion.evaluate(LdaFixtures.phiOf(counts, 0.5), 5, 0.1, heldOut,
                new RandomStreams(9));
        assertNotEquals(fromCounts.logLikelihood(), otherBeta.logLikelihood());
    }

    /** Topics that are not distributions over the words, or over another vocabulary, are refused. */
    @Test
    void explicitPhiIsChecked() {
        Corpus heldOut = LdaFixtures.randomCorpus(5, 10, 4, 1);
        DocumentCompletion completion = DocumentCompletion.of(1, 1);
        RandomStreams streams = new RandomStreams(1);
        double[] uniform = new double[4 * 2];
        java.util.Arrays.fill(uniform, 0.25);
        assertTrue(completion.evaluate(uniform, 2, 0.5, heldOut, streams).perplexity() > 3.999);
        double[] unnormalised = uniform.clone();
        unnormalised[0] = 0.3;
        assertThrows(IllegalArgumentException.class, () -> completion.evaluate(unnormalised, 2, 0.5, heldOut, streams));
        double[] negative = uniform.clone();
        negative[0] = -0.25;
        negative[2] = 0.75;
        assertThrows(IllegalArgumentException.class, () -> completion.evaluate(negative, 2, 0.5, heldOut, streams));
        double[] fiveWords = new double[5 * 2];
        java.util.Arrays.fill(fiveWords, 0.2);
        assertThrows(IllegalArgumentException.class, () -> completion.evaluate(fiveWords, 2, 0.5, heldOut, streams));
        assertThrows(IllegalArgumentException.class, () -> completion.evaluate(uniform, 3, 0.5, heldOut, streams));
    }
}
