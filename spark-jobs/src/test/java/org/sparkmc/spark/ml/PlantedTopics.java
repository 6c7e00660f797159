package org.sparkmc.spark.ml;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineStage;
import org.apache.spark.ml.feature.CountVectorizer;
import org.apache.spark.ml.feature.RegexTokenizer;
import org.apache.spark.ml.feature.StopWordsRemover;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.sparkmc.core.random.RandomStreams;

/**
 * A small text corpus with three planted topics over disjoint vocabularies, and the text pipeline of a user who
 * runs LDA on it. Document d is about topic d mod 3: each word comes from that topic's 8 words with probability
 * 0.85, else from the next topic's; every fifth token is a stop word ("the", "and", "of") for StopWordsRemover.
 */
final class PlantedTopics {
    static final List<Set<String>> TOPICS = List.of(
            Set.of("apple", "banana", "cherry", "grape", "lemon", "mango", "peach", "plum"),
            Set.of("soccer", "tennis", "hockey", "rugby", "cricket", "golf", "boxing", "rowing"),
            Set.of("hammer", "wrench", "chisel", "pliers", "drill", "saw", "level", "clamp"));
    static final int DOCUMENTS = 90;
    static final int WORDS_PER_DOCUMENT = 40;
    private static final String[] STOP = {"the", "and", "of"};

    private PlantedTopics() {
    }

    /** Rows (id long, text string), generated from a fixed seed. */
    static Dataset<Row> documents(SparkSession spark) {
        UniformRandomProvider rng = new RandomStreams(20261122L).stream("planted-topics-corpus");
        List<String[]> words = TOPICS.stream().map(s -> s.stream().sorted().toArray(String[]::new)).toList();
        List<Row> rows = new ArrayList<>();
        for (int d = 0; d < DOCUMENTS; d++) {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < WORDS_PER_DOCUMENT; i++) {
                int topic = rng.nextDouble() < 0.85 ? d % 3 : (d + 1) % 3;
                text.append(words.get(topic)[rng.nextInt(8)]).append(' ');
                if (i % 5 == 4) {
                    text.append(STOP[rng.nextInt(STOP.length)]).append(' ');
                }
            }
            rows.add(RowFactory.create((long) d, text.toString().trim()));
        }
        StructType schema = new StructType().add("id", DataTypes.LongType, false)
                .add("text", DataTypes.StringType, false);
        return spark.createDataFrame(rows, schema);
    }

    /** RegexTokenizer → StopWordsRemover → CountVectorizer → {@code lda} (reading "features"). */
    static Pipeline pipeline(PipelineStage lda) {
        RegexTokenizer tokenizer = new RegexTokenizer().setInputCol("text").setOutputCol("tokens")
                .setPattern("\\W+").setGaps(true);
        StopWordsRemover stop = new StopWordsRemover().setInputCol("tokens").setOutputCol("words");
        CountVectorizer counts = new CountVectorizer().setInputCol("words").setOutputCol("features")
                .setMinDF(2);
        return new Pipeline().setStages(new PipelineStage[] {tokenizer, stop, counts, lda});
    }

    /** The planted topic a word belongs to, or -1. */
    static int topicOf(String word) {
        for (int t = 0; t < TOPICS.size(); t++) {
            if (TOPICS.get(t).contains(word)) {
                return t;
            }
        }
        return -1;
    }
}
