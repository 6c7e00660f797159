package org.sparkmc.core.lda;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;

/**
 * The global LDA count statistics of a topic assignment z: n_{k,w} (tokens of word w in topic k) and n_k (tokens in
 * topic k), in the compact sparse form that AD-LDA broadcasts to every document block (Newman et al. 2009).
 *
 * <p>Row w lists only the topics with n_{k,w} &gt; 0, each as one packed int {@code count << topicBits | topic}
 * (the layout Mallet's SparseLDA uses; Yao, Mimno &amp; McCallum 2009), sorted by decreasing packed value — so by
 * decreasing count, which is the order the sparse sampler scans. Storage is 4 bytes per non-zero cell, plus
 * 4(W+1) for row offsets and 4K for the totals; the number of non-zero cells is at most min(N, W·K).
 *
 * <p>A packed cell holds a count up to {@link #maxCellCount(int)} = 2^(31 − topicBits) − 1 (2,097,151 at K = 1,000;
 * 131,071 at K = 10^4). A word with more tokens than that (more than {@link #wideAbove()}) has a <em>wide</em> row
 * instead: K plain counts in topic order, zeros included ({@link #isWide}). Wide rows are few and dense anyway (such
 * a word has over 100 tokens per topic at any K up to 2^15), so they cost about what packed cells would; every
 * reader goes through {@link #row} or {@link #decode}, which give the non-zero cells of either kind.
 *
 * <p>Immutable by contract (the arrays are shared with the samplers that copy from them, never written).
 */
public final class TopicWordCounts implements Serializable {
    private static final long serialVersionUID = 2L; // 2: wide rows

    private final int numTopics;
    private final int vocabularySize;
    private final int topicBits;
    private final int wideAbove;
    private final int[] rowStarts;
    private final int[] entries;
    private final int[] wideRows;
    private final int[] topicTotals;

    private TopicWordCounts(int numTopics, int vocabularySize, int wideAbove, int[] rowStarts, int[] entries,
            int[] wideRows, int[] topicTotals) {
        this.numTopics = numTopics;
        this.vocabularySize = vocabularySize;
        this.topicBits = topicBits(numTopics);
        this.wideAbove = wideAbove;
        this.rowStarts = rowStarts;
        this.entries = entries;
        this.wideRows = wideRows;
        this.topicTotals = topicTotals;
    }

    /** Bits used for the topic id inside a packed cell: enough for K − 1, at least 1. */
    public static int topicBits(int numTopics) {
        return Math.max(1, 32 - Integer.numberOfLeadingZeros(numTopics - 1));
    }

    /** All counts zero. */
    public static TopicWordCounts empty(int numTopics, int vocabularySize) {
        checkSizes(numTopics, vocabularySize);
        return new TopicWordCounts(numTopics, vocabularySize, maxCellCount(numTopics), new int[vocabularySize + 1],
                new int[0], new int[0], new int[numTopics]);
    }

    /** The counts of an assignment: token i of {@code corpus} in topic {@code topics[i]}. */
    public static TopicWordCounts of(Corpus corpus, char[] topics, int numTopics) {
        if (topics.length != corpus.numTokens()) {
            throw new IllegalArgumentException(topics.length + " topics for " + corpus.numTokens() + " tokens");
        }
        int w = corpus.vocabularySize();
        checkSizes(numTopics, w);
        int[] words = corpus.words();
        int[] order = new int[words.length];
        int[] starts = new int[w + 1];
        for (int word : words) {
            starts[word + 1]++;
        }
        for (int v = 0; v < w; v++) {
            starts[v + 1] += starts[v];
        }
        int[] fill = Arrays.copyOf(starts, w);
        for (int i = 0; i < words.length; i++) {
            order[fill[words[i]]++] = i;
        }
        int[] dense = new int[numTopics];
        int[] touched = new int[numTopics];
        int[] rowStarts = new int[w + 1];
        int[] totals = new int[numTopics];
        IntList out = new IntList(Math.min(words.length, 1 << 20));
        IntList wide = new IntList(16);
        int wideAbove = maxCellCount(numTopics);
        for (int v = 0; v < w; v++) {
            int n = 0;
            for (int j = starts[v]; j < starts[v + 1]; j++) {
                int k = topics[order[j]];
                if (k >= numTopics) {
                    throw new IllegalArgumentException("topic " + k + " at token " + order[j] + " >= K=" + numTopics);
                }
                if (dense[k]++ == 0) {
                    touched[n++] = k;
                }
            }
            appendRow(out, wide, v, dense, touched, n, numTopics, wideAbove, totals);
            rowStarts[v + 1] = out.size;
        }
        return new TopicWordCounts(numTopics, w, wideAbove, rowStarts, out.toArray(), wide.toArray(), totals);
    }

    /** Counts from a dense word-major matrix: {@code counts[w * K + k]} = n_{k,w} (e.g. another sampler's). */
    public static TopicWordCounts fromDense(int[] counts, int numTopics, int vocabularySize) {
        return fromDense(counts, numTopics, vocabularySize, maxCellCount(numTopics));
    }

    /** As {@link #fromDense(int[], int, int)}, rows of more than {@code wideAbove} tokens stored wide. */
    static TopicWordCounts fromDense(int[] counts, int numTopics, int vocabularySize, int wideAbove) {
        checkSizes(numTopics, vocabularySize);
        if (counts.length != (long) numTopics * vocabularySize) {
            throw new IllegalArgumentException(counts.length + " counts for W·K = " + vocabularySize + "·" + numTopics);
        }
        int[] dense = new int[numTopics];
        int[] touched = new int[numTopics];
        int[] rowStarts = new int[vocabularySize + 1];
        int[] totals = new int[numTopics];
        IntList out = new IntList(1 << 16);
        IntList wide = new IntList(16);
        for (int v = 0; v < vocabularySize; v++) {
            int n = 0;
            for (int k = 0; k < numTopics; k++) {
                int c = counts[v * numTopics + k];
                if (c < 0) {
                    throw new IllegalArgumentException("negative count at word " + v + ", topic " + k);
                }
                if (c > 0) {
                    dense[k] = c;
                    touched[n++] = k;
                }
            }
            appendRow(out, wide, v, dense, touched, n, numTopics, wideAbove, totals);
            rowStarts[v + 1] = out.size;
        }
        return new TopicWordCounts(numTopics, vocabularySize, wideAbove, rowStarts, out.toArray(), wide.toArray(),
                totals);
    }

    /**
     * The same counts with every row of more than {@code wideAbove} tokens stored wide: for tests, which reach wide
     * rows on small corpora this way (every count derived from these keeps the threshold).
     */
    TopicWordCounts withWideRowsAbove(int wideAbove) {
        if (wideAbove < 0 || wideAbove > maxCellCount(numTopics)) {
            throw new IllegalArgumentException("wide rows above " + wideAbove + " tokens: must be in [0, "
                    + maxCellCount(numTopics) + "]");
        }
        return fromDense(toDense(), numTopics, vocabularySize, wideAbove);
    }

    /**
     * The global counts after adding every block's changes (AD-LDA's merge step). The result is canonical — it
     * depends only on the counts, not on the order of the deltas — so the next sweep's draws do not depend on
     * which executor finished first.
     *
     * @throws IllegalStateException if a count would become negative (deltas that were not made against these
     *     counts' assignment)
     */
    public TopicWordCounts plus(List<TopicWordDelta> deltas) {
        for (TopicWordDelta d : deltas) {
            if (d.numTopics() != numTopics || d.vocabularySize() != vocabularySize) {
                throw new IllegalArgumentException("delta for K=" + d.numTopics() + ", W=" + d.vocabularySize()
                        + " added to counts for K=" + numTopics + ", W=" + vocabularySize);
            }
        }
        int p = deltas.size();
        int[] at = new int[p];
        // the row being merged: its topics in touched[0..n), their counts in dense (zero elsewhere); stamp[k] is
        // v + 1 once topic k is in word v's touched list, so nothing needs resetting between rows
        int[] dense = new int[numTopics];
        int[] stamp = new int[numTopics];
        int[] touched = new int[numTopics];
        int[] totals = topicTotals.clone();
        long extra = 0;
        for (TopicWordDelta d : deltas) {
            extra += d.size();
            for (int k = 0; k < numTopics; k++) {
                totals[k] += d.topicChange(k);
            }
        }
        for (int k = 0; k < numTopics; k++) {
            if (totals[k] < 0) {
                throw new IllegalStateException("topic " + k + " total would become " + totals[k]);
            }
        }
        IntList out = new IntList((int) Math.min(Integer.MAX_VALUE - 8, entries.length + extra));
        IntList wide = new IntList(wideRows.length + 16);
        int[] newStarts = new int[vocabularySize + 1];
        int[] unusedTotals = new int[numTopics];
        int mask = (1 << topicBits) - 1;
        for (int v = 0; v < vocabularySize; v++) {
            boolean changed = false;
            for (int j = 0; j < p && !changed; j++) {
                TopicWordDelta d = deltas.get(j);
                changed = at[j] < d.size() && d.word(at[j]) == v;
            }
            boolean wideRow = isWide(v);
            if (!changed) {
                out.addAll(entries, rowStarts[v], rowStarts[v + 1]);
                newStarts[v + 1] = out.size;
                if (wideRow) {
                    wide.add(v);
                }
                continue;
            }
            int n = 0;
            int mark = v + 1;
            for (int e = rowStarts[v]; e < rowStarts[v + 1]; e++) {
                int k = wideRow ? e - rowStarts[v] : entries[e] & mask;
                int c = wideRow ? entries[e] : entries[e] >>> topicBits;
                if (c != 0) {
                    dense[k] = c;
                    stamp[k] = mark;
                    touched[n++] = k;
                }
            }
            for (int j = 0; j < p; j++) {
                TopicWordDelta d = deltas.get(j);
                int[] dw = d.words();
                int[] dt = d.topics();
                int[] dc = d.changes();
                int e = at[j];
                for (; e < dw.length && dw[e] == v; e++) {
                    int k = dt[e];
                    if (stamp[k] != mark) {
                        stamp[k] = mark;
                        touched[n++] = k;
                    }
                    dense[k] += dc[e];
                }
                at[j] = e;
            }
            int m = 0;
            for (int i = 0; i < n; i++) {
                int k = touched[i];
                int c = dense[k];
                if (c > 0) {
                    touched[m++] = k;
                } else if (c < 0) {
                    throw new IllegalStateException("count of word " + v + " in topic " + k + " would become " + c);
                }
            }
            appendRow(out, wide, v, dense, touched, m, numTopics, wideAbove, unusedTotals);
            newStarts[v + 1] = out.size;
        }
        return new TopicWordCounts(numTopics, vocabularySize, wideAbove, newStarts, out.toArray(), wide.toArray(),
                totals);
    }

    /**
     * Counts from rows already in the canonical form (taken, not checked): for the model-parallel slices.
     *
     * @param wideRows the words whose rows are wide, increasing
     */
    static TopicWordCounts wrap(int numTopics, int vocabularySize, int wideAbove, int[] rowStarts, int[] entries,
            int[] wideRows, int[] topicTotals) {
        return new TopicWordCounts(numTopics, vocabularySize, wideAbove, rowStarts, entries, wideRows, topicTotals);
    }

    /**
     * Counts from rows (taken) whose packed rows may be in any order: each is re-sorted into the canonical
     * decreasing order (the wide rows, {@code wideRows}, are in topic order already).
     */
    static TopicWordCounts ofPacked(int numTopics, int vocabularySize, int wideAbove, int[] rowStarts, int[] entries,
            int[] wideRows, int[] topicTotals) {
        int next = 0;
        for (int v = 0; v < vocabularySize; v++) {
            if (next < wideRows.length && wideRows[next] == v) {
                next++;
            } else {
                DescendingSort.sort(entries, rowStarts[v], rowStarts[v + 1]);
            }
        }
        return new TopicWordCounts(numTopics, vocabularySize, wideAbove, rowStarts, entries, wideRows, topicTotals);
    }

    /**
     * Appends row {@code row} from dense[touched[0..n)] (resetting them to 0), adding its counts to {@code totals}:
     * packed cells sorted by decreasing value, or — if the row has more than {@code wideAbove} tokens — K plain
     * counts in topic order, the row then added to {@code wide}.
     */
    static void appendRow(IntList out, IntList wide, int row, int[] dense, int[] touched, int n, int numTopics,
            int wideAbove, int[] totals) {
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += dense[touched[i]];
        }
        boolean isWide = sum > wideAbove;
        if (isWide) {
            wide.add(row);
            out.addAll(dense, 0, numTopics);
        }
        int bits = topicBits(numTopics);
        int from = out.size;
        for (int i = 0; i < n; i++) {
            int k = touched[i];
            int c = dense[k];
            dense[k] = 0;
            totals[k] += c;
            if (!isWide) {
                out.add(c << bits | k);
            }
        }
        DescendingSort.sort(out.data, from, out.size);
    }

    /** Whether {@code row} is among {@code wideRows} (increasing row ids: a word's, or a slice's row index). */
    static boolean isListed(int[] wideRows, int row) {
        return wideRows.length > 0 && Arrays.binarySearch(wideRows, row) >= 0;
    }

    /**
     * The non-zero cells of one row stored in {@code cells[from, to)} — packed, or wide (K plain counts) — as
     * (topic, count) pairs in {@code topics[0..n)}, {@code counts[0..n)}, in the stored order; returns n.
     */
    static int decode(int[] cells, int from, int to, boolean wide, int topicBits, int[] topics, int[] counts) {
        int n = 0;
        if (wide) {
            for (int e = from; e < to; e++) {
                if (cells[e] != 0) {
                    topics[n] = e - from;
                    counts[n++] = cells[e];
                }
            }
        } else {
            int mask = (1 << topicBits) - 1;
            for (int e = from; e < to; e++) {
                topics[n] = cells[e] & mask;
                counts[n++] = cells[e] >>> topicBits;
            }
        }
        return n;
    }

    private static void checkSizes(int numTopics, int vocabularySize) {
        if (numTopics < 1 || numTopics > LdaPriors.MAX_TOPICS) {
            throw new IllegalArgumentException("number of topics must be in [1, 65535], is " + numTopics);
        }
        if (vocabularySize < 1) {
            throw new IllegalArgumentException("vocabulary size must be positive, is " + vocabularySize);
        }
    }

    /**
     * Checks that these counts are for {@code numTopics} topics over {@code vocabularySize} words, the shape of
     * {@code user} (named in the error).
     *
     * @throws IllegalArgumentException if they are not
     */
    public void requireShape(int numTopics, int vocabularySize, String user) {
        if (this.numTopics != numTopics || this.vocabularySize != vocabularySize) {
            throw new IllegalArgumentException("counts for K=" + this.numTopics + ", W=" + this.vocabularySize + "; "
                    + user + " is for K=" + numTopics + ", W=" + vocabularySize);
        }
    }

    public int numTopics() {
        return numTopics;
    }

    public int vocabularySize() {
        return vocabularySize;
    }

    public int topicBits() {
        return topicBits;
    }

    /** The largest count one (word, topic) cell holds in the packed layout with K topics: 2^(31 − topicBits) − 1. */
    public static int maxCellCount(int numTopics) {
        return (1 << (31 - topicBits(numTopics))) - 1;
    }

    /**
     * The most cells counts with these word totals store: Σ_w min(K, t_w), a word whose row is wide (more tokens
     * than {@link #maxCellCount(int)}) taking K.
     */
    public static long cellBound(int numTopics, int[] wordTotals) {
        long cells = 0;
        int wideAbove = maxCellCount(numTopics);
        for (int t : wordTotals) {
            cells += t > wideAbove ? numTopics : Math.min(numTopics, t);
        }
        return cells;
    }

    /** A row with more tokens than this is stored wide (K plain counts) rather than as packed cells. */
    public int wideAbove() {
        return wideAbove;
    }

    /** Whether word w's row is wide: K plain counts in topic order, zeros included. */
    public boolean isWide(int word) {
        return isListed(wideRows, word);
    }

    /** The words whose rows are wide, increasing (shared, read-only by contract). */
    public int[] wideRows() {
        return wideRows;
    }

    /**
     * Row w's non-zero cells as (topic, count) pairs in {@code topics[0..n)} and {@code counts[0..n)} (each of length
     * at least K), in the canonical order (decreasing count; a wide row's in topic order); returns n.
     */
    public int row(int word, int[] topics, int[] counts) {
        return decode(entries, rowStarts[word], rowStarts[word + 1], isWide(word), topicBits, topics, counts);
    }

    /** n_{k,w}; O(number of topics of word w). */
    public int count(int word, int topic) {
        if (isWide(word)) {
            return entries[rowStarts[word] + topic];
        }
        int mask = (1 << topicBits) - 1;
        for (int e = rowStarts[word]; e < rowStarts[word + 1]; e++) {
            if ((entries[e] & mask) == topic) {
                return entries[e] >>> topicBits;
            }
        }
        return 0;
    }

    /** n_k. */
    public int topicTotal(int topic) {
        return topicTotals[topic];
    }

    /** The number of tokens of word w (the sum of its row). */
    public int wordTotal(int word) {
        int shift = isWide(word) ? 0 : topicBits;
        int n = 0;
        for (int e = rowStarts[word]; e < rowStarts[word + 1]; e++) {
            n += entries[e] >>> shift;
        }
        return n;
    }

    /** N, the number of tokens counted. */
    public long totalTokens() {
        long n = 0;
        for (int t : topicTotals) {
            n += t;
        }
        return n;
    }

    /** The number of stored cells: the non-zero (word, topic) cells, and K for each wide row. */
    public int nonZeros() {
        return entries.length;
    }

    /** Row offsets, length W+1: row w is {@code entries()[rowStarts()[w] .. rowStarts()[w+1])} (shared, read-only). */
    public int[] rowStarts() {
        return rowStarts;
    }

    /**
     * The rows' cells (shared, read-only by contract): packed {@code count << topicBits | topic}, or a
     * {@linkplain #isWide wide} row's K plain counts.
     */
    public int[] entries() {
        return entries;
    }

    /** How far {@code totals} (K topic totals, such as a sampler's) are from these: totals[k] − n_k for every k. */
    int[] topicChangesTo(int[] totals) {
        int[] changes = new int[numTopics];
        for (int k = 0; k < numTopics; k++) {
            changes[k] = totals[k] - topicTotals[k];
        }
        return changes;
    }

    /** n_k for every topic (shared, read-only by contract). */
    public int[] topicTotals() {
        return topicTotals;
    }

    /** The dense word-major matrix {@code [w * K + k]} = n_{k,w} (W·K ints: for tests and small models). */
    public int[] toDense() {
        int[] dense = new int[Math.multiplyExact(vocabularySize, numTopics)];
        int[] topics = new int[numTopics];
        int[] counts = new int[numTopics];
        for (int v = 0; v < vocabularySize; v++) {
            int n = row(v, topics, counts);
            for (int i = 0; i < n; i++) {
                dense[v * numTopics + topics[i]] = counts[i];
            }
        }
        return dense;
    }

    /** Bytes of the arrays' payload: what a broadcast of these counts carries before serialisation overhead. */
    public long payloadBytes() {
        return 4L * (entries.length + rowStarts.length + wideRows.length + topicTotals.length);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TopicWordCounts c && c.numTopics == numTopics && c.vocabularySize == vocabularySize
                && c.wideAbove == wideAbove && Arrays.equals(c.wideRows, wideRows)
                && Arrays.equals(c.rowStarts, rowStarts) && Arrays.equals(c.entries, entries)
                && Arrays.equals(c.topicTotals, topicTotals);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(entries) + Arrays.hashCode(topicTotals);
    }

    /** A growable int array. */
    static final class IntList {
        int[] data;
        int size;

        IntList(int capacity) {
            data = new int[Math.max(16, capacity)];
        }

        void add(int v) {
            if (size == data.length) {
                data = Arrays.copyOf(data, grow(size + 1));
            }
            data[size++] = v;
        }

        void addAll(int[] src, int from, int to) {
            int n = to - from;
            if (size + n > data.length) {
                data = Arrays.copyOf(data, grow(size + n));
            }
            System.arraycopy(src, from, data, size, n);
            size += n;
        }

        private int grow(int min) {
            return (int) Math.min(Integer.MAX_VALUE - 8, Math.max(min, data.length * 2L));
        }

        int[] toArray() {
            return Arrays.copyOf(data, size);
        }
    }
}
