package org.sparkmc.core.lda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The word slices of model-parallel LDA: a partition of the words balanced by tokens, and arranged blocks. */
class WordSlicesTest {
    @Test
    void everyWordIsInOneSliceAndTheSlicesAreBalancedByTokens() {
        Corpus c = LdaFixtures.randomCorpus(200, 60, 500, 3);
        int[] f = c.wordFrequencies();
        // A heavy word, as the head of a Zipf vocabulary: the rule must still spread the rest around it.
        f[7] = 2_000;
        WordSlices slices = WordSlices.balanced(f, 6);
        int[] seen = new int[f.length];
        long total = 0;
        long largest = 0;
        for (int j = 0; j < 6; j++) {
            long tokens = 0;
            for (int w : slices.words(j)) {
                seen[w]++;
                assertEquals(j, slices.sliceOf(w));
                tokens += f[w];
            }
            assertEquals(tokens, slices.tokens(j));
            total += tokens;
            largest = Math.max(largest, tokens);
            int[] sorted = slices.words(j).clone();
            Arrays.sort(sorted);
            assertArrayEquals(sorted, slices.words(j));
        }
        assertTrue(Arrays.stream(seen).allMatch(n -> n == 1));
        assertEquals(Arrays.stream(f).asLongStream().sum(), total);
        // The longest-processing-time rule: no slice exceeds the mean by more than the largest single word.
        assertTrue(largest <= total / 6 + 2_000, largest + " tokens in the largest slice");
        assertEquals(2_000, slices.tokens(slices.sliceOf(7)), "the heavy word fills a slice alone");
        assertThrows(IllegalArgumentException.class, () -> WordSlices.balanced(new int[3], 4));
    }

    @Test
    void anArrangedBlockHoldsTheSameDocumentsWithEachSliceContiguous() {
        Corpus block = LdaFixtures.randomCorpus(40, 30, 50, 5);
        WordSlices slices = WordSlices.balanced(block.wordFrequencies(), 4);
        Corpus arranged = slices.arrange(block);
        assertArrayEquals(block.docIds(), arranged.docIds());
        assertArrayEquals(block.docStarts(), arranged.docStarts());
        for (int d = 0; d < block.numDocuments(); d++) {
            int[] before = Arrays.copyOfRange(block.words(), block.docStart(d), block.docEnd(d));
            int[] after = Arrays.copyOfRange(arranged.words(), block.docStart(d), block.docEnd(d));
            Arrays.sort(before);
            Arrays.sort(after);
            assertArrayEquals(before, after, "document " + d + " keeps its words");
        }
        int covered = 0;
        for (int j = 0; j < 4; j++) {
            int[] ranges = slices.ranges(arranged, j);
            for (int d = 0; d < arranged.numDocuments(); d++) {
                for (int i = arranged.docStart(d); i < arranged.docEnd(d); i++) {
                    boolean inRange = i >= ranges[2 * d] && i < ranges[2 * d + 1];
                    assertEquals(slices.sliceOf(arranged.word(i)) == j, inRange, "token " + i + ", slice " + j);
                }
                covered += ranges[2 * d + 1] - ranges[2 * d];
            }
        }
        assertEquals(block.numTokens(), covered);
        // Stable: within a slice, a document's tokens keep their order.
        int[] firstDoc = Arrays.copyOfRange(block.words(), 0, block.docEnd(0));
        int[] ranges = slices.ranges(arranged, slices.sliceOf(firstDoc[0]));
        int[] expected = Arrays.stream(firstDoc).filter(w -> slices.sliceOf(w) == slices.sliceOf(firstDoc[0]))
                .toArray();
        assertArrayEquals(expected, Arrays.copyOfRange(arranged.words(), ranges[0], ranges[1]));
    }
}
