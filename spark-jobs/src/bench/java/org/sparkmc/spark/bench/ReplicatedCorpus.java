package org.sparkmc.spark.bench;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.rng.UniformRandomProvider;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.core.lda.UciBagOfWords;
import org.sparkmc.core.random.RandomStreams;

/**
 * A load-test corpus: a UCI bag-of-words corpus replicated R times, every copy of every document under a new id
 * from one random permutation of 1..R·D (so held-out selection by id, {@code id % 10 == 0}, picks about a tenth of
 * the copies at random). Writes {@code docword.<name>.txt.gz} (lines sorted by the new id) and a copy of the
 * vocabulary into the output directory.
 *
 * <p>Usage: {@code submit/bench spark-jobs org.sparkmc.spark.bench.ReplicatedCorpus data/kos/docword.kos.txt.gz
 * data/kos/vocab.kos.txt 20 /tmp/bench-kos20 kos20 [seed]}
 */
public final class ReplicatedCorpus {
    public static void main(String[] args) throws IOException {
        Path docword = Path.of(args[0]);
        Path vocab = Path.of(args[1]);
        int copies = Integer.parseInt(args[2]);
        Path out = Path.of(args[3]);
        String name = args[4];
        long seed = args.length > 5 ? Long.parseLong(args[5]) : 20261122L;
        Corpus corpus;
        try (InputStream in = new GZIPInputStream(Files.newInputStream(docword), 1 << 16)) {
            corpus = UciBagOfWords.readDocword(in, docword.toString()).corpus();
        }
        int d = corpus.numDocuments();
        int w = corpus.vocabularySize();
        long total = (long) d * copies;
        if (total > Integer.MAX_VALUE - 1) {
            throw new IllegalArgumentException(total + " documents is too many");
        }
        // newId[c * d + j] = the id of copy c of document j: a Fisher–Yates permutation of 1..R·D.
        int n = (int) total;
        int[] newId = new int[n];
        for (int i = 0; i < n; i++) {
            newId[i] = i + 1;
        }
        UniformRandomProvider rng = new RandomStreams(seed).stream("replicated-corpus-ids");
        for (int i = n - 1; i > 0; i--) {
            int j = rng.nextInt(i + 1);
            int t = newId[i];
            newId[i] = newId[j];
            newId[j] = t;
        }
        int[] byId = new int[n + 1];
        for (int i = 0; i < n; i++) {
            byId[newId[i]] = i;
        }
        // Each source document's (word, count) lines, and NNZ.
        int[][] lineWords = new int[d][];
        int[][] lineCounts = new int[d][];
        long nnz = 0;
        int[] count = new int[w];
        for (int j = 0; j < d; j++) {
            int distinct = 0;
            for (int i = corpus.docStart(j); i < corpus.docEnd(j); i++) {
                if (count[corpus.word(i)]++ == 0) {
                    distinct++;
                }
            }
            lineWords[j] = new int[distinct];
            lineCounts[j] = new int[distinct];
            int k = 0;
            for (int i = corpus.docStart(j); i < corpus.docEnd(j); i++) {
                int v = corpus.word(i);
                if (count[v] > 0) {
                    lineWords[j][k] = v;
                    lineCounts[j][k++] = count[v];
                    count[v] = 0;
                }
            }
            nnz += distinct;
        }
        nnz *= copies;
        Files.createDirectories(out);
        Path target = out.resolve("docword." + name + ".txt.gz");
        long tokens = 0;
        try (Writer writer = new BufferedWriter(new OutputStreamWriter(
                new GZIPOutputStream(Files.newOutputStream(target), 1 << 16), StandardCharsets.US_ASCII), 1 << 16)) {
            writer.write(n + "\n" + w + "\n" + nnz + "\n");
            StringBuilder line = new StringBuilder();
            for (int id = 1; id <= n; id++) {
                int j = byId[id] % d;
                for (int k = 0; k < lineWords[j].length; k++) {
                    line.setLength(0);
                    line.append(id).append(' ').append(lineWords[j][k] + 1).append(' ').append(lineCounts[j][k])
                            .append('\n');
                    writer.append(line);
                    tokens += lineCounts[j][k];
                }
            }
        }
        Files.copy(vocab, out.resolve("vocab." + name + ".txt"), StandardCopyOption.REPLACE_EXISTING);
        System.out.printf("%s: %d documents (%d copies of %d), %d words, %d lines, %d tokens%n", target, n, copies, d,
                w, nnz, tokens);
    }
}
