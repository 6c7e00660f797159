package org.sparkmc.core.lda;

import java.util.Arrays;

/**
 * The bookkeeping behind {@link SparseLdaSampler#delta} and {@link SparseLdaSampler#restore}: the sampler's local
 * topic–word rows (laid out as the sampler keeps them) against the {@link TopicWordCounts} it was made from or last
 * restored to. The sampler marks a word's bit in {@code changed} whenever it changes that word's row, and logs each
 * token's topic move ({@link MoveLog}); against those counts, the restore copies only the marked rows, and the delta
 * sums the log where that is the cheaper ({@link #cellsOfBothSides}) and otherwise compares only the marked rows, in
 * increasing word order; {@link #addDelta} hands the log to a {@link DeltaSum} unsummed under a lower bar, where the
 * sum groups it with the task's other logs. Against any other counts they visit every word of the documents given.
 * Shares the sampler's arrays: reads them, and only {@link #restore} writes them.
 */
final class ChangedRows {
    private final int numTopics;
    private final int vocabularySize;
    private final int bits;
    private final int mask;
    private final int[] rows;
    private final int[] cells;
    private final int[] topicTotals;
    private final long[] changed;
    private final MoveLog moves;
    /** The counts the rows were copied from or last restored to. */
    private TopicWordCounts base;

    /** {@link #delta} sums the log when its moves are fewer than the compared cells divided by this. */
    private static final long CELLS_A_MOVE_FOR_DELTA = 3;
    /**
     * {@link #addDelta} hands the log over when its moves are fewer than the compared cells divided by this: an
     * appended log costs a copy, and the sum groups all its logs once, whereas a compared block's delta is built and
     * then summed with the task's others.
     */
    private static final long CELLS_A_MOVE_FOR_SUM = 1;

    /**
     * @param rows    the sampler's row table: row w is {@code cells[rows[2w]]} on, {@code rows[2w+1]} packed cells
     *                long, or K plain counts when {@code rows[2w+1]} is {@link SparseLdaSampler#WIDE}
     * @param changed one bit a word, set by the sampler when the word's row changes
     * @param moves   the topic moves of the sampler's tokens, recorded by the sampler
     * @param base    the counts the rows hold now
     */
    ChangedRows(int numTopics, int bits, int[] rows, int[] cells, int[] topicTotals, long[] changed,
            MoveLog moves, TopicWordCounts base) {
        this.numTopics = numTopics;
        this.vocabularySize = base.vocabularySize();
        this.bits = bits;
        this.mask = (1 << bits) - 1;
        this.rows = rows;
        this.cells = cells;
        this.topicTotals = topicTotals;
        this.changed = changed;
        this.moves = moves;
        this.base = base;
    }

    /** The rows' and topic totals' change from {@code before}, over the words of {@code docs}. */
    TopicWordDelta delta(TopicWordCounts before, Corpus docs) {
        before.requireShape(numTopics, vocabularySize, "this sampler");
        int[] topicChanges = before.topicChangesTo(topicTotals);
        int[] words = before == base ? changedWordsInOrder() : docs.distinctWords();
        return logCheaper(before, words, CELLS_A_MOVE_FOR_DELTA) ? moves.delta(topicChanges)
                : compareRows(before, words, topicChanges);
    }

    /**
     * Adds {@link #delta} to {@code sum}: the logged moves themselves, unless the changed rows hold fewer cells than
     * the log has moves ({@link #CELLS_A_MOVE_FOR_SUM}).
     */
    void addDelta(DeltaSum sum, TopicWordCounts before, Corpus docs) {
        before.requireShape(numTopics, vocabularySize, "this sampler");
        int[] topicChanges = before.topicChangesTo(topicTotals);
        int[] words = before == base ? changedWordsInOrder() : docs.distinctWords();
        if (logCheaper(before, words, CELLS_A_MOVE_FOR_SUM)) {
            sum.add(moves, topicChanges);
        } else {
            sum.add(compareRows(before, words, topicChanges));
        }
    }

    /**
     * Whether the log holds the whole change from {@code before} and has fewer moves than the cells of
     * {@code words}' rows on both sides divided by {@code cellsAMove}.
     */
    private boolean logCheaper(TopicWordCounts before, int[] words, long cellsAMove) {
        return before == base && moves.complete() && cellsAMove * moves.size() < cellsOfBothSides(before, words);
    }

    /** Copies {@code before}'s rows of the words of {@code docs}, and its topic totals, into the shared arrays. */
    void restore(TopicWordCounts before, Corpus docs) {
        before.requireShape(numTopics, vocabularySize, "this sampler");
        int[] srcStarts = before.rowStarts();
        int[] src = before.entries();
        int[] words = before == base ? changedWordsInOrder() : docs.distinctWords();
        for (int w : words) {
            int n = srcStarts[w + 1] - srcStarts[w];
            checkWide(before, w);
            System.arraycopy(src, srcStarts[w], cells, rows[2 * w], n);
            if (rows[2 * w + 1] != SparseLdaSampler.WIDE) {
                rows[2 * w + 1] = n;
            }
        }
        Arrays.fill(changed, 0L);
        moves.clear();
        base = before;
        System.arraycopy(before.topicTotals(), 0, topicTotals, 0, numTopics);
    }

    /** The change since the counts were made or last restored as the move log sums it; null if it is incomplete. */
    TopicWordDelta deltaFromMoves() {
        return moves.complete() ? moves.delta(base.topicChangesTo(topicTotals)) : null;
    }

    /**
     * The cells the row comparison would read for {@code words}: their rows here and in {@code before}. Summing the
     * move log costs 1.2–1.4 times as much an entry (two a move) as the comparison a cell (JMH
     * {@code AdLdaBlockWorkBenchmark}, KOS after 50 sweeps: 16 ns an entry against 13 ns a cell at K = 100, 20 against
     * 14 at K = 1,000), so a block's delta sums the log when it has fewer than a third as many moves as these cells;
     * a task's {@link DeltaSum} takes it with fewer moves than cells.
     */
    private long cellsOfBothSides(TopicWordCounts before, int[] words) {
        int[] starts = before.rowStarts();
        long cells = 0;
        for (int w : words) {
            cells += (rows[2 * w + 1] == SparseLdaSampler.WIDE ? numTopics : rows[2 * w + 1]) + starts[w + 1]
                    - starts[w];
        }
        return cells;
    }

    /** The words whose rows changed since the sampler was made or last restored, in increasing order. */
    private int[] changedWordsInOrder() {
        int n = 0;
        for (long marks : changed) {
            n += Long.bitCount(marks);
        }
        int[] words = new int[n];
        n = 0;
        for (int i = 0; i < changed.length; i++) {
            for (long m = changed[i]; m != 0; m &= m - 1) {
                words[n++] = i << 6 | Long.numberOfTrailingZeros(m);
            }
        }
        return words;
    }

    /** Row w is laid out alike here and in {@code before} (wide in both or packed in both). */
    private void checkWide(TopicWordCounts before, int w) {
        boolean wide = before.isWide(w);
        if (wide != (rows[2 * w + 1] == SparseLdaSampler.WIDE)) {
            throw new IllegalArgumentException("word " + w + "'s row is " + (wide ? "" : "not ")
                    + "wide in the given counts but is " + (wide ? "not " : "") + "here");
        }
    }

    /** Adds {@code sign} times a wide row's K counts from {@code at} into {@code dense}, marking their topics. */
    private void addWideRow(int[] counts, int at, int sign, int[] dense, long[] touched) {
        for (int k = 0; k < numTopics; k++) {
            if (counts[at + k] != 0) {
                dense[k] += sign * counts[at + k];
                touched[k >>> 6] |= 1L << k;
            }
        }
    }

    /** Cell changes in (word, topic) order, as three parallel lists. */
    private record RowChanges(TopicWordCounts.IntList words, TopicWordCounts.IntList topics,
            TopicWordCounts.IntList counts) {
        RowChanges() {
            this(new TopicWordCounts.IntList(1024), new TopicWordCounts.IntList(1024),
                    new TopicWordCounts.IntList(1024));
        }

        void add(int w, int k, int change) {
            words.add(w);
            topics.add(k);
            counts.add(change);
        }
    }

    /**
     * The local rows of {@code changedWords} (increasing) minus {@code before}'s, cell by cell, without zeros. The
     * packed cells are read in place; a row wide on both sides is compared topic by topic. {@code before} may lay
     * rows out differently (a row wide on one side only), as empty counts do; with the topic totals' change
     * {@code topicChanges}.
     */
    private TopicWordDelta compareRows(TopicWordCounts before, int[] changedWords, int[] topicChanges) {
        int[] srcStarts = before.rowStarts();
        int[] src = before.entries();
        RowChanges out = new RowChanges();
        int[] dense = new int[numTopics];
        // the topics a row touches, as bits: visited in increasing topic order without sorting
        long[] touched = new long[(numTopics + 63) >>> 6];
        for (int w : changedWords) {
            int from = rows[2 * w];
            boolean localWide = rows[2 * w + 1] == SparseLdaSampler.WIDE;
            boolean beforeWide = before.isWide(w);
            if (localWide && beforeWide) {
                for (int k = 0, at = srcStarts[w]; k < numTopics; k++, at++) {
                    int change = cells[from + k] - src[at];
                    if (change != 0) {
                        out.add(w, k, change);
                    }
                }
                continue;
            }
            int lo = touched.length;
            int hi = -1;
            if (localWide || beforeWide) { // one side wide (counts of another layout, such as empty ones)
                lo = 0;
                hi = touched.length - 1;
                addWideRow(localWide ? cells : src, localWide ? from : srcStarts[w], localWide ? 1 : -1, dense,
                        touched);
            }
            for (int e = from, to = localWide ? from : from + rows[2 * w + 1]; e < to; e++) {
                int k = cells[e] & mask;
                dense[k] += cells[e] >>> bits;
                touched[k >>> 6] |= 1L << k;
                lo = Math.min(lo, k >>> 6);
                hi = Math.max(hi, k >>> 6);
            }
            for (int e = srcStarts[w], to = beforeWide ? e : srcStarts[w + 1]; e < to; e++) {
                int k = src[e] & mask;
                dense[k] -= src[e] >>> bits;
                touched[k >>> 6] |= 1L << k;
                lo = Math.min(lo, k >>> 6);
                hi = Math.max(hi, k >>> 6);
            }
            for (int i = lo; i <= hi; i++) {
                for (long m = touched[i]; m != 0; m &= m - 1) {
                    int k = i << 6 | Long.numberOfTrailingZeros(m);
                    if (dense[k] != 0) {
                        out.add(w, k, dense[k]);
                    }
                    dense[k] = 0;
                }
                touched[i] = 0;
            }
        }
        return new TopicWordDelta(numTopics, vocabularySize, out.words().toArray(), out.topics().toArray(),
                out.counts().toArray(), topicChanges);
    }
}
