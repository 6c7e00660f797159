package org.sparkmc.spark.lda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.cli.Main;

/**
 * Plain-text input through Spark ML's RegexTokenizer, StopWordsRemover and CountVectorizer: a corpus written from
 * three planted topics of six words each (with stop words sprinkled in and blank lines) is recovered.
 */
class LdaTextCorpusTest extends SparkTestBase {
    static final String[][] PLANTED = {
        {"apple", "banana", "cherry", "grape", "lemon", "mango"},
        {"engine", "piston", "turbine", "valve", "gasket", "rotor"},
        {"violin", "cello", "flute", "oboe", "trumpet", "harp"}};
    static final int BLANK_LINES = 4;

    @TempDir
    Path tmp;

    /** 120 documents of 30 words, each from one planted topic, with "the"/"and" between words; 4 blank lines. */
    static Path writeCorpus(Path dir) throws IOException {
        UniformRandomProvider rng = new RandomStreams(5).stream("text-corpus");
        List<String> lines = new ArrayList<>();
        for (int d = 0; d < 120; d++) {
            if (d % 30 == 7) {
                lines.add("");
            }
            String[] topic = PLANTED[d % 3];
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < 30; i++) {
                line.append(topic[rng.nextInt(topic.length)]).append(i % 4 == 0 ? ", the " : " and ");
            }
            lines.add(line.toString().toUpperCase(java.util.Locale.ROOT));
        }
        Path file = dir.resolve("corpus.txt");
        Files.write(file, lines);
        return file;
    }

    /**
     * With α = 0.1 and 40 sweeps each learned topic's six most probable words are one planted topic's words, and the
     * three learned topics cover the three planted ones. The assignment is a fixed seed's: this cannot fail by chance.
     */
    @Test
    void recoversPlantedTopicsFromText() throws IOException {
        Path corpus = writeCorpus(tmp);
        Path out = tmp.resolve("out");
        assertEquals(ExitCode.OK, Main.run("lda", "--text", corpus.toString(), "--min-df", "1", "--topics", "3",
                "--alpha", "0.1", "--sweeps", "40", "--blocks", "2", "--top-words", "6", "--eval-burn-in", "5",
                "--eval-samples", "5", "--seed", "3", "--out", out.toString()));
        List<String> vocabulary = Files.readAllLines(out.resolve("vocabulary.txt"));
        assertEquals(18, vocabulary.size(), "stop words removed, 18 planted words left: " + vocabulary);
        List<String> rows = Files.readAllLines(out.resolve("topics.csv"));
        Set<Integer> matched = new HashSet<>();
        for (int k = 0; k < 3; k++) {
            Set<String> words = new HashSet<>();
            for (String row : rows.subList(1 + 6 * k, 1 + 6 * (k + 1))) {
                words.add(row.split(",")[3]);
            }
            int planted = -1;
            for (int p = 0; p < 3; p++) {
                if (words.equals(Set.of(PLANTED[p]))) {
                    planted = p;
                }
            }
            assertTrue(planted >= 0, "topic " + k + " is not a planted topic: " + words);
            matched.add(planted);
        }
        assertEquals(3, matched.size());
        JsonNode summary = new ObjectMapper().readTree(out.resolve("summary.json").toFile());
        assertEquals(BLANK_LINES, summary.get("empty_documents_skipped").asInt());
        assertEquals(120 + BLANK_LINES, summary.get("documents").asInt() + BLANK_LINES);
        // Held out: documents whose line number is a multiple of 10 — lines 10, 20, …, 120 but the blank line 70.
        assertEquals(11, summary.get("held_out_documents").asInt());
    }

    /**
     * Tokens are lowercased runs of letters and digits, with an apostrophe inside a word kept (don't) and one at its
     * edge dropped ('apple' is apple); one-character tokens are dropped, as the README says.
     */
    @Test
    void tokensAreWordsWithInnerApostrophes() {
        Dataset<Row> docs = spark().createDataFrame(List.of(RowFactory.create(
                "'Apple' apple, DON'T students' rock 'n' roll a I'm 42 x2 ''quoted'' l'été -- über")),
                new StructType().add("text", DataTypes.StringType));
        List<String> words = LdaCorpusReader.tokenize(docs, LdaCorpusReader.TextOptions.of(10, 1, false))
                .select("words").first().getList(0);
        assertEquals(List.of("apple", "apple", "don't", "students", "rock", "roll", "i'm", "42", "x2", "quoted",
                "l'été", "über"), words);
    }
}
