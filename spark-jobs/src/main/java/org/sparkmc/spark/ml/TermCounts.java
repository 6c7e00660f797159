package org.sparkmc.spark.ml;

import java.util.Arrays;
import java.util.function.Function;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;

/**
 * One document's term counts read from a vector (as {@code CountVectorizer} makes them), checked: every value a
 * non-negative whole number. Kept as sorted (term, count) pairs; {@link #tokens()} expands them into word ids.
 *
 * @param vectorSize the vector's size (the vocabulary size W)
 * @param terms the terms with a positive count, increasing
 * @param counts their counts
 */
record TermCounts(int vectorSize, int[] terms, int[] counts) {
    /** The characters of a vector an error message shows. */
    static final int SHOWN = 200;

    /**
     * Reads {@code v}.
     *
     * @param where names the row in error messages (e.g. "row 12")
     * @throws IllegalArgumentException if a value is negative, fractional, not finite or too large
     */
    static TermCounts of(Vector v, String where) {
        SparseVector s = v.toSparse();
        int[] idx = s.indices();
        double[] val = s.values();
        int n = 0;
        int[] terms = new int[idx.length];
        int[] counts = new int[idx.length];
        long total = 0;
        for (int j = 0; j < idx.length; j++) {
            double c = val[j];
            if (!(c >= 0) || c != Math.rint(c) || c > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("GibbsLDA needs term counts (non-negative whole numbers); "
                        + where + " has " + c + " for term " + idx[j]);
            }
            if (c > 0) {
                terms[n] = idx[j];
                counts[n] = (int) c;
                total += (int) c;
                n++;
            }
        }
        if (total > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(where + " has " + total + " tokens, more than a document can hold");
        }
        return new TermCounts(s.size(), Arrays.copyOf(terms, n), Arrays.copyOf(counts, n));
    }

    /**
     * {@code use} applied to the counts of {@code v}, a row's value of featuresCol {@code column} read where the row
     * has no number (in a UDF or a partition function on the executors): a refusal, of the counts or by {@code use},
     * names the column and shows the vector (its first {@value #SHOWN} characters) to find the row by.
     */
    static <T> T ofRow(Vector v, String column, Function<TermCounts, T> use) {
        try {
            return use.apply(of(v, "a row"));
        } catch (IllegalArgumentException e) {
            String shown = v.toString();
            throw new IllegalArgumentException(e.getMessage() + "; featuresCol '" + column + "' of the row holding "
                    + (shown.length() > SHOWN ? shown.substring(0, SHOWN) + "..." : shown), e);
        }
    }

    /** The number of tokens (sum of the counts). */
    int numTokens() {
        int n = 0;
        for (int c : counts) {
            n += c;
        }
        return n;
    }

    /** The word ids of the document's tokens, each term repeated its count times, in term order. */
    int[] tokens() {
        int[] words = new int[numTokens()];
        int at = 0;
        for (int j = 0; j < terms.length; j++) {
            Arrays.fill(words, at, at + counts[j], terms[j]);
            at += counts[j];
        }
        return words;
    }

    /**
     * The document as the key of its random stream: (term, count) pairs, so the stream depends on the document's
     * content only — not on its row, partition or position.
     */
    long[] streamKey() {
        long[] key = new long[2 * terms.length];
        for (int j = 0; j < terms.length; j++) {
            key[2 * j] = terms[j];
            key[2 * j + 1] = counts[j];
        }
        return key;
    }
}
