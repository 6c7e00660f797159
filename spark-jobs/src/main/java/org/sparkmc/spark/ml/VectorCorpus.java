package org.sparkmc.spark.ml;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.sparkmc.core.lda.Corpus;

/**
 * A {@link Corpus} from a DataFrame's term-count vector column, for {@link GibbsLDA#fit}: each row's vector is read
 * on the executors ({@link TermCounts}: whole non-negative counts), its document id is its row index
 * ({@code zipWithIndex}), and empty (or null) rows are skipped and counted.
 *
 * <p>The documents are then put in a canonical order — by a 64-bit hash of their (term, count) pairs, ties by the
 * pairs themselves — so the AD-LDA blocks, and hence the chain for a seed, depend only on the multiset of documents:
 * not on the row order, which a shuffle upstream (a join, a {@code repartition}) does not keep. Hash order also
 * spreads similar documents over the blocks like a random shuffle would.
 */
final class VectorCorpus {
    private VectorCorpus() {
    }

    /**
     * A corpus and what was skipped.
     *
     * @param corpus the non-empty documents, in canonical order, doc ids = row indices
     * @param rows the rows read
     * @param emptyRows rows without a token (or with a null vector), skipped
     */
    record Collected(Corpus corpus, long rows, long emptyRows) {
    }

    static Collected collect(Dataset<?> dataset, String featuresCol) {
        List<int[]> encoded = unwrapped(() -> dataset.select(featuresCol).javaRDD().zipWithIndex()
                .map(t -> encode(t._1(), t._2())).collect());
        int vocabularySize = -1;
        List<int[]> docs = new ArrayList<>(encoded.size());
        long empty = 0;
        for (int[] e : encoded) {
            if (e.length == 1) {
                empty++;
                continue;
            }
            if (vocabularySize < 0) {
                vocabularySize = e[1];
            } else if (e[1] != vocabularySize) {
                throw new IllegalArgumentException("featuresCol '" + featuresCol + "' holds vectors of sizes "
                        + vocabularySize + " and " + e[1] + " (row " + e[0] + "); all must have the vocabulary's size");
            }
            if (e.length == 2) {
                empty++;
            } else {
                docs.add(e);
            }
        }
        if (docs.isEmpty()) {
            throw new IllegalArgumentException("GibbsLDA needs at least one document with a term; the " + encoded.size()
                    + " rows of featuresCol '" + featuresCol + "' have none");
        }
        docs.sort(Comparator.<int[]>comparingLong(VectorCorpus::contentHash)
                .thenComparing((a, b) -> Arrays.compare(a, 2, a.length, b, 2, b.length)));
        int[] starts = new int[docs.size() + 1];
        int[] ids = new int[docs.size()];
        long tokens = 0;
        for (int d = 0; d < docs.size(); d++) {
            int[] e = docs.get(d);
            for (int j = 3; j < e.length; j += 2) {
                tokens += e[j];
            }
            if (tokens > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("the corpus has more than " + (Integer.MAX_VALUE - 8)
                        + " tokens, more than one AD-LDA corpus holds");
            }
            starts[d + 1] = (int) tokens;
            ids[d] = e[0];
        }
        int[] words = new int[(int) tokens];
        for (int d = 0; d < docs.size(); d++) {
            int[] e = docs.get(d);
            int at = starts[d];
            for (int j = 2; j < e.length; j += 2) {
                Arrays.fill(words, at, at + e[j + 1], e[j]);
                at += e[j + 1];
            }
        }
        return new Collected(Corpus.of(starts, words, ids, vocabularySize), encoded.size(), empty);
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
