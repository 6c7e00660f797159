package org.sparkmc.core.lda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.random.RandomStreams;

class MoveLogTest {

    /**
     * Random moves on a dense W×K table (moves back and forth included, which cancel): the log's delta is exactly
     * the table's change, cell by cell in (word, topic) order without zeros, for K on both sides of 64 and at the
     * most topics a char holds (topics of 2^15 and more make the packed move negative).
     */
    @Test
    void theDeltaIsTheNetChangeOfTheMoves() {
        UniformRandomProvider rng = new RandomStreams(11).stream("move log", 0);
        for (int numTopics : new int[] {3, 64, 130, 65535}) {
            int vocabulary = 50;
            MoveLog log = new MoveLog(numTopics, vocabulary, 1 << 20);
            for (int round = 0; round < 3; round++) {
                int[][] change = new int[vocabulary][numTopics];
                int moves = rng.nextInt(3000);
                for (int m = 0; m < moves; m++) {
                    int w = rng.nextInt(vocabulary);
                    int from = rng.nextInt(numTopics);
                    int to = rng.nextInt(numTopics);
                    log.add(w, from, to);
                    change[w][from]--;
                    change[w][to]++;
                    if (m % 7 == 0) { // and back
                        log.add(w, to, from);
                        change[w][from]++;
                        change[w][to]--;
                    }
                }
                TopicWordDelta delta = log.delta(new int[numTopics]);
                int[] dense = new int[vocabulary * numTopics];
                int previous = -1;
                for (int e = 0; e < delta.size(); e++) {
                    int cell = delta.words()[e] * numTopics + delta.topics()[e];
                    assertTrue(cell > previous, "(word, topic) order");
                    assertTrue(delta.changes()[e] != 0, "no zero change");
                    dense[cell] = delta.changes()[e];
                    previous = cell;
                }
                for (int w = 0; w < vocabulary; w++) {
                    for (int k = 0; k < numTopics; k++) {
                        assertEquals(change[w][k], dense[w * numTopics + k], "K=" + numTopics + " w=" + w);
                    }
                }
                log.clear();
            }
        }
    }

    /** Past its limit the log says it is incomplete and gives no delta, until cleared. */
    @Test
    void pastItsLimitTheLogIsIncompleteUntilCleared() {
        MoveLog log = new MoveLog(5, 10, 1024);
        for (int m = 0; m < 1024; m++) {
            log.add(m % 10, 1, 2);
        }
        assertTrue(log.complete());
        log.add(3, 2, 1);
        assertFalse(log.complete());
        assertThrows(IllegalStateException.class, () -> log.delta(new int[5]));
        log.clear();
        log.add(3, 2, 1);
        assertTrue(log.complete());
        TopicWordDelta delta = log.delta(new int[5]);
        assertArrayEquals(new int[] {3, 3}, delta.words());
        assertArrayEquals(new int[] {1, 2}, delta.topics());
        assertArrayEquals(new int[] {1, -1}, delta.changes());
    }

    /**
     * Another log's moves are appended after this one's, growing it up to its limit; what would pass the limit is
     * refused and the log stays complete. An incomplete log, or one of another shape, cannot be appended.
     */
    @Test
    void anotherLogsMovesAreAppendedWithinTheLimit() {
        MoveLog sum = new MoveLog(5, 10, 1500);
        MoveLog block = new MoveLog(5, 10, 2048);
        block.add(3, 1, 2);
        block.add(4, 0, 1);
        assertTrue(sum.addAll(block));
        block.clear();
        for (int m = 0; m < 1200; m++) {
            block.add(3, 2, 4);
        }
        assertTrue(sum.addAll(block), "grows past its first 1,024 entries to 1,202");
        assertEquals(1202, sum.size());
        assertFalse(sum.addAll(block), "2,402 moves pass the limit of 1,500");
        assertTrue(sum.complete());
        assertEquals(1202, sum.size());
        TopicWordDelta delta = sum.delta(new int[5]);
        assertArrayEquals(new int[] {3, 3, 3, 4, 4}, delta.words());
        assertArrayEquals(new int[] {1, 2, 4, 0, 1}, delta.topics());
        assertArrayEquals(new int[] {-1, -1199, 1200, -1, 1}, delta.changes());

        MoveLog full = new MoveLog(5, 10, 1024);
        for (int m = 0; m < 1025; m++) {
            full.add(1, 0, 1);
        }
        assertThrows(IllegalStateException.class, () -> sum.addAll(full));
        assertThrows(IllegalArgumentException.class, () -> sum.addAll(new MoveLog(6, 10, 1024)));
        assertThrows(IllegalArgumentException.class, () -> sum.addAll(new MoveLog(5, 11, 1024)));
    }
}
