package org.sparkmc.spark.lda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.cli.BadInputTest;
import org.sparkmc.spark.cli.ExitCode;

/**
 * The lda job's corpus files as bytes rather than as text (issue 18, item 10): compression that contradicts the name
 * or breaks off, counts beyond what a document can hold, bytes that are not UTF-8, byte-order marks, and ':' in
 * paths. Each bad case ends with exit 2 and one message naming the file (and line), nothing written.
 */
class LdaCorpusFilesTest extends SparkTestBase {
    private static final String VOCAB3 = "alpha\nbeta\ngamma\n";
    private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

    @TempDir
    Path tmp;

    /** A docword body far longer than the driver's read-ahead, so only the executors meet its end. */
    private static String largeDocword() {
        Random random = new Random(7); // test data only
        StringBuilder body = new StringBuilder();
        int lines = 0;
        for (int d = 1; d <= 20_000; d++) {
            for (int w = 1; w <= 3; w++) {
                body.append(d).append(' ').append(w).append(' ').append(1 + random.nextInt(999)).append('\n');
                lines++;
            }
        }
        return "20000\n3\n" + lines + "\n" + body;
    }

    private static byte[] gzip(byte[] data) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream out = new GZIPOutputStream(bytes)) {
            out.write(data);
        }
        return bytes.toByteArray();
    }

    private String[] lda(Path docword, Path vocab) {
        return new String[] {"lda", "--docword", docword.toString(), "--vocab", vocab.toString(), "--topics", "2",
            "--sweeps", "2", "--out", tmp.resolve("out").toString()};
    }

    @Test
    void truncatedGzipDocwordIsNamedWithTheLineReached() throws IOException {
        byte[] whole = gzip(largeDocword().getBytes(StandardCharsets.US_ASCII));
        Path docword = Files.write(tmp.resolve("docword.cut.txt.gz"), Arrays.copyOf(whole, whole.length / 2));
        Path vocab = Files.writeString(tmp.resolve("vocab.txt"), VOCAB3);
        String err = assertBadInput(lda(docword, vocab), "docword.cut.txt.gz: not a complete gzip file (its data "
                + "break off after line ");
        assertTrue(err.contains("is it truncated?"), err);
    }

    @Test
    void plainTextNamedGzIsRefused() throws IOException {
        Path docword = Files.writeString(tmp.resolve("docword.plain.txt.gz"), "2\n3\n2\n1 1 2\n2 3 1\n");
        Path vocab = Files.writeString(tmp.resolve("vocab.txt"), VOCAB3);
        assertBadInput(lda(docword, vocab), "docword.plain.txt.gz: not a gzip file (its name ends in .gz but it does "
                + "not start with gzip's bytes 1f 8b)");
    }

    @Test
    void gzipNotNamedGzIsRefusedForHeaderAndBodyAlike() throws IOException {
        Path docword = Files.write(tmp.resolve("docword.txt"),
                gzip("2\n3\n2\n1 1 2\n2 3 1\n".getBytes(StandardCharsets.US_ASCII)));
        Path vocab = Files.writeString(tmp.resolve("vocab.txt"), VOCAB3);
        assertBadInput(lda(docword, vocab), "docword.txt: gzip data in a file whose name does not end in .gz");
    }

    @Test
    void countBeyondADocumentsMemoryNamesLineAndSizes() throws IOException {
        Path docword = Files.writeString(tmp.resolve("docword.big.txt"), "2\n3\n2\n1 1 2147483000\n2 3 1\n");
        Path vocab = Files.writeString(tmp.resolve("vocab.txt"), VOCAB3);
        String err = assertBadInput(lda(docword, vocab), "docword.big.txt line 4: count 2147483000 brings docID 1 to "
                + "2147483000 tokens, more than the ");
        assertTrue(err.contains("its word ids need 8192 MiB on an executor"), err);
        assertTrue(err.contains("raise spark.executor.memory"), err);
    }

    @Test
    void vocabularyNotUtf8NamesLineAndColumn() throws IOException {
        Path docword = Files.writeString(tmp.resolve("docword.txt"), "2\n3\n2\n1 1 2\n2 3 1\n");
        Path vocab = Files.write(tmp.resolve("vocab.txt"), new byte[] {'a', 'l', 'p', 'h', 'a', '\n', 'c', 'a', 'f',
            (byte) 0xE9, '\n', 'g', 'a', 'm', 'm', 'a', '\n'});
        assertBadInput(lda(docword, vocab), "vocab.txt line 2 column 4: byte 0xE9 (byte 4 of the line) is not UTF-8");
    }

    @Test
    void textCorpusNotUtf8NamesTheLineInALaterSplit() throws IOException {
        StringBuilder text = new StringBuilder();
        for (int i = 1; i < 3000; i++) {
            text.append("document number ").append(i).append(" about rivers and mountains\r\n");
        }
        Path file = tmp.resolve("corpus.txt");
        try (OutputStream out = Files.newOutputStream(file)) {
            out.write(text.toString().getBytes(StandardCharsets.US_ASCII));
            out.write(new byte[] {'n', 'a', (byte) 0xEF, 'v', 'e', '\n'});
            out.write("last line\n".getBytes(StandardCharsets.US_ASCII));
        }
        assertBadInput(new String[] {"lda", "--text", file.toString(), "--partitions", "2", "--out",
            tmp.resolve("out").toString()}, "corpus.txt line 3000 column 3: byte 0xEF (byte 3 of the line) is not "
                + "UTF-8");
    }

    @Test
    void byteOrderMarksAreDroppedFromEveryCorpusFile() throws IOException {
        Path docword = tmp.resolve("docword.txt");
        Files.write(docword, concat(BOM, "2\n3\n2\n1 1 2\n2 3 1\n".getBytes(StandardCharsets.US_ASCII)));
        Path gz = tmp.resolve("docword.txt.gz");
        Files.write(gz, gzip(Files.readAllBytes(docword)));
        Path vocab = tmp.resolve("vocab.txt");
        Files.write(vocab, concat(BOM, VOCAB3.getBytes(StandardCharsets.UTF_8)));
        for (Path file : new Path[] {docword, gz}) {
            LdaCorpus corpus = LdaCorpusReader.readUci(jsc(), file.toString(), vocab.toString());
            assertArrayEquals(new String[] {"alpha", "beta", "gamma"}, corpus.vocabulary());
            assertEquals(3, corpus.documents().numTokens());
        }
        Path text = tmp.resolve("text.txt");
        Files.write(text, concat(BOM, "zebra river\nzebra river\n".getBytes(StandardCharsets.UTF_8)));
        LdaCorpus corpus = LdaCorpusReader.readText(spark(), text.toString(),
                LdaCorpusReader.TextOptions.of(10, 1, true));
        assertEquals("[river, zebra]", Arrays.toString(Arrays.stream(corpus.vocabulary()).sorted().toArray()));
    }

    /**
     * A docword directory (as {@code sparkmc generate-lda} writes it: a header file, then part files, some gzipped,
     * and Spark's hidden {@code _SUCCESS}) reads as the one file its files make in path order.
     */
    @Test
    void docwordDirectoryReadsAsItsFilesInPathOrder() throws IOException {
        String body1 = "1 1 2\n1 3 1\n2 2 4\n";
        String body2 = "3 1 1\n3 2 1\n";
        Path single = Files.writeString(tmp.resolve("docword.txt"), "3\n3\n5\n" + body1 + body2);
        Path dir = Files.createDirectories(tmp.resolve("docword"));
        Files.writeString(dir.resolve("header"), "3\n3\n5\n");
        Files.writeString(dir.resolve("part-00000"), body1);
        Files.write(dir.resolve("part-00001.gz"), gzip(body2.getBytes(StandardCharsets.US_ASCII)));
        Files.writeString(dir.resolve("_SUCCESS"), "");
        Path vocab = Files.writeString(tmp.resolve("vocab.txt"), VOCAB3);
        Corpus fromFile = LdaCorpusReader.readUci(jsc(), single.toString(), vocab.toString()).documents().collect();
        Corpus fromDir = LdaCorpusReader.readUci(jsc(), dir.toString(), vocab.toString()).documents().collect();
        assertEquals(3, fromDir.numDocuments());
        assertEquals(9, fromDir.numTokens());
        assertArrayEquals(fromFile.words(), fromDir.words());
        for (int d = 0; d < fromFile.numDocuments(); d++) {
            assertEquals(fromFile.docId(d), fromDir.docId(d));
            assertEquals(fromFile.docStart(d), fromDir.docStart(d));
        }
        Files.writeString(dir.resolve("part-00002"), "3 3 1\n");
        assertBadInput(lda(dir, vocab), "more body lines than the header's NNZ=5");
    }

    @Test
    void colonsInPathsAreReadAndWritten() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("x:y"));
        Path text = Files.writeString(dir.resolve("corpus.txt"), "zebra river\nzebra river lake\nlake river\n");
        Path out = tmp.resolve("a:b").resolve("c:d");
        BadInputTest.Result r = BadInputTest.runCapturing("lda", "--text", text.toString(), "--min-df", "1",
                "--topics", "2", "--sweeps", "2", "--held-out-every", "0", "--out", out.toString());
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertTrue(Files.exists(out.resolve("_SUCCESS")), r.err());
    }

    /** A subdirectory of a --text directory: its files were left out of the corpus without a word. */
    @Test
    void aSubdirectoryOfATextDirectoryIsRefused() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("corpus").resolve("sub"));
        Files.writeString(tmp.resolve("corpus").resolve("a.txt"), "zebra river\nriver stone\n");
        Files.writeString(dir.resolve("b.txt"), "zebra stone\n");
        assertBadInput(new String[] {"lda", "--text", tmp.resolve("corpus").toString(), "--out",
            tmp.resolve("out").toString()}, "corpus holds a directory 'sub', whose files would be left out; put them "
                + "directly in corpus, or name them with a pattern");
    }

    @Test
    void colonInAGlobbedDirectoryIsNamed() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("texts").resolve("a:b"));
        Files.writeString(dir.resolve("t.txt"), "zebra river\n");
        String pattern = tmp.resolve("texts") + "/*/t.txt";
        assertBadInput(new String[] {"lda", "--text", pattern, "--out", tmp.resolve("out").toString()},
                "--text '" + pattern + "': Hadoop's file listing cannot hold the name 'a:b'");
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] all = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    private String assertBadInput(String[] args, String expected) {
        BadInputTest.Result r = BadInputTest.runCapturing(args);
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains(expected), "expected '" + expected + "' in: " + r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace for bad input: " + r.err());
        assertEquals(1, r.err().strip().lines().filter(l -> l.startsWith("sparkmc")).count(), r.err());
        assertFalse(Files.exists(tmp.resolve("out")), "nothing written");
        return r.err();
    }
}
