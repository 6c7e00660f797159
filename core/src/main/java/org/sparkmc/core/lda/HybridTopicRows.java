package org.sparkmc.core.lda;

import java.util.Arrays;

/**
 * Mutable topic–word counts n_{k,w} in LightLDA's hybrid layout (Yuan et al. 2015, §4): a word whose row can hold
 * many topics keeps a dense row of K ints, any other word an open-addressing hash row (topic → count). A word's
 * total t_w never changes while its tokens are resampled (a token keeps its word), so its row has at most
 * min(K, t_w) non-zero cells and is sized once: a hash row gets c_w = the least power of two ≥ 2·min(K, t_w) slots
 * (load ≤ 1/2), and the row is dense instead when c_w ≥ K, where the hash row would be no smaller than the dense
 * one and a dense lookup is one load. A word without tokens gets no row. So the rows take
 * <pre>
 *   4 · Σ_w r(t_w) bytes,   r(t) = 0 (t = 0);  K (c(t) ≥ K);  c(t) (else),   c(t) = 2^⌈log2 2·min(K, t)⌉
 * </pre>
 * plus 8 bytes a word for the row index. r(t) ≤ 4·min(K, t), and for a long-tailed vocabulary the sum is far below
 * W·K: on the generated NYTimes shape (W = 102,660, 99.8 M tokens) 0.17 GB at K = 1,000 and 0.50 GB at K = 10,000,
 * against 0.41 and 4.1 GB dense.
 *
 * <p>A hash slot packs {@code count << topicBits | topic} into one int, as {@link TopicWordCounts} does, 0 being an
 * empty slot: a hash row's counts are below c_w/2 &lt; K ≤ 2^topicBits, so the packed value stays positive. Slots are
 * probed linearly from a multiplicative hash of the topic; removing a topic's last count shifts the following
 * cluster back (Knuth's Algorithm R, TAOCP 6.4), so there are no tombstones and probing stays correct. All rows lie
 * in one flat int array, each word's start and kind in an index of 2W ints (side by side: one cache line a lookup).
 * Not thread-safe.
 */
final class HybridTopicRows {
    /** How rows are laid out: the hybrid rule above, or every row of one kind (the latter for tests). */
    enum Layout {
        HYBRID,
        ALL_DENSE,
        ALL_HASH
    }

    private static final int GOLDEN = 0x9E3779B9;
    private static final int DENSE = -1;

    private final int numTopics;
    private final int bits;
    private final int topicMask;
    // index[2w] = the row's first int in cells; index[2w + 1] = DENSE, 0 (no row) or log2 of its hash slots.
    private final int[] index;
    private final int[] cells;

    private HybridTopicRows(int numTopics, int[] index, int[] cells) {
        this.numTopics = numTopics;
        this.bits = TopicWordCounts.topicBits(numTopics);
        this.topicMask = (1 << bits) - 1;
        this.index = index;
        this.cells = cells;
    }

    /**
     * Rows holding {@code counts}, sized by the word totals {@code wordTotals} (each row's sum in {@code counts}).
     *
     * @throws IllegalArgumentException if the rows would exceed 2^31 ints, or (with {@link Layout#ALL_HASH}) a word
     *     has more tokens than a packed slot holds
     */
    static HybridTopicRows of(TopicWordCounts counts, int[] wordTotals, Layout layout) {
        int k = counts.numTopics();
        int w = counts.vocabularySize();
        int[] index = new int[2 * w];
        long size = 0;
        for (int v = 0; v < w; v++) {
            int log = log2Slots(k, wordTotals[v], layout);
            if (log > 0 && wordTotals[v] > TopicWordCounts.maxCellCount(k)) {
                throw new IllegalArgumentException("word " + v + " has " + wordTotals[v] + " tokens, more than a "
                        + "hash row's packed slot holds for K=" + k);
            }
            index[2 * v] = (int) size;
            index[2 * v + 1] = log;
            size += slots(k, log);
            if (size > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("the topic-word rows would exceed 2^31 ints (W = " + w + ", K = "
                        + k + ")");
            }
        }
        HybridTopicRows rows = new HybridTopicRows(k, index, new int[(int) size]);
        int[] starts = counts.rowStarts();
        int[] entries = counts.entries();
        for (int v = 0; v < w; v++) {
            rows.setCells(v, entries, starts[v], starts[v + 1], counts.isWide(v));
        }
        return rows;
    }

    /** DENSE, 0 (no tokens, no row) or log2 of the hash slots of a word with {@code total} tokens. */
    private static int log2Slots(int numTopics, int total, Layout layout) {
        if (total == 0 && layout != Layout.ALL_DENSE) {
            return 0;
        }
        int wanted = 2 * Math.min(numTopics, total);
        int log = Math.max(1, 32 - Integer.numberOfLeadingZeros(wanted - 1));
        boolean dense = layout == Layout.ALL_DENSE || layout == Layout.HYBRID && 1L << log >= numTopics;
        return dense ? DENSE : log;
    }

    /**
     * The bytes of the rows and their index for words with these totals (the formula in the class comment), without
     * making them.
     */
    static long bytes(int numTopics, int[] wordTotals) {
        long ints = 2L * wordTotals.length;
        for (int t : wordTotals) {
            int log = log2Slots(numTopics, t, Layout.HYBRID);
            ints += slots(numTopics, log);
        }
        return 4 * ints;
    }

    /** The bytes these rows take: their cells and index. */
    long bytes() {
        return 4L * (cells.length + index.length);
    }

    /** Whether word w's row is dense. */
    boolean isDense(int w) {
        return index[2 * w + 1] == DENSE;
    }

    /** n_{k,w}. */
    int get(int w, int k) {
        int at = index[2 * w];
        int log = index[2 * w + 1];
        if (log <= 0) {
            return log == DENSE ? cells[at + k] : 0;
        }
        int mask = (1 << log) - 1;
        for (int i = home(k, log);; i = i + 1 & mask) {
            int c = cells[at + i];
            if (c == 0) {
                return 0;
            }
            if ((c & topicMask) == k) {
                return c >>> bits;
            }
        }
    }

    /** n_{k,w} += 1. */
    void increment(int w, int k) {
        int at = index[2 * w];
        int log = index[2 * w + 1];
        if (log == DENSE) {
            cells[at + k]++;
            return;
        }
        int mask = (1 << log) - 1;
        for (int i = home(k, log);; i = i + 1 & mask) {
            int c = cells[at + i];
            if (c == 0) {
                cells[at + i] = 1 << bits | k;
                return;
            }
            if ((c & topicMask) == k) {
                cells[at + i] = c + (1 << bits);
                return;
            }
        }
    }

    /** n_{k,w} −= 1, which must be positive. */
    void decrement(int w, int k) {
        int at = index[2 * w];
        int log = index[2 * w + 1];
        if (log == DENSE) {
            cells[at + k]--;
            return;
        }
        int mask = (1 << log) - 1;
        for (int i = home(k, log);; i = i + 1 & mask) {
            int c = cells[at + i];
            if (c == 0) {
                throw new IllegalStateException("word " + w + " has no count in topic " + k + " to remove");
            }
            if ((c & topicMask) == k) {
                if (c >>> bits > 1) {
                    cells[at + i] = c - (1 << bits);
                } else {
                    delete(at, i, log);
                }
                return;
            }
        }
    }

    /**
     * Empties slot i of the hash row at {@code at} and moves later slots of its cluster back into the gap whenever
     * their home lies cyclically outside (gap, slot], so every remaining topic is still found from its home.
     */
    private void delete(int at, int gap, int log) {
        int mask = (1 << log) - 1;
        for (int j = gap + 1 & mask;; j = j + 1 & mask) {
            int c = cells[at + j];
            if (c == 0) {
                cells[at + gap] = 0;
                return;
            }
            int h = home(c & topicMask, log);
            if ((j - h & mask) >= (j - gap & mask)) {
                cells[at + gap] = c;
                gap = j;
            }
        }
    }

    /** The ints of a row laid out as {@code log} says: K when dense, none without tokens, else 2^log slots. */
    private static int slots(int numTopics, int log) {
        return log == DENSE ? numTopics : log == 0 ? 0 : 1 << log;
    }

    private static int home(int k, int log) {
        return k * GOLDEN >>> 32 - log;
    }

    /**
     * Sets word w's row to the row {@code entries[from..to)} in the layout of {@link TopicWordCounts} (packed cells
     * {@code count << topicBits | topic}, or if {@code wide} K plain counts), every other topic 0. A dense row is
     * cleared whole: use {@link #set} to clear a few known topics instead.
     */
    void setRow(int w, int[] entries, int from, int to, boolean wide) {
        clearRow(w);
        setCells(w, entries, from, to, wide);
    }

    /** Sets the topics of the cells {@code entries[from..to)} (packed, or if {@code wide} K plain counts) of row w. */
    void setCells(int w, int[] entries, int from, int to, boolean wide) {
        for (int e = from; e < to; e++) {
            if (wide) {
                if (entries[e] != 0) {
                    set(w, e - from, entries[e]);
                }
            } else {
                set(w, entries[e] & topicMask, entries[e] >>> bits);
            }
        }
    }

    /** Sets every count of word w's row to 0. */
    void clearRow(int w) {
        int at = index[2 * w];
        int log = index[2 * w + 1];
        Arrays.fill(cells, at, at + slots(numTopics, log), 0);
    }

    /** n_{k,w} = count (≥ 0). */
    void set(int w, int k, int count) {
        int at = index[2 * w];
        int log = index[2 * w + 1];
        if (log == DENSE) {
            cells[at + k] = count;
            return;
        }
        if (log == 0) {
            if (count != 0) {
                throw new IllegalArgumentException("word " + w + " has no tokens, so no count in topic " + k);
            }
            return;
        }
        int mask = (1 << log) - 1;
        for (int i = home(k, log);; i = i + 1 & mask) {
            int c = cells[at + i];
            if (c == 0 || (c & topicMask) == k) {
                if (count != 0) {
                    cells[at + i] = count << bits | k;
                } else if (c != 0) {
                    delete(at, i, log);
                }
                return;
            }
        }
    }

    /**
     * Appends word w's row to {@code out} in the layout of {@link TopicWordCounts}: if {@code wide}, its K plain
     * counts in topic order; else its non-zero cells packed {@code count << topicBits | topic}, in no particular
     * order.
     */
    void appendRow(int w, TopicWordCounts.IntList out, boolean wide) {
        int at = index[2 * w];
        int log = index[2 * w + 1];
        if (wide) {
            for (int k = 0; k < numTopics; k++) {
                out.add(get(w, k));
            }
        } else if (log == DENSE) {
            for (int k = 0; k < numTopics; k++) {
                int c = cells[at + k];
                if (c != 0) {
                    out.add(c << bits | k);
                }
            }
        } else if (log > 0) {
            for (int i = at; i < at + (1 << log); i++) {
                if (cells[i] != 0) {
                    out.add(cells[i]);
                }
            }
        }
    }

    /** The number of dense rows (for tests and logs). */
    int denseRows() {
        int n = 0;
        for (int v = 1; v < index.length; v += 2) {
            n += index[v] == DENSE ? 1 : 0;
        }
        return n;
    }

    /** The number of hash rows (for tests and logs). */
    int hashRows() {
        int n = 0;
        for (int v = 1; v < index.length; v += 2) {
            n += index[v] > 0 ? 1 : 0;
        }
        return n;
    }
}
