package org.sparkmc.spark.lda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.lda.TopicWordCounts;

/**
 * The final state's top words and φ rows from the sparse counts equal the ones read off the dense W·K φ: same words,
 * ranks, counts and probabilities, ties to the lower word id, and topics with fewer non-zero words than asked for.
 */
class TopWordsTest {
    private static final double BETA = 0.01;

    /** Counts with many ties and zeros: counts 0–3 over 7 topics and 40 words, topic 6 empty, topic 5 nearly so. */
    private static TopicWordCounts counts() {
        int k = 7;
        int w = 40;
        int[] dense = new int[w * k];
        Random rng = new Random(5);
        for (int v = 0; v < w; v++) {
            for (int t = 0; t < 5; t++) {
                dense[v * k + t] = rng.nextInt(3) == 0 ? 0 : rng.nextInt(4);
            }
        }
        dense[17 * k + 5] = 2;
        dense[3 * k + 5] = 2;
        return TopicWordCounts.fromDense(dense, k, w);
    }

    @Test
    void sparseTopWordsEqualTheDenseOnes() {
        TopicWordCounts counts = counts();
        double[] phi = TopWords.phi(counts, BETA);
        for (int n : new int[] {1, 3, 10, 40, 45}) {
            List<TopWords.Entry> dense = TopWords.of(phi, counts, n);
            assertEquals(dense, TopWords.of(counts, BETA, n), "n = " + n);
            assertEquals(7 * Math.min(n, 40), dense.size());
        }
        // topic 5: its two words (tied, lower id first), then the zero-count words from id 0
        List<TopWords.Entry> top = TopWords.of(counts, BETA, 4).subList(20, 24);
        assertEquals(List.of(3, 17, 0, 1), top.stream().map(TopWords.Entry::word).toList());
        assertEquals(List.of(2, 2, 0, 0), top.stream().map(TopWords.Entry::count).toList());
    }

    @Test
    void topicColumnsGiveTheDensePhiRows() {
        TopicWordCounts counts = counts();
        double[] phi = TopWords.phi(counts, BETA);
        double[] denominator = TopWords.denominators(counts, BETA);
        List<LdaOutput.TopicColumn> columns = LdaOutput.TopicColumn.of(counts);
        assertEquals(7, columns.size());
        for (LdaOutput.TopicColumn c : columns) {
            double[] expected = new double[40];
            for (int v = 0; v < 40; v++) {
                expected[v] = phi[v * 7 + c.topic()];
            }
            assertArrayEquals(expected, c.phi(40, BETA, denominator[c.topic()]), "topic " + c.topic());
            assertEquals(counts.topicTotal(c.topic()), c.tokens());
        }
    }
}
