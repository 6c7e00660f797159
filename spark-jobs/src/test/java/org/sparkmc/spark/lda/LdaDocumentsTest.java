package org.sparkmc.spark.lda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.core.lda.UciBagOfWords;
import org.sparkmc.spark.SparkTestBase;
import scala.Tuple2;

/**
 * The corpus read and cut on the executors is the one the single-machine reader gives, cut into the same blocks:
 * what makes the Spark job's chain the one-machine AD-LDA's.
 */
class LdaDocumentsTest extends SparkTestBase {
    @Test
    void executorReadEqualsTheOneMachineReader() throws IOException {
        LdaCorpus read = LdaCorpusReader.readUci(jsc(), LdaRuns.DOCWORD, LdaRuns.VOCAB);
        UciBagOfWords.Docword expected;
        try (InputStream in = Files.newInputStream(Path.of(LdaRuns.DOCWORD))) {
            expected = UciBagOfWords.readDocword(in, LdaRuns.DOCWORD);
        }
        assertSame(expected.corpus(), read.documents().collect());
        assertEquals(expected.emptyDocuments(), read.emptyDocuments());
        assertEquals(expected.corpus().numTokens(), read.documents().numTokens());
    }

    /**
     * The content hash of a corpus is the same however its documents are partitioned, and changes when one word of
     * one document does (same D, tokens and W).
     */
    @Test
    void contentHashDependsOnContentNotPartitioning() {
        Corpus kos = LdaCorpusReader.readUci(jsc(), LdaRuns.DOCWORD, LdaRuns.VOCAB).documents().collect().range(0, 200);
        long one = LdaDocuments.parallelize(jsc(), kos, 1).contentHash();
        assertEquals(one, LdaDocuments.parallelize(jsc(), kos, 7).contentHash());
        int[] words = kos.words().clone();
        words[words.length / 2] = (words[words.length / 2] + 1) % kos.vocabularySize();
        Corpus changed = Corpus.of(starts(kos), words, docIds(kos), kos.vocabularySize());
        assertNotEquals(one, LdaDocuments.parallelize(jsc(), changed, 1).contentHash());
    }

    private static int[] starts(Corpus c) {
        int[] s = new int[c.numDocuments() + 1];
        for (int d = 0; d < c.numDocuments(); d++) {
            s[d + 1] = c.docEnd(d);
        }
        return s;
    }

    private static int[] docIds(Corpus c) {
        int[] ids = new int[c.numDocuments()];
        for (int d = 0; d < ids.length; d++) {
            ids[d] = c.docId(d);
        }
        return ids;
    }

    @Test
    void blocksAreCorpusBlocks() {
        Corpus kos = LdaCorpusReader.readUci(jsc(), LdaRuns.DOCWORD, LdaRuns.VOCAB).documents().collect()
                .selectByDocId(id -> id % 10 != 0);
        LdaDocuments docs = LdaDocuments.parallelize(jsc(), kos, 3);
        for (int b : new int[] {1, 5, 8}) {
            Corpus[] expected = kos.blocks(b);
            Map<Integer, Corpus> got = new TreeMap<>();
            for (Tuple2<Integer, Corpus> t : docs.blocks(b, 3).collect()) {
                got.put(t._1(), t._2());
            }
            assertEquals(b, got.size());
            for (int i = 0; i < b; i++) {
                assertSame(expected[i], got.get(i));
            }
        }
        // More blocks than documents: the last ones are empty, as Corpus.blocks makes them.
        Corpus few = kos.range(0, 3);
        Map<Integer, Corpus> got = new TreeMap<>();
        LdaDocuments.parallelize(jsc(), few, 2).blocks(5, 2).collect().forEach(t -> got.put(t._1(), t._2()));
        Corpus[] expected = few.blocks(5);
        for (int i = 0; i < 5; i++) {
            assertSame(expected[i], got.get(i));
        }
    }

    @Test
    void heldOutAndTrainingSplitByDocumentId() {
        Corpus kos = LdaCorpusReader.readUci(jsc(), LdaRuns.DOCWORD, LdaRuns.VOCAB).documents().collect();
        LdaDocuments docs = LdaDocuments.parallelize(jsc(), kos, 2);
        assertSame(kos.selectByDocId(id -> id % 10 == 0), docs.heldOut(10).collect());
        assertSame(kos.selectByDocId(id -> id % 10 != 0), docs.training(10).collect());
        assertEquals(0, docs.heldOut(0).numDocuments());
        assertEquals(kos.numDocuments(), docs.training(0).numDocuments());
    }

    private static void assertSame(Corpus expected, Corpus actual) {
        assertArrayEquals(expected.docIds(), actual.docIds());
        assertArrayEquals(expected.docStarts(), actual.docStarts());
        assertArrayEquals(expected.words(), actual.words());
        assertEquals(expected.vocabularySize(), actual.vocabularySize());
    }

    /**
     * A block beyond the tokens its arrays can index is bad input naming the limit and --blocks (it failed on an
     * executor with IllegalArgumentException, exit 1); the limit is lowered here, as 2^31 real tokens need 8 GB.
     */
    @Test
    void aBlockBeyondItsTokenLimitIsBadInputNamingBlocks() {
        java.util.List<scala.Tuple2<Integer, int[]>> docs = java.util.List.of(new scala.Tuple2<>(7, new int[] {0, 1}),
                new scala.Tuple2<>(3, new int[] {1, 1, 0}));
        assertEquals(5, LdaDocuments.corpus(docs, 2, 5).numTokens());
        org.sparkmc.core.InvalidInputException e = org.junit.jupiter.api.Assertions.assertThrows(
                org.sparkmc.core.InvalidInputException.class, () -> LdaDocuments.corpus(docs, 2, 4));
        assertEquals("a document block holds more than 4 tokens (the most one block's arrays can index), reached at "
                + "document 7 of the block's 2; use more --blocks, so that the corpus' tokens divided by --blocks "
                + "stay below that", e.getMessage());
    }
}
