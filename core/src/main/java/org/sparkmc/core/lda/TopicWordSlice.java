package org.sparkmc.core.lda;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;

/**
 * One word slice of the topic–word counts n_{k,w} (see {@link WordSlices}): the rows of the slice's words only, in
 * the layout of {@link TopicWordCounts} (each row's cells {@code count << topicBits | topic}, decreasing, or a wide
 * row's K plain counts), with a row index over the slice's own words. It is what model-parallel LDA moves between
 * document blocks, so it costs 4 bytes per non-zero cell plus 8 per word of the slice, never anything per word of the
 * whole vocabulary.
 * Immutable by contract.
 */
public final class TopicWordSlice implements Serializable {
    private static final long serialVersionUID = 2L; // 2: wide rows

    private final int slice;
    private final int numTopics;
    private final int wideAbove;
    private final int[] words;
    private final int[] rowStarts;
    private final int[] entries;
    // The slice's rows (indices into words) that are wide, increasing.
    private final int[] wideRows;

    private TopicWordSlice(int slice, int numTopics, int wideAbove, int[] words, int[] rowStarts, int[] entries,
            int[] wideRows) {
        this.slice = slice;
        this.numTopics = numTopics;
        this.wideAbove = wideAbove;
        this.words = words;
        this.rowStarts = rowStarts;
        this.entries = entries;
        this.wideRows = wideRows;
    }

    /**
     * The rows of {@code words} (increasing ids: a slice's words) cut from {@code counts}.
     *
     * @param slice the slice's id, carried along
     */
    public static TopicWordSlice of(int slice, int[] words, TopicWordCounts counts) {
        int[] starts = counts.rowStarts();
        int[] cells = counts.entries();
        int[] rows = new int[words.length + 1];
        TopicWordCounts.IntList wide = new TopicWordCounts.IntList(16);
        int n = 0;
        for (int i = 0; i < words.length; i++) {
            if (i > 0 && words[i] <= words[i - 1]) {
                throw new IllegalArgumentException("a slice's words must increase, at " + i);
            }
            n += starts[words[i] + 1] - starts[words[i]];
            rows[i + 1] = n;
            if (counts.isWide(words[i])) {
                wide.add(i);
            }
        }
        int[] out = new int[n];
        for (int i = 0; i < words.length; i++) {
            System.arraycopy(cells, starts[words[i]], out, rows[i], rows[i + 1] - rows[i]);
        }
        return new TopicWordSlice(slice, counts.numTopics(), counts.wideAbove(), words, rows, out, wide.toArray());
    }

    /** Every slice of {@code counts}, in slice order. */
    public static TopicWordSlice[] cut(TopicWordCounts counts, WordSlices slices) {
        TopicWordSlice[] out = new TopicWordSlice[slices.numSlices()];
        for (int j = 0; j < out.length; j++) {
            out[j] = of(j, slices.words(j), counts);
        }
        return out;
    }

    /**
     * The sum of two counts of the same slice (each cell's counts added): how the blocks' shares of the initial
     * counts combine. Canonical: the result does not depend on the order of the additions.
     */
    public TopicWordSlice plus(TopicWordSlice other) {
        if (other.slice != slice || other.numTopics != numTopics || other.wideAbove != wideAbove
                || !Arrays.equals(other.words, words)) {
            throw new IllegalArgumentException("slices " + slice + " and " + other.slice
                    + " differ in words, K or row layout");
        }
        int[] dense = new int[numTopics];
        int[] touched = new int[numTopics];
        int[] topics = new int[numTopics];
        int[] counts = new int[numTopics];
        int[] rows = new int[words.length + 1];
        int[] unusedTotals = new int[numTopics];
        TopicWordCounts.IntList out = new TopicWordCounts.IntList(entries.length + other.entries.length);
        TopicWordCounts.IntList wide = new TopicWordCounts.IntList(16);
        for (int i = 0; i < words.length; i++) {
            int n = 0;
            for (TopicWordSlice s : List.of(this, other)) {
                int cells = s.row(i, topics, counts);
                for (int c = 0; c < cells; c++) {
                    int k = topics[c];
                    if (dense[k] == 0) {
                        touched[n++] = k;
                    }
                    dense[k] += counts[c];
                }
            }
            TopicWordCounts.appendRow(out, wide, i, dense, touched, n, numTopics, wideAbove, unusedTotals);
            rows[i + 1] = out.size;
        }
        return new TopicWordSlice(slice, numTopics, wideAbove, words, rows, out.toArray(), wide.toArray());
    }

    /** Row i (the slice's i-th word) as its non-zero (topic, count) pairs; returns their number. */
    private int row(int i, int[] topics, int[] counts) {
        return TopicWordCounts.decode(entries, rowStarts[i], rowStarts[i + 1], isWideRow(i),
                TopicWordCounts.topicBits(numTopics), topics, counts);
    }

    private boolean isWideRow(int i) {
        return TopicWordCounts.isListed(wideRows, i);
    }

    /**
     * These rows as counts over the whole vocabulary of {@code vocabularySize} words (the other rows empty) with the
     * given topic totals: what a {@link SparseLdaSampler} samples the slice's tokens against. Shares this slice's
     * cells; allocates W + 1 row offsets.
     */
    public TopicWordCounts asCounts(int vocabularySize, int[] topicTotals) {
        if (topicTotals.length != numTopics) {
            throw new IllegalArgumentException(topicTotals.length + " topic totals for K=" + numTopics);
        }
        int[] starts = new int[vocabularySize + 1];
        int i = 0;
        for (int w = 0; w < vocabularySize; w++) {
            if (i < words.length && words[i] == w) {
                i++;
            }
            starts[w + 1] = rowStarts[i];
        }
        if (i != words.length) {
            throw new IllegalArgumentException("slice " + slice + " has words beyond W = " + vocabularySize);
        }
        int[] wideWords = new int[wideRows.length];
        for (int j = 0; j < wideRows.length; j++) {
            wideWords[j] = words[wideRows[j]];
        }
        return TopicWordCounts.wrap(numTopics, vocabularySize, wideAbove, starts, entries, wideWords, topicTotals);
    }

    /** The counts of every slice put together, the topic totals being their column sums. */
    public static TopicWordCounts assemble(List<TopicWordSlice> slices, int vocabularySize) {
        if (slices.isEmpty()) {
            throw new IllegalArgumentException("no slices to assemble");
        }
        int k = slices.get(0).numTopics;
        int wideAbove = slices.get(0).wideAbove;
        int[] rowOf = new int[vocabularySize];
        TopicWordSlice[] owner = new TopicWordSlice[vocabularySize];
        int[] totals = new int[k];
        long cells = 0;
        for (TopicWordSlice s : slices) {
            if (s.numTopics != k || s.wideAbove != wideAbove) {
                throw new IllegalArgumentException("slices for K=" + s.numTopics + " and K=" + k
                        + ", or of different row layouts");
            }
            for (int i = 0; i < s.words.length; i++) {
                if (owner[s.words[i]] != null) {
                    throw new IllegalArgumentException("word " + s.words[i] + " is in two slices");
                }
                owner[s.words[i]] = s;
                rowOf[s.words[i]] = i;
            }
            int[] t = s.topicSums();
            for (int j = 0; j < k; j++) {
                totals[j] += t[j];
            }
            cells += s.entries.length;
        }
        int[] starts = new int[vocabularySize + 1];
        int[] out = new int[Math.toIntExact(cells)];
        TopicWordCounts.IntList wide = new TopicWordCounts.IntList(16);
        int n = 0;
        for (int w = 0; w < vocabularySize; w++) {
            TopicWordSlice s = owner[w];
            if (s == null) {
                throw new IllegalArgumentException("word " + w + " is in no slice");
            }
            int len = s.rowStarts[rowOf[w] + 1] - s.rowStarts[rowOf[w]];
            System.arraycopy(s.entries, s.rowStarts[rowOf[w]], out, n, len);
            n += len;
            starts[w + 1] = n;
            if (s.isWideRow(rowOf[w])) {
                wide.add(w);
            }
        }
        return TopicWordCounts.wrap(k, vocabularySize, wideAbove, starts, out, wide.toArray(), totals);
    }

    /** Σ_w n_{k,w} over the slice's words, for every topic k. */
    public int[] topicSums() {
        int[] sums = new int[numTopics];
        int[] topics = new int[numTopics];
        int[] counts = new int[numTopics];
        for (int i = 0; i < words.length; i++) {
            int n = row(i, topics, counts);
            for (int c = 0; c < n; c++) {
                sums[topics[c]] += counts[c];
            }
        }
        return sums;
    }

    /** The slice's cells' share of log p(w | z): Σ over its non-zero cells of lnΓ(n_{k,w} + β) − lnΓ(β). */
    public double cellTerm(double beta) {
        return LdaLogLikelihood.cellTerm(entries, rowStarts, wideRows, TopicWordCounts.topicBits(numTopics), beta);
    }

    public int slice() {
        return slice;
    }

    public int numTopics() {
        return numTopics;
    }

    /** The slice's words, increasing (shared, read-only by contract). */
    public int[] words() {
        return words;
    }

    /** The number of stored cells: the non-zero (word, topic) cells, and K for each wide row. */
    public int nonZeros() {
        return entries.length;
    }

    /** Bytes of the arrays' payload: what moving this slice between executors carries before serialisation. */
    public long payloadBytes() {
        return 4L * (words.length + rowStarts.length + entries.length + wideRows.length);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TopicWordSlice s && s.slice == slice && s.numTopics == numTopics
                && s.wideAbove == wideAbove && Arrays.equals(s.wideRows, wideRows) && Arrays.equals(s.words, words)
                && Arrays.equals(s.rowStarts, rowStarts) && Arrays.equals(s.entries, entries);
    }

    @Override
    public int hashCode() {
        return 31 * slice + Arrays.hashCode(entries);
    }
}
