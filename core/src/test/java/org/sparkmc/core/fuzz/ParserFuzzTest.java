package org.sparkmc.core.fuzz;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.sparkmc.core.bayesnet.BifReader;
import org.sparkmc.core.lda.UciBagOfWords;
import org.sparkmc.core.smc.ObservationCsv;

/**
 * Property-based bad-input tests (jqwik, fixed seed, 300–600 tries each): the core parsers — UCI docword and
 * vocabulary, BIF, observation CSV — answer any text with a result or one clear InvalidInputException, never
 * another exception, a hang or an out-of-memory.
 */
class ParserFuzzTest {
    static final String DOCWORD = "3\n5\n6\n1 1 2\n1 3 1\n2 2 4\n2 5 1\n3 4 3\n3 1 1\n";
    static final String VOCAB = "apple\nbanana\ncherry\ndate\nelder\n";
    static final String OBSERVATIONS = "t,y\n1,1120\n2,1160\n3,963\n4,NA\n5,1210\n";
    static String alarmHead;

    static String alarm() throws Exception {
        if (alarmHead == null) {
            Path shared = Path.of(System.getProperty("sparkmc.shared.data", "../../shared/data"));
            String text = Files.readString(shared.resolve("alarm/alarm.bif"));
            alarmHead = text.substring(0, Math.min(text.length(), 4000));
        }
        return alarmHead;
    }

    @Provide
    Arbitrary<String> docwords() {
        return net.jqwik.api.Arbitraries.oneOf(Mutations.mutated(DOCWORD), Mutations.mutated(DOCWORD
                .replace("3\n5\n6", "3\n2147483647\n6")), Mutations.randomText());
    }

    @Property(tries = 600, seed = "20261122")
    void docword(@ForAll("docwords") String text) {
        Mutations.resultOrClearError("docword", () -> UciBagOfWords.readDocword(new StringReader(text), "fuzz.txt"));
    }

    @Property(tries = 300, seed = "20261122")
    void gzippedGarbageIsAClearError(@ForAll("docwords") String text) {
        Mutations.resultOrClearError("docword.gz", () -> UciBagOfWords.readDocword(
                new java.io.ByteArrayInputStream(text.getBytes(java.nio.charset.StandardCharsets.UTF_8)), "fuzz.gz"));
    }

    @Provide
    Arbitrary<String> vocabularies() {
        return Mutations.mutated(VOCAB);
    }

    @Property(tries = 300, seed = "20261122")
    void vocabulary(@ForAll("vocabularies") String text) {
        Mutations.resultOrClearError("vocab", () -> UciBagOfWords.readVocabulary(new StringReader(text), "v.txt", 5));
    }

    @Provide
    Arbitrary<String> bifs() throws Exception {
        return Mutations.mutated(alarm());
    }

    @Property(tries = 600, seed = "20261122")
    void bif(@ForAll("bifs") String text) {
        Mutations.resultOrClearError("bif", () -> BifReader.read(new StringReader(text), "fuzz.bif"));
    }

    @Property(tries = 300, seed = "20261122")
    void bifFromRandomText(@ForAll("randomText") String text) {
        Mutations.resultOrClearError("bif", () -> BifReader.read(new StringReader(text), "fuzz.bif"));
    }

    @Provide
    Arbitrary<String> randomText() {
        return Mutations.randomText();
    }

    @Provide
    Arbitrary<String> observationFiles() {
        return Mutations.mutated(OBSERVATIONS);
    }

    @Property(tries = 600, seed = "20261122")
    void observations(@ForAll("observationFiles") String text) {
        Mutations.resultOrClearError("observations", () -> ObservationCsv.read(new StringReader(text), "obs.csv",
                ObservationCsv.Options.defaults()));
    }
}
