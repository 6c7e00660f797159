package org.sparkmc.spark.ml;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.storage.StorageLevel;
import org.sparkmc.spark.lda.LdaDocuments;
import scala.Tuple2;

/**
 * The documents of a DataFrame's term-count vector column, for {@link GibbsLDA#fit}, read and kept on the executors
 * as {@link LdaDocuments}: each row's vector is checked there ({@link TermCounts}: whole non-negative counts), empty
 * (or null) rows are skipped and counted, and only small summaries reach the driver (per vector size: rows, empty
 * rows, first row; then each document's length).
 *
 * <p>The documents are put in a canonical order — by a 64-bit hash of their (term, count) pairs, ties by the pairs
 * themselves — and numbered 0, 1, … in that order (a distributed sort), so the AD-LDA blocks, and hence the chain for
 * a seed, depend only on the multiset of documents: not on the row order, which a shuffle upstream (a join, a
 * {@code repartition}) does not keep, nor on the partitioning. Hash order also spreads similar documents over the
 * blocks like a random shuffle would.
 */
final class VectorCorpus {
    private VectorCorpus() {
    }

    /**
     * The documents read and what was skipped.
     *
     * @param documents the non-empty documents, ids 0..D−1 in canonical order
     * @param rows the rows read
     * @param emptyRows rows without a token (or with a null vector), skipped
     */
    record Read(LdaDocuments documents, long rows, long emptyRows) {
    }

    /**
     * Reads the one vector column of {@code features} (the estimator's {@code featuresCol}, named in errors);
     * {@link LdaDocuments#release()} frees the documents once their blocks are built.
     *
     * @throws IllegalArgumentException if a row is not counts, the vectors' sizes differ, or no row has a term
     */
    static Read read(Dataset<Row> features, String featuresCol) {
        // {row, vectorSize, term, count, term, count, ...}, or {row} for a null vector
        JavaRDD<int[]> encoded = features.javaRDD().zipWithIndex().map(t -> encode(t._1(), t._2()))
                .persist(StorageLevel.MEMORY_AND_DISK());
        try {
            // Per vector size (-1: null): {first row, rows, empty rows}.
            List<Tuple2<Integer, long[]>> sizes = new ArrayList<>(unwrapped(() -> encoded
                    .mapToPair(e -> new Tuple2<>(e.length == 1 ? -1 : e[1], new long[] {e[0], 1, e.length <= 2 ? 1 : 0}))
                    .reduceByKey((a, b) -> new long[] {Math.min(a[0], b[0]), a[1] + b[1], a[2] + b[2]}).collect()));
            long rows = 0;
            long empty = 0;
            for (Tuple2<Integer, long[]> s : sizes) {
                rows += s._2()[1];
                empty += s._2()[2];
            }
            int vocabularySize = vocabularySize(sizes, featuresCol);
            if (rows == empty) {
                throw new IllegalArgumentException("GibbsLDA needs at least one document with a term; the " + rows
                        + " rows of featuresCol '" + featuresCol + "' have none");
            }
            JavaPairRDD<Integer, int[]> documents = encoded.filter(e -> e.length > 2)
                    .mapToPair(e -> new Tuple2<>(canonicalKey(e), Boolean.TRUE))
                    .sortByKey(new CanonicalOrder()).keys().zipWithIndex()
                    .mapToPair(t -> new Tuple2<>(Math.toIntExact(t._2()), tokens(t._1())));
            return new Read(LdaDocuments.of(documents, vocabularySize), rows, empty);
        } finally {
            encoded.unpersist(false);
        }
    }

    /**
     * The one vector size of the non-null rows (0 if every row is null).
     *
     * @throws IllegalArgumentException naming the first row whose size differs from the first row's
     */
    private static int vocabularySize(List<Tuple2<Integer, long[]>> sizes, String featuresCol) {
        sizes.removeIf(s -> s._1() < 0);
        sizes.sort(Comparator.comparingLong(s -> s._2()[0]));
        if (sizes.size() > 1) {
            throw new IllegalArgumentException("featuresCol '" + featuresCol + "' holds vectors of sizes "
                    + sizes.get(0)._1() + " and " + sizes.get(1)._1() + " (row " + sizes.get(1)._2()[0]
                    + "); all must have the vocabulary's size");
        }
        return sizes.isEmpty() ? 0 : sizes.get(0)._1();
    }

    /** An encoded document as {hash high, hash low, term, count, ...}: the canonical order's key. */
    private static int[] canonicalKey(int[] e) {
        long h = contentHash(e);
        int[] key = new int[e.length];
        key[0] = (int) (h >>> 32);
        key[1] = (int) h;
        System.arraycopy(e, 2, key, 2, e.length - 2);
        return key;
    }

    /** A canonical key's word ids: each term repeated its count times. */
    private static int[] tokens(int[] key) {
        long n = 0;
        for (int j = 3; j < key.length; j += 2) {
            n += key[j];
        }
        int[] words = new int[Math.toIntExact(n)];
        int at = 0;
        for (int j = 2; j < key.length; j += 2) {
            Arrays.fill(words, at, at + key[j + 1], key[j]);
            at += key[j + 1];
        }
        return words;
    }

    /** Canonical keys by hash (as a signed long), then by their (term, count) pairs. */
    static final class CanonicalOrder implements Comparator<int[]>, Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public int compare(int[] a, int[] b) {
            int byHash = Long.compare(hash(a), hash(b));
            return byHash != 0 ? byHash : Arrays.compare(a, 2, a.length, b, 2, b.length);
        }

        private static long hash(int[] key) {
            return (long) key[0] << 32 | (key[1] & 0xffffffffL);
        }
    }

    /**
     * Runs a Spark action; a bad row's {@link IllegalArgumentException}, which Spark wraps in its job failure,
     * reaches the caller as itself (its message first), the job failure kept as the cause.
     */
    static <T> T unwrapped(java.util.function.Supplier<T> action) {
        try {
            return action.get();
        } catch (Exception e) {
            for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
                if (c instanceof IllegalArgumentException bad) {
                    throw new IllegalArgumentException(bad.getMessage(), e);
                }
            }
            throw e;
        }
    }

    /** A row as {row, vectorSize, term, count, term, count, ...}, or {row} for a null vector. */
    private static int[] encode(Row row, long index) {
        if (index > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("GibbsLDA takes at most " + Integer.MAX_VALUE + " rows");
        }
        if (row.isNullAt(0)) {
            return new int[] {(int) index};
        }
        TermCounts doc = TermCounts.of((Vector) row.get(0), "row " + index);
        int[] e = new int[2 + 2 * doc.terms().length];
        e[0] = (int) index;
        e[1] = doc.vectorSize();
        for (int j = 0; j < doc.terms().length; j++) {
            e[2 + 2 * j] = doc.terms()[j];
            e[3 + 2 * j] = doc.counts()[j];
        }
        return e;
    }

    /** SplitMix64-style hash of the (term, count) pairs {@code e[2..]}. */
    private static long contentHash(int[] e) {
        long h = 0x9e3779b97f4a7c15L;
        for (int j = 2; j < e.length; j++) {
            h = mix(h + 0x9e3779b97f4a7c15L ^ e[j]);
        }
        return mix(h + e.length);
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
