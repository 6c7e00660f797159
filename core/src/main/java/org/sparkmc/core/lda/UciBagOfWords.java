package org.sparkmc.core.lda;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.sparkmc.core.InvalidInputException;

/**
 * Reads the UCI Machine Learning Repository "Bag of Words" format (D. Newman): {@code docword.*.txt} holds three
 * header lines D, W and NNZ, then NNZ lines {@code docID wordID count} (1-based ids, positive counts);
 * {@code vocab.*.txt} holds word n on line n.
 *
 * <p>Streams are read from whatever the caller opened (a local file, or Hadoop's {@code FileSystem} in the Spark
 * job); {@code source} names it in error messages. Errors in the input throw {@link InvalidInputException} naming
 * the source, the line and what was expected: malformed lines, ids out of range, non-positive counts, a body whose
 * line count disagrees with NNZ, a corpus without tokens. Documents 1..D that have no line are skipped and
 * counted. Word ids become 0-based; each document keeps its 1-based UCI docID; a document's tokens are its
 * {@code (word, count)} lines expanded in file order.
 */
public final class UciBagOfWords {
    private UciBagOfWords() {
    }

    /**
     * A parsed docword file.
     *
     * @param corpus the non-empty documents
     * @param declaredDocuments D from the header
     * @param emptyDocuments documents among 1..D without any token (skipped)
     */
    public record Docword(Corpus corpus, int declaredDocuments, int emptyDocuments) {
    }

    /**
     * A docword file's three header lines; the body is lines 4 … of the file.
     *
     * @param documents D
     * @param vocabularySize W
     * @param lines NNZ, the number of body lines
     */
    public record Header(int documents, int vocabularySize, int lines) implements java.io.Serializable {
    }

    /** Reads a docword stream, un-gzipping it first if it starts with the gzip magic bytes. */
    public static Docword readDocword(InputStream in, String source) throws IOException {
        return readDocword(new InputStreamReader(ungzipped(in), StandardCharsets.US_ASCII), source);
    }

    /** Reads only the header of a docword stream (plain or gzipped). */
    public static Header readHeader(InputStream in, String source) throws IOException {
        BufferedReader reader = new BufferedReader(new InputStreamReader(ungzipped(in), StandardCharsets.US_ASCII));
        return header(reader, source, new int[] {0});
    }

    /** Reads only the header of a docword text. */
    public static Header readHeader(Reader reader, String source) throws IOException {
        BufferedReader in = reader instanceof BufferedReader br ? br : new BufferedReader(reader, 1 << 16);
        return header(in, source, new int[] {0});
    }

    private static InputStream ungzipped(InputStream in) throws IOException {
        BufferedInputStream buffered = new BufferedInputStream(in, 1 << 16);
        buffered.mark(2);
        int b0 = buffered.read();
        int b1 = buffered.read();
        buffered.reset();
        return (b0 == 0x1f && b1 == 0x8b) ? new GZIPInputStream(buffered, 1 << 16) : buffered;
    }

    /**
     * One body line (not blank) checked against the header: {docID, wordID, count}, 1-based ids within D and W and a
     * positive count, or an {@link InvalidInputException} naming the source and line.
     */
    public static long[] bodyLine(String line, String source, long lineNo, Header header) {
        long[] f = fields(line, source, lineNo);
        if (f[0] < 1 || f[0] > header.documents()) {
            throw new InvalidInputException(source + " line " + lineNo + ": docID " + f[0]
                    + " outside 1.." + header.documents() + " (header D)");
        }
        if (f[1] < 1 || f[1] > header.vocabularySize()) {
            throw new InvalidInputException(source + " line " + lineNo + ": wordID " + f[1]
                    + " outside 1.." + header.vocabularySize() + " (header W)");
        }
        if (f[2] < 1) {
            throw new InvalidInputException(source + " line " + lineNo + ": count " + f[2]
                    + " must be a positive integer");
        }
        return f;
    }

    /** Reads a docword text. */
    public static Docword readDocword(Reader reader, String source) throws IOException {
        BufferedReader in = reader instanceof BufferedReader br ? br : new BufferedReader(reader, 1 << 16);
        int[] lineNo = {0};
        Header header = header(in, source, lineNo);
        int numDocs = header.documents();
        int vocab = header.vocabularySize();
        int lines = header.lines();
        int[] docs = new int[lines];
        int[] wordIds = new int[lines];
        int[] counts = new int[lines];
        int[] docTokens = new int[numDocs];
        int n = 0;
        long tokens = 0;
        String line;
        while ((line = in.readLine()) != null) {
            lineNo[0]++;
            if (line.isBlank()) {
                continue;
            }
            if (n == lines) {
                throw new InvalidInputException(source + " line " + lineNo[0] + ": more body lines than the header's NNZ="
                        + lines);
            }
            long[] f = bodyLine(line, source, lineNo[0], header);
            tokens += f[2];
            if (tokens > Integer.MAX_VALUE - 8) {
                throw new InvalidInputException(source + " line " + lineNo[0]
                        + ": more than 2^31 - 8 tokens, larger than one corpus array can hold");
            }
            docs[n] = (int) f[0] - 1;
            wordIds[n] = (int) f[1] - 1;
            counts[n] = (int) f[2];
            docTokens[docs[n]] += counts[n];
            n++;
        }
        if (n != lines) {
            throw new InvalidInputException(source + ": the header says NNZ=" + lines + " lines but the body has " + n
                    + " (after line " + lineNo[0] + ")");
        }
        if (tokens == 0) {
            throw new InvalidInputException(source + ": the corpus has no tokens");
        }
        // Counting sort of the lines by document, keeping file order within a document.
        int nonEmpty = 0;
        for (int t : docTokens) {
            if (t > 0) {
                nonEmpty++;
            }
        }
        int[] docStarts = new int[nonEmpty + 1];
        int[] docIds = new int[nonEmpty];
        int[] slot = new int[numDocs];
        int j = 0;
        int offset = 0;
        for (int doc = 0; doc < numDocs; doc++) {
            if (docTokens[doc] > 0) {
                docIds[j] = doc + 1;
                slot[doc] = offset;
                offset += docTokens[doc];
                docStarts[++j] = offset;
            }
        }
        int[] words = new int[(int) tokens];
        for (int i = 0; i < n; i++) {
            int at = slot[docs[i]];
            for (int c = 0; c < counts[i]; c++) {
                words[at + c] = wordIds[i];
            }
            slot[docs[i]] = at + counts[i];
        }
        return new Docword(Corpus.of(docStarts, words, docIds, vocab), numDocs, numDocs - nonEmpty);
    }

    /**
     * Reads a vocabulary stream: one word per line, line n = word id n (1-based in the file, 0-based in the
     * result). {@code expectedSize} (the docword header's W) must match the number of lines; pass a negative value
     * to accept any size. Duplicate words are errors, and so is a blank line before a word (it would shift the ids
     * of the words after it); blank lines at the end (an editor's extra newline) shift nothing and are skipped.
     */
    public static String[] readVocabulary(Reader reader, String source, int expectedSize) throws IOException {
        BufferedReader in = reader instanceof BufferedReader br ? br : new BufferedReader(reader, 1 << 16);
        List<String> words = new ArrayList<>();
        java.util.Map<String, Integer> seen = new java.util.HashMap<>();
        String line;
        int lineNo = 0;
        int firstBlank = 0; // the first blank line (0: none yet), refused if a word follows it
        while ((line = in.readLine()) != null) {
            lineNo++;
            String word = line.strip();
            if (word.isEmpty()) {
                firstBlank = firstBlank == 0 ? lineNo : firstBlank;
                continue;
            }
            if (firstBlank != 0) {
                throw new InvalidInputException(source + " line " + firstBlank + ": empty word (one word per line "
                        + "expected; a blank line before line " + lineNo + "'s word would shift the ids of the words "
                        + "after it)");
            }
            Integer before = seen.putIfAbsent(word, lineNo);
            if (before != null) {
                throw new InvalidInputException(source + " line " + lineNo + ": word '" + word
                        + "' repeats line " + before);
            }
            words.add(word);
        }
        if (expectedSize >= 0 && words.size() != expectedSize) {
            throw new InvalidInputException(source + ": " + words.size() + " words but the docword header says W="
                    + expectedSize);
        }
        return words.toArray(new String[0]);
    }

    /** Reads a vocabulary stream (plain or gzipped) as UTF-8. */
    public static String[] readVocabulary(InputStream in, String source, int expectedSize) throws IOException {
        return readVocabulary(new InputStreamReader(ungzipped(in), StandardCharsets.UTF_8), source, expectedSize);
    }

    private static Header header(BufferedReader in, String source, int[] lineNo) throws IOException {
        long d = headerLine(in, source, lineNo, "D (number of documents)");
        long w = headerLine(in, source, lineNo, "W (vocabulary size)");
        long nnz = headerLine(in, source, lineNo, "NNZ (number of docID wordID count lines)");
        if (d > Integer.MAX_VALUE - 1 || w > Integer.MAX_VALUE - 1 || nnz > Integer.MAX_VALUE - 8) {
            throw new InvalidInputException(source + ": header D=" + d + " W=" + w + " NNZ=" + nnz
                    + " is larger than this reader supports (2^31 - 8)");
        }
        return new Header((int) d, (int) w, (int) nnz);
    }

    private static long headerLine(BufferedReader in, String source, int[] lineNo, String what) throws IOException {
        String line = in.readLine();
        lineNo[0]++;
        if (line == null) {
            throw new InvalidInputException(source + " line " + lineNo[0] + ": end of input, expected header " + what);
        }
        String t = line.strip();
        long value;
        try {
            value = Long.parseLong(t);
        } catch (NumberFormatException e) {
            throw new InvalidInputException(source + " line " + lineNo[0] + ": expected header " + what
                    + " as one non-negative integer, found '" + abbreviate(line) + "'", e);
        }
        if (value < 0) {
            throw new InvalidInputException(source + " line " + lineNo[0] + ": header " + what + " is negative: "
                    + value);
        }
        return value;
    }

    /** Parses "docID wordID count" (whitespace-separated integers) without allocating per field. */
    private static long[] fields(String line, String source, long lineNo) {
        long[] f = new long[3];
        int i = 0;
        int len = line.length();
        for (int k = 0; k < 3; k++) {
            while (i < len && Character.isWhitespace(line.charAt(i))) {
                i++;
            }
            int start = i;
            boolean negative = false;
            if (i < len && (line.charAt(i) == '-' || line.charAt(i) == '+')) {
                negative = line.charAt(i) == '-';
                i++;
            }
            long v = 0;
            int digits = 0;
            while (i < len && line.charAt(i) >= '0' && line.charAt(i) <= '9') {
                v = v * 10 + (line.charAt(i) - '0');
                if (v > Integer.MAX_VALUE) {
                    throw malformed(line, source, lineNo, "a number is larger than 2^31 - 1");
                }
                i++;
                digits++;
            }
            if (digits == 0 || (i < len && !Character.isWhitespace(line.charAt(i)))) {
                throw malformed(line, source, lineNo, start >= len ? "only " + k + " of 3 fields"
                        : "field " + (k + 1) + " is not an integer");
            }
            f[k] = negative ? -v : v;
        }
        while (i < len && Character.isWhitespace(line.charAt(i))) {
            i++;
        }
        if (i < len) {
            throw malformed(line, source, lineNo, "more than 3 fields");
        }
        return f;
    }

    private static InvalidInputException malformed(String line, String source, long lineNo, String why) {
        return new InvalidInputException(source + " line " + lineNo + ": expected 'docID wordID count' (three integers), "
                + why + ": '" + abbreviate(line) + "'");
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }
}
