package org.sparkmc.spark.fuzz;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.spark.sql.SparkSession;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.fuzz.Mutations;
import org.sparkmc.spark.lda.LdaCorpus;
import org.sparkmc.spark.lda.LdaCorpusReader;

/**
 * Property-based bad-input test (jqwik, fixed seed) of the lda job's plain-text corpus reader (Spark ML's tokenizer,
 * stop-word remover and count vectorizer, then our corpus builder): any text gives a corpus whose documents are all
 * non-empty or one clear InvalidInputException naming the file — never another exception. Few tries: each runs
 * Spark jobs.
 */
class TextCorpusFuzzTest {
    static final String TEXT = "The quick brown fox jumps over the lazy dog\n\nA fox, a dog; and the QUICK cat!\n"
            + "Ünïcödé wörds — and numbers 42 3.14\nlazy lazy lazy\n";
    static SparkSession spark;

    @BeforeContainer
    static void start() {
        spark = SparkSession.builder().master("local[1]").appName("text-fuzz").config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
                .getOrCreate();
    }

    @AfterContainer
    static void stop() {
        spark.stop();
        SparkSession.clearActiveSession();
        SparkSession.clearDefaultSession();
    }

    @Provide
    Arbitrary<String> texts() {
        return Arbitraries.oneOf(Mutations.mutated(TEXT), Mutations.randomText());
    }

    @Property(tries = 30, seed = "20261122")
    void textGivesACorpusOrNamesItsError(@ForAll("texts") String text) throws Exception {
        Path file = Files.createTempFile("fuzz", ".txt");
        try {
            Files.writeString(file, text);
            try {
                LdaCorpus corpus = LdaCorpusReader.readText(spark, file.toString(),
                        new LdaCorpusReader.TextOptions(100, 1, true, "[^\\p{L}\\p{N}']+", 1));
                var all = corpus.documents().collect();
                for (int d = 0; d < all.numDocuments(); d++) {
                    assertTrue(all.docLength(d) > 0, "empty document kept");
                }
            } catch (InvalidInputException e) {
                assertTrue(e.getMessage().contains(file.toString()), "error does not name the file: " + e.getMessage());
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
