package org.sparkmc.spark.ml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.spark.SparkTestBase;

/**
 * {@link VectorCorpus} reads term-count vectors on the executors into documents in one canonical order: the same
 * corpus, document for document, whatever the rows' order and partitioning; every non-empty row exactly once; null and
 * empty rows counted; vectors of two sizes refused naming the first row that differs.
 */
class VectorCorpusTest extends SparkTestBase {
    private static final StructType SCHEMA = new StructType().add("features", SQLDataTypes.VectorType());

    /** 60 random documents over 12 terms (some repeated verbatim), 3 empty vectors and 2 nulls, as rows. */
    private static List<Row> rows() {
        Random random = new Random(7);
        List<Row> rows = new ArrayList<>();
        for (int d = 0; d < 60; d++) {
            double[] counts = new double[12];
            for (int t = 0; t < 1 + random.nextInt(9); t++) {
                counts[random.nextInt(12)] += 1 + random.nextInt(3);
            }
            rows.add(RowFactory.create(Vectors.dense(counts)));
            if (d % 15 == 0) {
                rows.add(RowFactory.create(Vectors.dense(counts))); // the same document twice
            }
        }
        for (int e = 0; e < 3; e++) {
            rows.add(RowFactory.create(Vectors.sparse(12, new int[0], new double[0])));
        }
        rows.add(RowFactory.create((Object) null));
        rows.add(RowFactory.create((Object) null));
        return rows;
    }

    private Dataset<Row> frame(List<Row> rows, int partitions) {
        return spark().createDataFrame(rows, SCHEMA).repartition(partitions);
    }

    @Test
    void sameCorpusWhateverTheRowOrderAndPartitioning() {
        List<Row> rows = rows();
        VectorCorpus.Read first = VectorCorpus.read(frame(rows, 1), "features");
        Corpus a = first.documents().collect();
        List<Row> shuffled = new ArrayList<>(rows);
        Collections.shuffle(shuffled, new Random(3));
        VectorCorpus.Read second = VectorCorpus.read(frame(shuffled, 3), "features");
        Corpus b = second.documents().collect();
        assertEquals(69, first.rows());
        assertEquals(5, first.emptyRows());
        assertEquals(64, a.numDocuments());
        assertEquals(12, a.vocabularySize());
        assertEquals(first.rows(), second.rows());
        assertEquals(first.emptyRows(), second.emptyRows());
        assertArrayEquals(a.words(), b.words());
        for (int d = 0; d < a.numDocuments(); d++) {
            assertEquals(d, a.docId(d));
            assertEquals(a.docStart(d), b.docStart(d));
        }
        // Every non-empty row is one document: the multisets of sorted word lists agree.
        List<String> expected = new ArrayList<>();
        for (Row r : rows) {
            if (r.get(0) != null) {
                double[] v = ((org.apache.spark.ml.linalg.Vector) r.get(0)).toArray();
                StringBuilder words = new StringBuilder();
                for (int t = 0; t < v.length; t++) {
                    words.append(String.valueOf(t + ",").repeat((int) v[t]));
                }
                if (words.length() > 0) {
                    expected.add(words.toString());
                }
            }
        }
        List<String> actual = new ArrayList<>();
        for (int d = 0; d < a.numDocuments(); d++) {
            StringBuilder words = new StringBuilder();
            for (int i = a.docStart(d); i < a.docEnd(d); i++) {
                words.append(a.word(i)).append(',');
            }
            actual.add(words.toString());
        }
        Collections.sort(expected);
        Collections.sort(actual);
        assertEquals(expected, actual);
        first.documents().release();
        second.documents().release();
    }

    @Test
    void vectorsOfTwoSizesAreRefusedNamingTheFirstRowThatDiffers() {
        List<Row> rows = new ArrayList<>();
        rows.add(RowFactory.create((Object) null));
        rows.add(RowFactory.create(Vectors.dense(1, 0, 2)));
        rows.add(RowFactory.create(Vectors.dense(1, 1, 1)));
        rows.add(RowFactory.create(Vectors.dense(0, 0, 0, 5)));
        rows.add(RowFactory.create(Vectors.dense(1, 2)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> VectorCorpus.read(spark().createDataFrame(rows, SCHEMA).coalesce(1), "features"));
        assertTrue(e.getMessage().contains("featuresCol 'features' holds vectors of sizes 3 and 4 (row 3); all must "
                + "have the vocabulary's size"), e.getMessage());
        List<Row> nulls = Arrays.asList(RowFactory.create((Object) null), RowFactory.create((Object) null));
        e = assertThrows(IllegalArgumentException.class,
                () -> VectorCorpus.read(spark().createDataFrame(nulls, SCHEMA), "features"));
        assertTrue(e.getMessage().contains("GibbsLDA needs at least one document with a term; the 2 rows of "
                + "featuresCol 'features' have none"), e.getMessage());
    }
}
