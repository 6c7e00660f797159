package org.sparkmc.core.lda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.InvalidInputException;

class UciBagOfWordsTest {
    static Path kosDir() {
        return Path.of(System.getProperty("sparkmc.shared.data", "../../shared/data"), "kos");
    }

    private static UciBagOfWords.Docword parse(String text) throws IOException {
        return UciBagOfWords.readDocword(new StringReader(text), "docword.test.txt");
    }

    private static String error(String text) {
        return assertThrows(InvalidInputException.class, () -> parse(text)).getMessage();
    }

    @Test
    void expandsCountsIntoTokensAndSkipsEmptyDocuments() throws IOException {
        UciBagOfWords.Docword d = parse("4\n5\n4\n1 2 2\n1 5 1\n3 1 3\n\n4 4 1\n");
        Corpus c = d.corpus();
        assertEquals(4, d.declaredDocuments());
        assertEquals(1, d.emptyDocuments());
        assertEquals(3, c.numDocuments());
        assertEquals(5, c.vocabularySize());
        assertArrayEquals(new int[] {1, 1, 4, 0, 0, 0, 3}, c.words());
        assertArrayEquals(new int[] {0, 3, 6, 7}, c.docStarts());
        assertArrayEquals(new int[] {1, 3, 4}, c.docIds());
    }

    @Test
    void linesNeedNotBeSortedByDocument() throws IOException {
        Corpus c = parse("2\n3\n3\n2 3 1\n1 1 1\n2 2 2\n").corpus();
        assertArrayEquals(new int[] {0, 2, 1, 1}, c.words());
        assertArrayEquals(new int[] {1, 2}, c.docIds());
    }

    @Test
    void readsGzippedAndPlainStreams() throws IOException {
        String text = "1\n2\n1\n1 2 3\n";
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
            gz.write(text.getBytes(StandardCharsets.US_ASCII));
        }
        Corpus a = UciBagOfWords.readDocword(new ByteArrayInputStream(bytes.toByteArray()), "x.gz").corpus();
        Corpus b = UciBagOfWords.readDocword(new ByteArrayInputStream(text.getBytes(StandardCharsets.US_ASCII)), "x")
                .corpus();
        assertArrayEquals(new int[] {1, 1, 1}, a.words());
        assertArrayEquals(a.words(), b.words());
    }

    @Test
    void badInputNamesSourceLineAndExpectation() {
        String m = error("2\n3\n2\n1 2 1\n1 x 1\n");
        assertTrue(m.contains("docword.test.txt line 5") && m.contains("docID wordID count"), m);
        m = error("2\n3\n2\n1 2 1\n1 2\n");
        assertTrue(m.contains("line 5") && m.contains("only 2 of 3 fields"), m);
        m = error("2\n3\n1\n1 2 1 7\n");
        assertTrue(m.contains("line 4") && m.contains("more than 3 fields"), m);
        m = error("2\n3\n2\n1 2 1\n1 4 1\n");
        assertTrue(m.contains("line 5") && m.contains("wordID 4 outside 1..3"), m);
        m = error("2\n3\n1\n1 0 1\n");
        assertTrue(m.contains("line 4") && m.contains("wordID 0 outside"), m);
        m = error("2\n3\n1\n3 1 1\n");
        assertTrue(m.contains("line 4") && m.contains("docID 3 outside 1..2"), m);
        m = error("2\n3\n1\n1 1 0\n");
        assertTrue(m.contains("line 4") && m.contains("count 0 must be a positive integer"), m);
        m = error("2\n3\n1\n1 1 -2\n");
        assertTrue(m.contains("line 4") && m.contains("count -2"), m);
        m = error("2\n3\n3\n1 1 1\n2 1 1\n");
        assertTrue(m.contains("NNZ=3") && m.contains("body has 2"), m);
        m = error("2\n3\n1\n1 1 1\n2 1 1\n");
        assertTrue(m.contains("line 5") && m.contains("more body lines than the header's NNZ=1"), m);
        m = error("2\nthree\n1\n1 1 1\n");
        assertTrue(m.contains("line 2") && m.contains("W (vocabulary size)"), m);
        m = error("2\n3\n");
        assertTrue(m.contains("line 3") && m.contains("end of input"), m);
        m = error("2\n3\n0\n");
        assertTrue(m.contains("no tokens"), m);
        m = error("2\n3\n1\n1 99999999999 1\n");
        assertTrue(m.contains("line 4") && m.contains("larger than 2^31"), m);
    }

    @Test
    void vocabularyMustMatchTheHeader() throws IOException {
        assertArrayEquals(new String[] {"a", "b"}, UciBagOfWords.readVocabulary(new StringReader("a\nb\n"), "v", 2));
        String m = assertThrows(InvalidInputException.class,
                () -> UciBagOfWords.readVocabulary(new StringReader("a\nb\n"), "vocab.x.txt", 3)).getMessage();
        assertTrue(m.contains("vocab.x.txt") && m.contains("W=3"), m);
        m = assertThrows(InvalidInputException.class,
                () -> UciBagOfWords.readVocabulary(new StringReader("a\n\nb\n"), "v", -1)).getMessage();
        assertTrue(m.contains("line 2"), m);
        m = assertThrows(InvalidInputException.class,
                () -> UciBagOfWords.readVocabulary(new StringReader("a\nb\na\n"), "v", -1)).getMessage();
        assertTrue(m.contains("line 3") && m.contains("repeats line 1"), m);
    }

    /** Blank lines at the end shift no word id (an editor's extra newline); one before a word would, and is refused. */
    @Test
    void vocabularyMayEndInBlankLinesButHasNoneInside() throws IOException {
        assertArrayEquals(new String[] {"a", "b"},
                UciBagOfWords.readVocabulary(new StringReader("a\nb\n\n"), "v", 2));
        assertArrayEquals(new String[] {"a", "b"},
                UciBagOfWords.readVocabulary(new StringReader("a\r\nb\r\n\r\n  \n\n"), "v", 2));
        String m = assertThrows(InvalidInputException.class,
                () -> UciBagOfWords.readVocabulary(new StringReader("a\n\n \nb\n\n"), "v", -1)).getMessage();
        assertTrue(m.startsWith("v line 2: empty word") && m.contains("line 4"), m);
        m = assertThrows(InvalidInputException.class,
                () -> UciBagOfWords.readVocabulary(new StringReader("\na\n"), "v", -1)).getMessage();
        assertTrue(m.startsWith("v line 1: empty word"), m);
        m = assertThrows(InvalidInputException.class,
                () -> UciBagOfWords.readVocabulary(new StringReader("a\nb\n\n"), "v", 3)).getMessage();
        assertTrue(m.contains("2 words") && m.contains("W=3"), m);
    }

    /** The shared KOS file: D, W and N as published (UCI; Newman et al. 2009). */
    @Test
    void kosHasThePublishedSizes() throws IOException {
        Corpus kos;
        try (InputStream in = Files.newInputStream(kosDir().resolve("docword.kos.txt.gz"))) {
            UciBagOfWords.Docword d = UciBagOfWords.readDocword(in, "docword.kos.txt.gz");
            kos = d.corpus();
            assertEquals(3430, d.declaredDocuments());
            assertEquals(0, d.emptyDocuments());
        }
        assertEquals(3430, kos.numDocuments());
        assertEquals(6906, kos.vocabularySize());
        assertEquals(467_714, kos.numTokens());
        // First lines of the file: "1 61 2", "1 76 1".
        assertEquals(60, kos.word(0));
        assertEquals(60, kos.word(1));
        assertEquals(75, kos.word(2));
        try (InputStream in = Files.newInputStream(kosDir().resolve("vocab.kos.txt"))) {
            String[] vocab = UciBagOfWords.readVocabulary(in, "vocab.kos.txt", kos.vocabularySize());
            assertEquals(6906, vocab.length);
        }
        assertEquals(343, kos.selectByDocId(id -> id % 10 == 0).numDocuments());
    }
}
