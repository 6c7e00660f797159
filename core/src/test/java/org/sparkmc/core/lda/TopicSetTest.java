package org.sparkmc.core.lda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.TreeSet;
import org.apache.commons.rng.UniformRandomProvider;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.random.RandomStreams;

class TopicSetTest {

    /**
     * Random topics added to a set are drained once each, in increasing order, as a sorted set gives them, for K
     * below, at and above multiples of 64, and the set is empty after.
     */
    @Test
    void drainsWhatWasAddedOnceInIncreasingOrder() {
        UniformRandomProvider rng = new RandomStreams(3).stream("topic set", 0);
        for (int numTopics : new int[] {1, 63, 64, 65, 200, 1000}) {
            TopicSet set = new TopicSet(numTopics);
            int[] out = new int[numTopics];
            for (int round = 0; round < 50; round++) {
                TreeSet<Integer> expected = new TreeSet<>();
                int adds = rng.nextInt(3 * numTopics + 1);
                for (int a = 0; a < adds; a++) {
                    int k = rng.nextInt(numTopics);
                    set.add(k);
                    expected.add(k);
                }
                assertArrayEquals(expected.stream().mapToInt(Integer::intValue).toArray(), drain(set, out),
                        "K=" + numTopics);
                assertEquals(0, set.drainTo(out));
            }
        }
    }

    /** addAll gives exactly [0, K), also when K is not a multiple of 64. */
    @Test
    void addAllHoldsEveryTopicAndNoMore() {
        for (int numTopics : new int[] {1, 63, 64, 65, 130}) {
            TopicSet set = new TopicSet(numTopics);
            set.add(numTopics - 1);
            set.addAll();
            int[] all = new int[numTopics];
            for (int k = 0; k < numTopics; k++) {
                all[k] = k;
            }
            assertArrayEquals(all, drain(set, new int[numTopics]));
        }
    }

    /** addRow adds the topics of a packed row; distinctWords lists a corpus' words once each, increasing. */
    @Test
    void addRowAddsTheRowsTopicsAndDistinctWordsAreSorted() {
        Corpus c = Corpus.of(new int[] {0, 4, 6}, new int[] {5, 2, 5, 0, 2, 7}, new int[] {1, 2}, 9);
        assertArrayEquals(new int[] {0, 2, 5, 7}, c.distinctWords());
        char[] topics = {3, 1, 70, 3, 1, 0};
        TopicWordCounts counts = TopicWordCounts.of(c, topics, 80);
        TopicSet set = new TopicSet(80);
        int[] out = new int[80];
        set.addRow(counts, 5);
        assertArrayEquals(new int[] {3, 70}, drain(set, out));
        set.addRow(counts, 2);
        assertArrayEquals(new int[] {1}, drain(set, out));
    }

    private static int[] drain(TopicSet set, int[] out) {
        return java.util.Arrays.copyOf(out, set.drainTo(out));
    }
}
