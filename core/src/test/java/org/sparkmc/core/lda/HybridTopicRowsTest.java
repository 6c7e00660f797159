package org.sparkmc.core.lda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.random.RandomStreams;

/** The hybrid rows hold what a dense table would, whatever the order of increments, removals and resets. */
class HybridTopicRowsTest {
    /**
     * Random moves of every word's tokens between topics (a token leaves one topic and joins another, so totals stay),
     * with many topics emptied and refilled, checked after every move against a dense table: every lookup, and the
     * rows' cells as counts. Hash rows of 2 to 64 slots at half load wrap around and form clusters, so removals must
     * shift entries back correctly for the lookups to find them.
     */
    @Test
    void movesKeepEveryLookupEqualToADenseTable() {
        int k = 100;
        int w = 6;
        int[] totals = {1, 3, 10, 40, 49, 300};
        for (HybridTopicRows.Layout layout : HybridTopicRows.Layout.values()) {
            UniformRandomProvider rng = new RandomStreams(5).stream("rows", layout.ordinal());
            int[] dense = new int[w * k];
            int[][] tokens = new int[w][];
            for (int v = 0; v < w; v++) {
                tokens[v] = new int[totals[v]];
                for (int i = 0; i < totals[v]; i++) {
                    tokens[v][i] = rng.nextInt(k);
                    dense[v * k + tokens[v][i]]++;
                }
            }
            HybridTopicRows rows = HybridTopicRows.of(TopicWordCounts.fromDense(dense, k, w), totals, layout);
            for (int move = 0; move < 20_000; move++) {
                int v = rng.nextInt(w);
                int i = rng.nextInt(totals[v]);
                // mostly among a few topics, so counts climb and fall to zero often
                int to = rng.nextInt(4) == 0 ? rng.nextInt(k) : rng.nextInt(8) * 13;
                rows.decrement(v, tokens[v][i]);
                dense[v * k + tokens[v][i]]--;
                rows.increment(v, to);
                dense[v * k + to]++;
                tokens[v][i] = to;
                for (int t = 0; t < k; t++) {
                    assertEquals(dense[v * k + t], rows.get(v, t), layout + ": word " + v + ", topic " + t);
                }
            }
            TopicWordCounts.IntList cells = new TopicWordCounts.IntList(16);
            int[] starts = new int[w + 1];
            for (int v = 0; v < w; v++) {
                rows.appendRow(v, cells, false);
                starts[v + 1] = cells.size;
            }
            TopicWordCounts expected = TopicWordCounts.fromDense(dense, k, w);
            assertEquals(expected, TopicWordCounts.ofPacked(k, w, TopicWordCounts.maxCellCount(k), starts,
                    cells.toArray(), new int[0], expected.topicTotals().clone()), layout.toString());
        }
    }

    /** The hybrid rule: a hash row of 2^⌈log2 2·min(K, t)⌉ slots, dense once that reaches K; no row without tokens. */
    @Test
    void rowsAreSizedByTheirWordsTotals() {
        int k = 1000;
        int[] totals = {0, 1, 2, 3, 256, 257, 5000};
        int[] dense = new int[totals.length * k];
        for (int v = 0; v < totals.length; v++) {
            dense[v * k] = totals[v];
        }
        HybridTopicRows rows = HybridTopicRows.of(TopicWordCounts.fromDense(dense, k, totals.length), totals,
                HybridTopicRows.Layout.HYBRID);
        boolean[] isDense = {false, false, false, false, false, true, true};
        for (int v = 0; v < totals.length; v++) {
            assertEquals(isDense[v], rows.isDense(v), "word " + v);
        }
        // slots: 0, 2, 4, 8, 512, then two dense rows of K; plus the 2W index
        long ints = 2 + 4 + 8 + 512 + 2L * k + 2L * totals.length;
        assertEquals(4 * ints, rows.bytes());
        assertEquals(rows.bytes(), HybridTopicRows.bytes(k, totals));
        assertEquals(2, rows.denseRows());
        assertEquals(4, rows.hashRows());
        assertEquals(0, rows.get(0, 3), "a word without a row has no counts");
    }

    /** A reset row holds exactly the cells given; a removal below zero in a hash row is refused. */
    @Test
    void setRowReplacesARowAndRemovingAnAbsentTopicFails() {
        int k = 64;
        int[] totals = {6};
        int[] dense = new int[k];
        dense[3] = 4;
        dense[40] = 2;
        TopicWordCounts start = TopicWordCounts.fromDense(dense, k, 1);
        HybridTopicRows rows = HybridTopicRows.of(start, totals, HybridTopicRows.Layout.HYBRID);
        assertFalse(rows.isDense(0));
        rows.decrement(0, 3);
        rows.increment(0, 7);
        rows.setRow(0, start.entries(), 0, start.entries().length, false);
        int[] now = new int[k];
        Arrays.setAll(now, t -> rows.get(0, t));
        assertTrue(Arrays.equals(dense, now));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> rows.decrement(0, 5));
        assertTrue(e.getMessage().contains("topic 5"), e.getMessage());
    }
}
