package org.sparkmc.core.lda;

import java.io.Serializable;
import java.util.Arrays;
import java.util.function.IntPredicate;

/**
 * A bag-of-words corpus held as token word ids in primitive arrays: document d's tokens are
 * {@code words[docStarts[d] .. docStarts[d+1])}, each a word id in [0, W). Each document keeps the id it had in its
 * source ({@code docIds}, e.g. the 1-based UCI docID) so held-out splits and RNG keys do not depend on position.
 *
 * <p>Immutable by contract: the arrays are not copied on the way out, and callers (samplers, the Spark job) must
 * not write to them. Serializable and made of primitive arrays only, so blocks of it ship cheaply to executors.
 */
public final class Corpus implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int[] docStarts;
    private final int[] words;
    private final int[] docIds;
    private final int vocabularySize;

    private Corpus(int[] docStarts, int[] words, int[] docIds, int vocabularySize) {
        this.docStarts = docStarts;
        this.words = words;
        this.docIds = docIds;
        this.vocabularySize = vocabularySize;
    }

    /**
     * A corpus from its arrays (taken, not copied), checked: {@code docStarts} starts at 0, does not decrease and
     * ends at {@code words.length}; one doc id per document; every word id in [0, vocabularySize).
     */
    public static Corpus of(int[] docStarts, int[] words, int[] docIds, int vocabularySize) {
        if (vocabularySize < 1) {
            throw new IllegalArgumentException("vocabulary size must be positive, is " + vocabularySize);
        }
        if (docStarts.length < 1 || docStarts[0] != 0 || docStarts[docStarts.length - 1] != words.length) {
            throw new IllegalArgumentException("docStarts must run from 0 to words.length (" + words.length + ")");
        }
        if (docIds.length != docStarts.length - 1) {
            throw new IllegalArgumentException(
                    docIds.length + " doc ids for " + (docStarts.length - 1) + " documents");
        }
        for (int d = 1; d < docStarts.length; d++) {
            if (docStarts[d] < docStarts[d - 1]) {
                throw new IllegalArgumentException("docStarts decreases at document " + d);
            }
        }
        for (int i = 0; i < words.length; i++) {
            if (words[i] < 0 || words[i] >= vocabularySize) {
                throw new IllegalArgumentException(
                        "word id " + words[i] + " at token " + i + " outside [0, " + vocabularySize + ")");
            }
        }
        return new Corpus(docStarts, words, docIds, vocabularySize);
    }

    public int numDocuments() {
        return docIds.length;
    }

    public int numTokens() {
        return words.length;
    }

    public int vocabularySize() {
        return vocabularySize;
    }

    /** Index of document d's first token. */
    public int docStart(int d) {
        return docStarts[d];
    }

    /** One past the index of document d's last token. */
    public int docEnd(int d) {
        return docStarts[d + 1];
    }

    public int docLength(int d) {
        return docStarts[d + 1] - docStarts[d];
    }

    /** The id document d had in its source. */
    public int docId(int d) {
        return docIds[d];
    }

    public int word(int token) {
        return words[token];
    }

    /** The token word ids (shared, read-only by contract). */
    public int[] words() {
        return words;
    }

    /** The document boundaries, length D+1 (shared, read-only by contract). */
    public int[] docStarts() {
        return docStarts;
    }

    /** The source document ids (shared, read-only by contract). */
    public int[] docIds() {
        return docIds;
    }

    /** How many tokens of each word the corpus holds (the word frequencies), length W. */
    public int[] wordFrequencies() {
        int[] f = new int[vocabularySize];
        for (int w : words) {
            f[w]++;
        }
        return f;
    }

    /** The distinct words of the corpus, in increasing order. */
    public int[] distinctWords() {
        boolean[] present = new boolean[vocabularySize];
        int n = 0;
        for (int w : words) {
            if (!present[w]) {
                present[w] = true;
                n++;
            }
        }
        int[] distinct = new int[n];
        n = 0;
        for (int w = 0; w < vocabularySize; w++) {
            if (present[w]) {
                distinct[n++] = w;
            }
        }
        return distinct;
    }

    /** The documents whose source id passes the test, in order (e.g. {@code id -> id % 10 == 0} for KOS). */
    public Corpus selectByDocId(IntPredicate keep) {
        int count = 0;
        for (int id : docIds) {
            if (keep.test(id)) {
                count++;
            }
        }
        int[] chosen = new int[count];
        int j = 0;
        for (int d = 0; d < docIds.length; d++) {
            if (keep.test(docIds[d])) {
                chosen[j++] = d;
            }
        }
        return subset(chosen);
    }

    /** The documents at the given positions, in the given order. */
    public Corpus subset(int[] documents) {
        int[] starts = new int[documents.length + 1];
        int[] ids = new int[documents.length];
        long total = 0;
        for (int j = 0; j < documents.length; j++) {
            total += docLength(documents[j]);
            starts[j + 1] = Math.toIntExact(total);
            ids[j] = docIds[documents[j]];
        }
        int[] w = new int[starts[documents.length]];
        for (int j = 0; j < documents.length; j++) {
            int d = documents[j];
            System.arraycopy(words, docStarts[d], w, starts[j], docLength(d));
        }
        return new Corpus(starts, w, ids, vocabularySize);
    }

    /** Documents [from, to) as a corpus of their own (a document block). */
    public Corpus range(int from, int to) {
        if (from < 0 || to > numDocuments() || from > to) {
            throw new IndexOutOfBoundsException("documents [" + from + ", " + to + ") of " + numDocuments());
        }
        int[] starts = new int[to - from + 1];
        int base = docStarts[from];
        for (int d = from; d <= to; d++) {
            starts[d - from] = docStarts[d] - base;
        }
        return new Corpus(starts, Arrays.copyOfRange(words, base, docStarts[to]),
                Arrays.copyOfRange(docIds, from, to), vocabularySize);
    }

    /**
     * The corpus cut into {@code numBlocks} contiguous document blocks of near-equal document counts (the first
     * {@code D mod numBlocks} blocks get one more). Block b is the AD-LDA unit that, with the sweep, keys the RNG.
     */
    public Corpus[] blocks(int numBlocks) {
        if (numBlocks < 1) {
            throw new IllegalArgumentException("number of blocks must be positive, is " + numBlocks);
        }
        Corpus[] blocks = new Corpus[numBlocks];
        int d = numDocuments();
        int from = 0;
        for (int b = 0; b < numBlocks; b++) {
            int size = d / numBlocks + (b < d % numBlocks ? 1 : 0);
            blocks[b] = range(from, from + size);
            from += size;
        }
        return blocks;
    }
}
