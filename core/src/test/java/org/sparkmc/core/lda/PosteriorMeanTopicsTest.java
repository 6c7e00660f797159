package org.sparkmc.core.lda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.sparkmc.core.random.RandomStreams;

class PosteriorMeanTopicsTest {
    /** Two states of a small corpus: φ̄ equals the mean of the two dense formulas, cell by cell. */
    @Test
    void averagesEachStatesPredictiveTopics() {
        Corpus corpus = LdaFixtures.randomCorpus(12, 9, 7, 5);
        int k = 3;
        double beta = 0.05;
        var rng = new RandomStreams(8).stream("test");
        char[][] states = new char[2][corpus.numTokens()];
        for (char[] z : states) {
            for (int i = 0; i < z.length; i++) {
                z[i] = (char) rng.nextInt(k);
            }
        }
        PosteriorMeanTopics mean = PosteriorMeanTopics.of(k, corpus.vocabularySize(), beta);
        for (char[] z : states) {
            mean.add(TopicWordCounts.of(corpus, z, k));
        }
        double[] phi = mean.phi();
        int w = corpus.vocabularySize();
        for (int v = 0; v < w; v++) {
            for (int t = 0; t < k; t++) {
                double expected = 0;
                for (char[] z : states) {
                    int nkw = 0;
                    int nk = 0;
                    for (int i = 0; i < z.length; i++) {
                        if (z[i] == t) {
                            nk++;
                            if (corpus.word(i) == v) {
                                nkw++;
                            }
                        }
                    }
                    expected += (nkw + beta) / (nk + w * beta) / states.length;
                }
                assertEquals(expected, phi[v * k + t], 1e-12, "word " + v + ", topic " + t);
            }
        }
        for (int t = 0; t < k; t++) {
            double total = 0;
            for (int v = 0; v < w; v++) {
                total += phi[v * k + t];
            }
            assertEquals(1.0, total, 1e-12);
        }
        assertEquals(2, mean.samples());
    }

    /** One state: the same perplexity as scoring the counts themselves (the evaluator's two entry points agree). */
    @Test
    void oneStateScoresAsItsCounts() {
        LdaFixtures.PlantedSplit planted = LdaFixtures.plantedSplit(4, 8, 120, 30, 2);
        Corpus train = planted.train();
        Corpus heldOut = planted.heldOut();
        LdaPriors priors = new LdaPriors(4, 0.2, 0.01);
        TopicWordCounts counts = planted.counts();
        PosteriorMeanTopics mean = PosteriorMeanTopics.of(4, train.vocabularySize(), priors.beta());
        mean.add(counts);
        DocumentCompletion eval = DocumentCompletion.of(5, 5);
        double fromCounts = eval.evaluate(counts, priors, heldOut, new RandomStreams(4)).perplexity();
        double fromPhi = eval.evaluate(mean.phi(), 4, priors.alpha(), heldOut, new RandomStreams(4)).perplexity();
        assertEquals(fromCounts, fromPhi, 1e-9 * fromCounts);
    }

    @Test
    void rejectsMismatchedCountsAndEmptyAverages() {
        PosteriorMeanTopics mean = PosteriorMeanTopics.of(3, 5, 0.1);
        assertThrows(IllegalStateException.class, mean::phi);
        assertThrows(IllegalArgumentException.class, () -> mean.add(TopicWordCounts.empty(4, 5)));
        assertThrows(IllegalArgumentException.class, () -> PosteriorMeanTopics.of(3, 5, 0));
    }
}
