package org.sparkmc.spark.generate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.cli.BadInputTest;
import org.sparkmc.spark.cli.ExitCode;

/**
 * {@code sparkmc generate-lda} on the shared local[2] context: its corpus is read by the {@code lda} job, its files
 * do not depend on the number of part files, and bad options exit 2 before anything is written.
 */
class GenerateLdaTest extends SparkTestBase {
    @TempDir
    Path tmp;

    private static BadInputTest.Result run(String... args) {
        return BadInputTest.runCapturing(args);
    }

    private static JsonNode json(Path file) throws IOException {
        return new ObjectMapper().readTree(file.toFile());
    }

    /** The small preset, generated on three partitions, runs through the lda job end to end (a few sweeps). */
    @Test
    void smallPresetIsReadByTheLdaJob() throws IOException {
        Path gen = tmp.resolve("gen");
        BadInputTest.Result g = run("generate-lda", "--preset", "small", "--partitions", "3", "--out", gen.toString());
        assertEquals(ExitCode.OK, g.code(), g.err());
        assertTrue(Files.exists(gen.resolve("_SUCCESS")));
        JsonNode settings = json(gen.resolve("settings.json"));
        assertEquals(2000, settings.get("documents").asInt());
        long tokens = settings.get("tokens").asLong();
        assertTrue(Math.abs(tokens - 300_000) < 20_000, "tokens " + tokens);
        List<String> planted = Files.readAllLines(gen.resolve("planted_topics.csv"));
        assertEquals("topic,rank,word_id,word,probability", planted.get(0));
        assertEquals(1 + 20 * 20, planted.size());
        assertTrue(planted.get(1).startsWith("0,1,") && planted.get(20).startsWith("0,20,"), "ranks from 1, as in "
                + "the lda job's topics.csv: " + planted.subList(1, 3));

        Path lda = tmp.resolve("lda");
        BadInputTest.Result l = run("lda", "--docword", gen.resolve("docword").toString(), "--vocab",
                gen.resolve("vocab.txt").toString(), "--topics", "20", "--alpha", "0.1", "--sweeps", "3",
                "--held-out-every", "0", "--blocks", "2", "--out", lda.toString());
        assertEquals(ExitCode.OK, l.code(), l.err());
        JsonNode summary = json(lda.resolve("summary.json"));
        assertEquals(2000, summary.get("documents").asInt());
        assertEquals(2000, summary.get("vocabulary").asInt());
        assertEquals(tokens, summary.get("training_tokens").asLong());
        assertEquals(Files.readAllLines(gen.resolve("vocab.txt")), Files.readAllLines(lda.resolve("vocabulary.txt")));
    }

    /** One part file or three, plain or gzipped: the same docword lines, vocabulary and planted topics. */
    @Test
    void filesAreTheSameForOneAndThreePartitions() throws IOException {
        Path one = tmp.resolve("one");
        Path three = tmp.resolve("three");
        String[] common = {"generate-lda", "--documents", "300", "--vocabulary", "500", "--topics", "5"};
        assertEquals(ExitCode.OK, run(concat(common, "--partitions", "1", "--out", one.toString())).code());
        BadInputTest.Result r = run(concat(common, "--partitions", "3", "--gzip", "--out", three.toString()));
        assertEquals(ExitCode.OK, r.code(), r.err());
        String docword = docword(one.resolve("docword"));
        assertEquals(docword, docword(three.resolve("docword")));
        String[] lines = docword.split("\n");
        assertEquals("300", lines[0]);
        assertEquals("500", lines[1]);
        assertEquals(Long.parseLong(lines[2]), lines.length - 3);
        assertEquals(Long.parseLong(lines[2]), json(one.resolve("settings.json")).get("docword_lines").asLong());
        assertEquals("1", lines[3].split(" ")[0]);
        assertEquals("300", lines[lines.length - 1].split(" ")[0]);
        assertArrayEquals(Files.readAllBytes(one.resolve("vocab.txt")), Files.readAllBytes(three.resolve("vocab.txt")));
        assertEquals("w000", Files.readAllLines(one.resolve("vocab.txt")).get(0));
        assertArrayEquals(Files.readAllBytes(one.resolve("planted_topics.csv")),
                Files.readAllBytes(three.resolve("planted_topics.csv")));
        List<Row> phiOne = spark().read().parquet(one.resolve("planted_topic_word.parquet").toString())
                .orderBy("topic").collectAsList();
        List<Row> phiThree = spark().read().parquet(three.resolve("planted_topic_word.parquet").toString())
                .orderBy("topic").collectAsList();
        assertEquals(phiOne, phiThree);
        assertEquals(5, phiOne.size());
        assertEquals(500, phiOne.get(0).getList(1).size());
    }

    @Test
    void badOptionsExitTwoAndWriteNothing() throws IOException {
        String out = tmp.resolve("out").toString();
        String[][] bad = {
            {"--preset", "huge"},
            {"--topics", "0"},
            {"--vocabulary", "10", "--topics", "20"},
            {"--alpha", "-1"},
            {"--alpha", "1e308"},
            {"--alpha", "0.5d"},
            {"--background", "1"},
            {"--mean-length", "0.5"},
            {"--documents", "0"},
            {"--partitions", "-1"},
            {"--top-words", "0"},
        };
        for (String[] options : bad) {
            BadInputTest.Result r = run(concat(concat(new String[] {"generate-lda"}, options), "--out", out));
            assertEquals(ExitCode.BAD_INPUT, r.code(), String.join(" ", options) + ": " + r.err());
            assertFalse(r.err().contains("\tat "), "no stack trace for bad input: " + r.err());
            assertFalse(Files.exists(tmp.resolve("out")), "nothing written for " + String.join(" ", options));
        }
        Files.createDirectories(tmp.resolve("out"));
        BadInputTest.Result exists = run("generate-lda", "--documents", "10", "--out", out);
        assertEquals(ExitCode.BAD_INPUT, exists.code(), exists.err());
        try (Stream<Path> files = Files.list(tmp.resolve("out"))) {
            assertEquals(0, files.count());
        }
    }

    /** The docword directory's files in path order (hidden ones skipped), gunzipped where named .gz. */
    private static String docword(Path dir) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> !p.getFileName().toString().startsWith("_")
                    && !p.getFileName().toString().startsWith(".")).sorted().toList()) {
                try (InputStream in = f.toString().endsWith(".gz") ? new GZIPInputStream(Files.newInputStream(f))
                        : Files.newInputStream(f)) {
                    in.transferTo(all);
                }
            }
        }
        return all.toString(StandardCharsets.US_ASCII);
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
