package org.sparkmc.core.lda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PlantedCorpusTest {
    /** The {@code small} preset of {@code sparkmc generate-lda}. */
    private static final PlantedCorpus.Settings SMALL = new PlantedCorpus.Settings(2_000, 2_000, 20, 150, 0.1, 1.0,
            0.1, 20261125L);
    /** |z| beyond which a check fails: two-sided normal tail 6.3e-5 a check. */
    private static final double Z = 4.0;

    /**
     * With α = 1e-12 every gamma draw of θ underflows (it drew again for ever): θ is then a vertex of the simplex,
     * so with no background every document's words are one topic's own words (word of rank r belongs to topic
     * r mod K), and the topic is uniform over the K = 5: each topic's share of 2,000 documents within 4 standard
     * errors of 1/5 (5 checks at 6.3e-5: ≤ 3.2e-4 false alarms; fixed seed). α above 1e6 is refused.
     */
    @Test
    void aTinyAlphaGivesSingleTopicDocumentsAndAHugeOneIsRefused() {
        PlantedCorpus.Settings tiny = new PlantedCorpus.Settings(2_000, 30, 5, 20, 1e-12, 1.0, 0, 7L);
        PlantedCorpus model = PlantedCorpus.of(tiny);
        int[] topicOfWord = new int[30];
        for (int r = 0; r < 30; r++) {
            topicOfWord[model.wordOfRank(r)] = r % 5;
        }
        int[] documents = new int[5];
        for (long id = 1; id <= tiny.documents(); id++) {
            int[] words = model.document(id).words();
            int topic = topicOfWord[words[0]];
            for (int w : words) {
                assertEquals(topic, topicOfWord[w], "document " + id + " mixes topics");
            }
            documents[topic]++;
        }
        double se = Math.sqrt(0.2 * 0.8 / 2_000);
        for (int t = 0; t < 5; t++) {
            assertTrue(Math.abs(documents[t] / 2_000.0 - 0.2) < Z * se, "topic " + t + ": " + documents[t]);
        }
        assertThrows(IllegalArgumentException.class, () -> new PlantedCorpus.Settings(10, 30, 5, 20, 1.1e6, 1, 0, 1));
    }

    /**
     * Documents are i.i.d., so each word's count per document has mean L·m_w (m the model's marginal, L the mean
     * length) and the mean over D = 2,000 documents is nearly normal with the standard error estimated from the
     * documents. 50 checks (the 30 most frequent words and the 20 topics' own-word groups, which between them cover
     * the whole vocabulary) at |z| &lt; 4 each: false-failure rate ≤ 50 × 6.3e-5 ≈ 0.3% (Bonferroni; fixed seed).
     */
    @Test
    void wordFrequenciesMatchTheModelsMarginal() {
        PlantedCorpus model = PlantedCorpus.of(SMALL);
        int v = SMALL.vocabularySize();
        int k = SMALL.topics();
        double[] m = model.marginal();
        double total = 0;
        for (double x : m) {
            total += x;
        }
        assertEquals(1, total, 1e-9);
        int d = (int) SMALL.documents();
        // 30 top words by rank (the background's head), then the 20 topics' own-word groups.
        int checks = 30 + k;
        double[] sum = new double[checks];
        double[] sumSq = new double[checks];
        double[] expected = new double[checks];
        int[] groupOf = new int[v];
        java.util.Arrays.fill(groupOf, -1);
        for (int r = 0; r < v; r++) {
            expected[30 + r % k] += m[model.wordOfRank(r)];
            groupOf[model.wordOfRank(r)] = 30 + r % k;
        }
        int[] topWord = new int[30];
        for (int r = 0; r < 30; r++) {
            topWord[r] = model.wordOfRank(r);
            expected[r] = m[topWord[r]];
        }
        double[] x = new double[checks];
        for (long id = 1; id <= d; id++) {
            PlantedCorpus.Document doc = model.document(id);
            java.util.Arrays.fill(x, 0);
            for (int j = 0; j < doc.words().length; j++) {
                x[groupOf[doc.words()[j]]] += doc.counts()[j];
            }
            for (int r = 0; r < 30; r++) {
                int at = java.util.Arrays.binarySearch(doc.words(), topWord[r]);
                x[r] = at >= 0 ? doc.counts()[at] : 0;
            }
            for (int c = 0; c < checks; c++) {
                sum[c] += x[c];
                sumSq[c] += x[c] * x[c];
            }
        }
        for (int c = 0; c < checks; c++) {
            double mean = sum[c] / d;
            double sd = Math.sqrt((sumSq[c] - d * mean * mean) / (d - 1));
            double z = (mean - SMALL.meanLength() * expected[c]) / (sd / Math.sqrt(d));
            assertTrue(Math.abs(z) < Z, "check " + c + ": mean count " + mean + " against "
                    + SMALL.meanLength() * expected[c] + ", z = " + z);
        }
    }

    /**
     * The mean length over 2,000 documents against L = 150, standard error from the lengths: |z| &lt; 4, false-failure
     * rate 6.3e-5; their coefficient of variation is about 0.7 (the gamma-mixed Poisson), checked loosely (0.6–0.8:
     * its estimate's sd is about 0.02, so a false failure is beyond 4 sd).
     */
    @Test
    void documentLengthsHaveTheStatedMean() {
        PlantedCorpus model = PlantedCorpus.of(SMALL);
        int d = (int) SMALL.documents();
        double sum = 0;
        double sumSq = 0;
        for (long id = 1; id <= d; id++) {
            PlantedCorpus.Document doc = model.document(id);
            int n = 0;
            for (int c : doc.counts()) {
                n += c;
            }
            assertEquals(doc.length(), n);
            assertTrue(doc.length() >= 1);
            sum += n;
            sumSq += (double) n * n;
        }
        double mean = sum / d;
        double sd = Math.sqrt((sumSq - d * mean * mean) / (d - 1));
        assertTrue(Math.abs(mean - SMALL.meanLength()) < Z * sd / Math.sqrt(d), "mean length " + mean);
        double cv = sd / mean;
        assertTrue(cv > 0.6 && cv < 0.8, "coefficient of variation " + cv);
    }

    /** Document d is the same whatever is generated before it, in whatever order, by whatever instance. */
    @Test
    void documentsDoNotDependOnHowTheyAreCut() {
        PlantedCorpus whole = PlantedCorpus.of(SMALL);
        PlantedCorpus.Document[] inOrder = new PlantedCorpus.Document[101];
        for (int id = 1; id <= 100; id++) {
            inOrder[id] = whole.document(id);
        }
        PlantedCorpus first = PlantedCorpus.of(SMALL);
        PlantedCorpus second = PlantedCorpus.of(SMALL);
        for (int id = 100; id >= 1; id--) {
            PlantedCorpus.Document doc = (id > 37 ? second : first).document(id);
            assertArrayEquals(inOrder[id].words(), doc.words(), "document " + id);
            assertArrayEquals(inOrder[id].counts(), doc.counts(), "document " + id);
        }
        for (int t = 0; t < SMALL.topics(); t++) {
            assertArrayEquals(whole.phi(t), first.phi(t));
        }
    }

    /**
     * Every φ_k is a distribution, and the planted topics are well separated: two topics' top-10 lists share at most
     * one word (a head word of the shared background can enter a topic whose own words are flat).
     */
    @Test
    void plantedTopicsAreDistributionsAndWellSeparated() {
        PlantedCorpus model = PlantedCorpus.of(SMALL);
        List<Set<Integer>> tops = new ArrayList<>();
        for (int t = 0; t < SMALL.topics(); t++) {
            double total = 0;
            for (double p : model.phi(t)) {
                assertTrue(p >= 0);
                total += p;
            }
            assertEquals(1, total, 1e-9);
            Set<Integer> top = new HashSet<>();
            for (int w : model.topWords(t, 10)) {
                top.add(w);
            }
            for (int u = 0; u < t; u++) {
                Set<Integer> shared = new HashSet<>(top);
                shared.retainAll(tops.get(u));
                assertTrue(shared.size() <= 1, "topics " + u + " and " + t + " share top words " + shared);
            }
            tops.add(top);
        }
    }

    @Test
    void badSettingsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new PlantedCorpus.Settings(10, 5, 6, 10, 0.1, 1, 0.1, 1));
        assertThrows(IllegalArgumentException.class, () -> new PlantedCorpus.Settings(0, 5, 2, 10, 0.1, 1, 0.1, 1));
        assertThrows(IllegalArgumentException.class, () -> new PlantedCorpus.Settings(10, 5, 2, 10, 0, 1, 0.1, 1));
        assertThrows(IllegalArgumentException.class, () -> new PlantedCorpus.Settings(10, 5, 2, 10, 0.1, 1, 1, 1));
    }
}
