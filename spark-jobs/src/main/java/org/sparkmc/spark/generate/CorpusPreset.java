package org.sparkmc.spark.generate;

import java.util.Locale;
import org.sparkmc.core.InvalidInputException;

/**
 * The corpus shapes {@code sparkmc generate-lda} knows by name: documents, vocabulary, topics and mean length.
 * {@code nytimes} and {@code pubmed} have the sizes of the UCI bag-of-words corpora of those names (D, W and about
 * their token counts: 99.5 M and 730 M); {@code small} is for tests and the planted-topic check.
 *
 * @param name the preset's name
 * @param documents D
 * @param vocabularySize V
 * @param topics K
 * @param meanLength mean tokens a document
 */
record CorpusPreset(String name, long documents, int vocabularySize, int topics, double meanLength) {
    static final CorpusPreset SMALL = new CorpusPreset("small", 2_000, 2_000, 20, 150);
    /** 300,000 × 333 ≈ 100 M tokens. */
    static final CorpusPreset NYTIMES = new CorpusPreset("nytimes", 300_000, 102_660, 100, 333);
    /** 8.2 M × 89 ≈ 730 M tokens. */
    static final CorpusPreset PUBMED = new CorpusPreset("pubmed", 8_200_000, 141_043, 100, 89);

    static CorpusPreset named(String name) {
        return switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "small" -> SMALL;
            case "nytimes" -> NYTIMES;
            case "pubmed" -> PUBMED;
            default -> throw new InvalidInputException("--preset must be small, nytimes or pubmed, is '" + name + "'");
        };
    }
}
