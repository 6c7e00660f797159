package org.sparkmc.core.bench.lda;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.sparkmc.core.lda.AdLda;
import org.sparkmc.core.lda.BlockUpdate;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.TopicWordCounts;
import org.sparkmc.core.lda.TopicWordDelta;
import org.sparkmc.core.lda.UciBagOfWords;
import org.sparkmc.core.random.RandomStreams;

/** The KOS training split the AD-LDA benchmarks share, and the random start of its blocks (as the lda job draws it). */
final class KosTraining {
    /** Every block's initial topics and the global counts they make. */
    record Start(char[][] topics, TopicWordCounts global) {
    }

    private KosTraining() {
    }

    /**
     * KOS without its held-out documents ({@code docId % 10 == 0}), from {@code sparkmc.shared.data}; with
     * {@code -Ddocword=FILE}, that UCI docword file (gzipped, such as 20× KOS) split the same way, as the lda job
     * and {@link KosLdaBenchmark} split it.
     */
    static Corpus split() throws IOException {
        Path dir = Path.of(System.getProperty("sparkmc.shared.data", "/work/shared/data"), "kos");
        Path docword = Path.of(System.getProperty("docword", dir.resolve("docword.kos.txt.gz").toString()));
        try (InputStream in = Files.newInputStream(docword)) {
            return UciBagOfWords.readDocword(in, docword.getFileName().toString()).corpus()
                    .selectByDocId(id -> id % 10 != 0);
        }
    }

    /** Uniform random topics for every block from its stream ("lda-init", block), and their global counts. */
    static Start randomStart(Corpus[] blocks, LdaPriors p, RandomStreams rs) {
        char[][] z = new char[blocks.length][];
        List<TopicWordDelta> deltas = new ArrayList<>();
        for (int b = 0; b < blocks.length; b++) {
            BlockUpdate u = AdLda.initializeBlock(blocks[b], b, p, rs);
            z[b] = u.topics();
            deltas.add(u.delta());
        }
        return new Start(z, TopicWordCounts.empty(p.numTopics(), blocks[0].vocabularySize()).plus(deltas));
    }
}
