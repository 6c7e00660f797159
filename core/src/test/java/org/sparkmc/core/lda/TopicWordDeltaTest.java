package org.sparkmc.core.lda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.random.RandomStreams;

class TopicWordDeltaTest {

    /**
     * Four blocks' changes after a sweep, summed into one delta, change the counts exactly as the four do: the sum is
     * a valid delta (sorted, no zero change, topic changes the column sums) and adding it gives the same counts.
     */
    @Test
    void theSumOfBlocksChangesTheCountsAsTheyDo() {
        LdaPriors priors = new LdaPriors(9, 0.3, 0.02);
        Corpus c = LdaFixtures.randomCorpus(80, 40, 25, 3);
        RandomStreams streams = new RandomStreams(5);
        AdLdaDriver driver = AdLdaDriver.start(c, 4, priors, streams);
        TopicWordCounts global = driver.counts();
        List<TopicWordDelta> deltas = new ArrayList<>();
        for (int b = 0; b < 4; b++) {
            deltas.add(AdLda.sweepBlock(driver.block(b), driver.topics(b), global, priors, streams, 0, 1, b).delta());
        }
        TopicWordDelta sum = TopicWordDelta.sum(deltas);
        TopicWordDelta checked = TopicWordDelta.of(sum.numTopics(), sum.vocabularySize(), sum.words(), sum.topics(),
                sum.changes(), sum.topicChanges());
        assertEquals(global.plus(deltas), global.plus(List.of(checked)));
        assertEquals(global.plus(deltas.subList(0, 2)), global.plus(List.of(TopicWordDelta.sum(deltas.subList(0, 2)))));
        assertSame(deltas.get(3), TopicWordDelta.sum(List.of(deltas.get(3))));
    }

    /**
     * Adding random changes gives the counts, cell order included, of counting the changed matrix afresh: cells that
     * change, vanish or appear among many equal counts (ties broken by topic), rows changed by both deltas or by
     * neither, and with a low wide-row bound rows that are wide, stay packed, or become wide or packed.
     */
    @Test
    void addingChangesEqualsCountingAfresh() {
        int k = 12;
        int w = 40;
        UniformRandomProvider rng = new RandomStreams(11).stream("counts", 0);
        for (int trial = 0; trial < 60; trial++) {
            int wideAbove = trial % 2 == 0 ? TopicWordCounts.maxCellCount(k) : 15;
            int[] before = new int[k * w];
            for (int i = 0; i < before.length; i++) {
                before[i] = rng.nextInt(3) == 0 ? 1 + rng.nextInt(5) : 0;
            }
            int[] after = before.clone();
            List<TopicWordDelta> deltas = new ArrayList<>();
            for (int d = 0; d < 2; d++) {
                int[] change = new int[k * w];
                for (int i = 0; i < change.length; i++) {
                    if (i / k % 5 != 0 && rng.nextInt(4) == 0) { // every fifth row is left alone
                        change[i] = rng.nextInt(after[i] + 4) - after[i];
                        after[i] += change[i];
                    }
                }
                deltas.add(deltaOf(change, k, w));
            }
            TopicWordCounts start = TopicWordCounts.fromDense(before, k, w, wideAbove);
            assertEquals(TopicWordCounts.fromDense(after, k, w, wideAbove), start.plus(deltas), "trial " + trial);
        }
    }

    /** The delta of a dense word-major change matrix. */
    private static TopicWordDelta deltaOf(int[] change, int k, int w) {
        List<Integer> cells = new ArrayList<>();
        int[] topicChanges = new int[k];
        for (int i = 0; i < change.length; i++) {
            if (change[i] != 0) {
                cells.add(i);
                topicChanges[i % k] += change[i];
            }
        }
        int[] words = cells.stream().mapToInt(i -> i / k).toArray();
        int[] topics = cells.stream().mapToInt(i -> i % k).toArray();
        int[] changes = cells.stream().mapToInt(i -> change[i]).toArray();
        return TopicWordDelta.of(k, w, words, topics, changes, topicChanges);
    }

    @Test
    void deltasOfDifferentShapesAreRefused() {
        TopicWordDelta a = TopicWordDelta.of(3, 5, new int[0], new int[0], new int[0], new int[3]);
        TopicWordDelta b = TopicWordDelta.of(4, 5, new int[0], new int[0], new int[0], new int[4]);
        assertThrows(IllegalArgumentException.class, () -> TopicWordDelta.sum(List.of(a, b)));
        assertThrows(IllegalArgumentException.class, () -> TopicWordDelta.sum(List.of()));
    }

    /**
     * The merge ({@link TopicWordCounts#plus}) refuses a cell that would go negative, even when every topic total
     * stays non-negative and the other delta leaves the word's row alone; so it does for such a cell of a wide (K
     * plain counts) row.
     */
    @Test
    void aCellThatWouldGoNegativeIsRefused() {
        // word 0: 1 token in topic 0; word 1: 1 token in topic 1; word 2: 2 tokens in topic 1
        TopicWordCounts counts = TopicWordCounts.fromDense(new int[] {1, 0, 0, 1, 0, 2}, 2, 3);
        TopicWordDelta swap = TopicWordDelta.of(2, 3, new int[] {0, 0, 1, 1}, new int[] {0, 1, 0, 1},
                new int[] {1, -1, -1, 1}, new int[2]);
        TopicWordDelta shift = TopicWordDelta.of(2, 3, new int[] {2, 2}, new int[] {0, 1}, new int[] {1, -1},
                new int[] {1, -1});
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> counts.plus(List.of(shift, swap)));
        assertEquals("count of word 0 in topic 1 would become -1", e.getMessage());
        TopicWordCounts wide = counts.withWideRowsAbove(0);
        e = assertThrows(IllegalStateException.class, () -> wide.plus(List.of(swap, shift)));
        assertEquals("count of word 0 in topic 1 would become -1", e.getMessage());
        TopicWordDelta undo = TopicWordDelta.of(2, 3, new int[] {1, 1}, new int[] {0, 1}, new int[] {1, -1},
                new int[] {1, -1});
        assertEquals(TopicWordCounts.fromDense(new int[] {1, 0, 1, 0, 0, 2}, 2, 3), counts.plus(List.of(undo)));
    }
}
