package org.sparkmc.core.lda;

import org.apache.commons.rng.UniformRandomProvider;
import org.sparkmc.core.random.RandomStreams;

/** Small corpora and states for the LDA tests. */
final class LdaFixtures {
    private LdaFixtures() {
    }

    /** D documents of random lengths in [1, maxLength], words uniform on 0..W−1 (ids 1..D). */
    static Corpus randomCorpus(int documents, int maxLength, int vocabulary, long seed) {
        UniformRandomProvider rng = new RandomStreams(seed).stream("fixture-corpus");
        int[] starts = new int[documents + 1];
        for (int d = 0; d < documents; d++) {
            starts[d + 1] = starts[d] + 1 + rng.nextInt(maxLength);
        }
        int[] words = new int[starts[documents]];
        for (int i = 0; i < words.length; i++) {
            words[i] = rng.nextInt(vocabulary);
        }
        int[] ids = new int[documents];
        for (int d = 0; d < documents; d++) {
            ids[d] = d + 1;
        }
        return Corpus.of(starts, words, ids, vocabulary);
    }

    static char[] randomTopics(Corpus corpus, int k, long seed) {
        UniformRandomProvider rng = new RandomStreams(seed).stream("fixture-topics");
        char[] z = new char[corpus.numTokens()];
        for (int i = 0; i < z.length; i++) {
            z[i] = (char) rng.nextInt(k);
        }
        return z;
    }

    /** The counts of a {@link #plantedCorpus}'s true assignment, topic = word / wordsPerTopic. */
    static TopicWordCounts plantedCounts(Corpus corpus, int k, int wordsPerTopic) {
        char[] z = new char[corpus.numTokens()];
        for (int i = 0; i < z.length; i++) {
            z[i] = (char) (corpus.word(i) / wordsPerTopic);
        }
        return TopicWordCounts.of(corpus, z, k);
    }

    /**
     * Planted LDA: K topics, topic k uniform on its own {@code wordsPerTopic} words (disjoint), each document's θ
     * drawn from a symmetric Dirichlet(0.1) via normalised Gamma draws, {@code length} tokens per document.
     */
    static Corpus plantedCorpus(int k, int wordsPerTopic, int documents, int length, long seed) {
        UniformRandomProvider rng = new RandomStreams(seed).stream("fixture-planted");
        var gamma = org.apache.commons.rng.sampling.distribution.AhrensDieterMarsagliaTsangGammaSampler.of(rng, 0.1, 1);
        int[] starts = new int[documents + 1];
        int[] words = new int[documents * length];
        int[] ids = new int[documents];
        double[] theta = new double[k];
        for (int d = 0; d < documents; d++) {
            double sum = 0;
            for (int t = 0; t < k; t++) {
                theta[t] = gamma.sample() + 1e-300;
                sum += theta[t];
            }
            for (int i = 0; i < length; i++) {
                double u = rng.nextDouble() * sum;
                int t = 0;
                while (t < k - 1 && (u -= theta[t]) > 0) {
                    t++;
                }
                words[d * length + i] = t * wordsPerTopic + rng.nextInt(wordsPerTopic);
            }
            starts[d + 1] = (d + 1) * length;
            ids[d] = d + 1;
        }
        return Corpus.of(starts, words, ids, k * wordsPerTopic);
    }

    /** The dense conditional p(z_i = k | rest) ∝ (n_kw + β)(n_dk + α)/(n_k + Wβ), counts without token i. */
    static double[] denseConditional(Corpus c, char[] z, int d, int i, LdaPriors p, boolean excludeToken) {
        int k = p.numTopics();
        int v = c.vocabularySize();
        int w = c.word(i);
        double[] nkw = new double[k];
        double[] nk = new double[k];
        double[] ndk = new double[k];
        for (int j = 0; j < c.numTokens(); j++) {
            if (excludeToken && j == i) {
                continue;
            }
            nk[z[j]]++;
            if (c.word(j) == w) {
                nkw[z[j]]++;
            }
        }
        for (int j = c.docStart(d); j < c.docEnd(d); j++) {
            if (!(excludeToken && j == i)) {
                ndk[z[j]]++;
            }
        }
        double[] out = new double[k];
        for (int t = 0; t < k; t++) {
            out[t] = (nkw[t] + p.beta()) * (ndk[t] + p.alpha()) / (nk[t] + v * p.beta());
        }
        return out;
    }

    /** φ as the counts' (n_{k,w} + β)/(n_k + Wβ), word-major. */
    static double[] phiOf(TopicWordCounts counts, double beta) {
        int k = counts.numTopics();
        int w = counts.vocabularySize();
        double[] phi = new double[w * k];
        for (int t = 0; t < k; t++) {
            double inv = 1.0 / (counts.topicTotal(t) + w * beta);
            for (int v = 0; v < w; v++) {
                phi[v * k + t] = (counts.count(v, t) + beta) * inv;
            }
        }
        return phi;
    }

    /**
     * A planted corpus split as KOS is (documents with id % 10 == 0 held out), with the training documents' counts
     * under their planted topics.
     */
    record PlantedSplit(Corpus train, Corpus heldOut, TopicWordCounts counts) {
    }

    static PlantedSplit plantedSplit(int k, int wordsPerTopic, int documents, int length, long seed) {
        Corpus all = plantedCorpus(k, wordsPerTopic, documents, length, seed);
        Corpus train = all.selectByDocId(id -> id % 10 != 0);
        return new PlantedSplit(train, all.selectByDocId(id -> id % 10 == 0), plantedCounts(train, k, wordsPerTopic));
    }
}
