package org.sparkmc.core.lda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Slices of the topic–word counts: cut and put together, added, seen by a sampler, and their likelihood terms. */
class TopicWordSliceTest {
    private final Corpus corpus = LdaFixtures.randomCorpus(80, 40, 60, 7);
    private final char[] topics = LdaFixtures.randomTopics(corpus, 9, 8);
    private final TopicWordCounts counts = TopicWordCounts.of(corpus, topics, 9);
    private final WordSlices slices = WordSlices.balanced(corpus.wordFrequencies(), 5);

    @Test
    void slicesPutTogetherAreTheCounts() {
        TopicWordSlice[] cut = TopicWordSlice.cut(counts, slices);
        assertEquals(counts, TopicWordSlice.assemble(Arrays.asList(cut), 60));
        int cells = 0;
        for (TopicWordSlice s : cut) {
            cells += s.nonZeros();
            for (int w : s.words()) {
                for (int k = 0; k < 9; k++) {
                    assertEquals(counts.count(w, k), s.asCounts(60, counts.topicTotals()).count(w, k));
                }
            }
        }
        assertEquals(counts.nonZeros(), cells);
        assertThrows(IllegalArgumentException.class, () -> TopicWordSlice.assemble(List.of(cut[0]), 60),
                "words of no slice");
    }

    @Test
    void addedSlicesAreTheSlicesOfTheAddedCounts() {
        Corpus[] halves = corpus.blocks(2);
        char[] first = Arrays.copyOfRange(topics, 0, halves[0].numTokens());
        char[] second = Arrays.copyOfRange(topics, halves[0].numTokens(), topics.length);
        TopicWordSlice[] a = TopicWordSlice.cut(TopicWordCounts.of(halves[0], first, 9), slices);
        TopicWordSlice[] b = TopicWordSlice.cut(TopicWordCounts.of(halves[1], second, 9), slices);
        TopicWordSlice[] whole = TopicWordSlice.cut(counts, slices);
        for (int j = 0; j < 5; j++) {
            assertEquals(whole[j], a[j].plus(b[j]));
            assertEquals(whole[j], b[j].plus(a[j]));
            assertArrayEquals(whole[j].topicSums(), a[j].plus(b[j]).topicSums());
        }
        assertThrows(IllegalArgumentException.class, () -> a[0].plus(a[1]));
    }

    @Test
    void theSlicesCellTermsAndTheTotalsTermAreTheTopicWordTerm() {
        double beta = 0.05;
        double sum = LdaLogLikelihood.totalsTerm(counts.topicTotals(), 60, beta);
        for (TopicWordSlice s : TopicWordSlice.cut(counts, slices)) {
            sum += s.cellTerm(beta);
        }
        double expected = LdaLogLikelihood.topicWordTerm(counts, beta);
        assertEquals(expected, sum, 1e-12 * Math.abs(expected));
    }
}
