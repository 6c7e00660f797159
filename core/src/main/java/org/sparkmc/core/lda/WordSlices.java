package org.sparkmc.core.lda;

import java.io.Serializable;
import java.util.Arrays;
import java.util.PriorityQueue;

/**
 * The vocabulary cut into P word slices for model-parallel LDA (the model slices of LightLDA, Yuan et al. 2015, and
 * the word partitions of Nomad-LDA, Yu et al. 2015): every word belongs to one slice, and a slice's rows of the
 * topic–word table travel together. Slices are balanced by tokens, since a sub-step lasts as long as its heaviest
 * block–slice pair: words in decreasing frequency (ties by id) go each to the slice with the fewest tokens so far
 * (then the fewest words, then the lowest id) — the longest-processing-time rule. The cut is a pure function of the
 * word frequencies and P.
 *
 * <p>It also arranges a document block for the slice schedule: each document's tokens ordered by slice (stably, so
 * a slice's tokens keep their order), so that a document's tokens of one slice are one contiguous range
 * ({@link #ranges}). Word order within a document means nothing to LDA. Immutable.
 */
public final class WordSlices implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int[] sliceOf;
    private final int[][] words;
    private final long[] tokens;

    private WordSlices(int[] sliceOf, int[][] words, long[] tokens) {
        this.sliceOf = sliceOf;
        this.words = words;
        this.tokens = tokens;
    }

    /**
     * Cuts the words 0..W−1 into {@code numSlices} slices balanced by tokens.
     *
     * @param wordFrequencies the tokens of each word in the training corpus (length W)
     * @param numSlices P ≥ 1, at most W
     */
    public static WordSlices balanced(int[] wordFrequencies, int numSlices) {
        int w = wordFrequencies.length;
        if (numSlices < 1 || numSlices > w) {
            throw new IllegalArgumentException("number of word slices must be in [1, W = " + w + "], is "
                    + numSlices);
        }
        long[] order = new long[w];
        for (int v = 0; v < w; v++) {
            if (wordFrequencies[v] < 0) {
                throw new IllegalArgumentException("word " + v + " has a negative frequency");
            }
            // decreasing frequency, then increasing id: sort ascending on (−frequency, id)
            order[v] = (long) (Integer.MAX_VALUE - wordFrequencies[v]) << 32 | v;
        }
        Arrays.sort(order);
        long[] tokens = new long[numSlices];
        int[] sizes = new int[numSlices];
        PriorityQueue<Integer> lightest = new PriorityQueue<>(numSlices, (a, b) -> tokens[a] != tokens[b]
                ? Long.compare(tokens[a], tokens[b]) : sizes[a] != sizes[b] ? Integer.compare(sizes[a], sizes[b])
                : Integer.compare(a, b));
        for (int j = 0; j < numSlices; j++) {
            lightest.add(j);
        }
        int[] sliceOf = new int[w];
        for (long key : order) {
            int v = (int) key;
            int j = lightest.poll();
            sliceOf[v] = j;
            tokens[j] += wordFrequencies[v];
            sizes[j]++;
            lightest.add(j);
        }
        int[][] words = new int[numSlices][];
        for (int j = 0; j < numSlices; j++) {
            words[j] = new int[sizes[j]];
        }
        int[] fill = new int[numSlices];
        for (int v = 0; v < w; v++) {
            words[sliceOf[v]][fill[sliceOf[v]]++] = v;
        }
        return new WordSlices(sliceOf, words, tokens);
    }

    public int numSlices() {
        return words.length;
    }

    public int vocabularySize() {
        return sliceOf.length;
    }

    /** The slice of word w. */
    public int sliceOf(int word) {
        return sliceOf[word];
    }

    /** The words of slice j in increasing id order (shared, read-only by contract). */
    public int[] words(int slice) {
        return words[slice];
    }

    /** The training tokens of slice j's words. */
    public long tokens(int slice) {
        return tokens[slice];
    }

    /**
     * The block with each document's tokens ordered by slice, stably (same documents, ids and vocabulary).
     *
     * @throws IllegalArgumentException if the block's vocabulary is not this one's
     */
    public Corpus arrange(Corpus block) {
        if (block.vocabularySize() != sliceOf.length) {
            throw new IllegalArgumentException("block over " + block.vocabularySize() + " words, slices over "
                    + sliceOf.length);
        }
        int[] in = block.words();
        int[] out = new int[in.length];
        long[] keys = new long[0];
        for (int d = 0; d < block.numDocuments(); d++) {
            int from = block.docStart(d);
            int n = block.docLength(d);
            if (keys.length < n) {
                keys = new long[Math.max(n, 2 * keys.length)];
            }
            for (int i = 0; i < n; i++) {
                keys[i] = (long) sliceOf[in[from + i]] << 32 | i;
            }
            Arrays.sort(keys, 0, n);
            for (int i = 0; i < n; i++) {
                out[from + i] = in[from + (int) keys[i]];
            }
        }
        return Corpus.of(block.docStarts(), out, block.docIds(), block.vocabularySize());
    }

    /**
     * The token range of slice j in every document of an {@link #arrange arranged} block: document d's tokens of the
     * slice are {@code [ranges[2d], ranges[2d+1])} (empty when it has none), found by binary search.
     */
    public int[] ranges(Corpus arranged, int slice) {
        int[] ranges = new int[2 * arranged.numDocuments()];
        int[] w = arranged.words();
        for (int d = 0; d < arranged.numDocuments(); d++) {
            int from = firstAtLeast(w, arranged.docStart(d), arranged.docEnd(d), slice);
            ranges[2 * d] = from;
            ranges[2 * d + 1] = firstAtLeast(w, from, arranged.docEnd(d), slice + 1);
        }
        return ranges;
    }

    /** The first token in [from, to) whose word's slice is at least {@code slice} (tokens sorted by slice). */
    private int firstAtLeast(int[] w, int from, int to, int slice) {
        int lo = from;
        int hi = to;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sliceOf[w[mid]] < slice) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }
}
