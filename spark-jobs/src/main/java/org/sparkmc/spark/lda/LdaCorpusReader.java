package org.sparkmc.spark.lda;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.ml.feature.CountVectorizer;
import org.apache.spark.ml.feature.CountVectorizerModel;
import org.apache.spark.ml.feature.RegexTokenizer;
import org.apache.spark.ml.feature.StopWordsRemover;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.core.lda.UciBagOfWords;

/**
 * Reads the {@code lda} job's corpus through Hadoop's FileSystem: a UCI bag-of-words pair ({@code docword.*.txt[.gz]}
 * and {@code vocab.*.txt}), or plain text with one document per line, tokenised and counted by Spark ML's own
 * {@link RegexTokenizer}, {@link StopWordsRemover} and {@link CountVectorizer}.
 */
public final class LdaCorpusReader {
    /**
     * How plain text becomes counts.
     *
     * @param vocabularySize the most frequent words kept (CountVectorizer's vocabSize)
     * @param minDocumentFrequency documents a word must occur in (CountVectorizer's minDF)
     * @param removeStopWords drop Spark's English stop words
     * @param tokenPattern the regular expression that separates tokens (RegexTokenizer, gaps)
     * @param minTokenLength shorter tokens are dropped
     */
    public record TextOptions(int vocabularySize, int minDocumentFrequency, boolean removeStopWords,
            String tokenPattern, int minTokenLength) {
        public TextOptions {
            if (vocabularySize < 1 || minDocumentFrequency < 1 || minTokenLength < 1) {
                throw new InvalidInputException("vocabulary size, min document frequency and min token length must "
                        + "be ≥ 1, are " + vocabularySize + ", " + minDocumentFrequency + ", " + minTokenLength);
            }
        }

        /** 10,000 words seen in at least 2 documents, English stop words removed, tokens of letters/digits ≥ 2 long. */
        public static TextOptions defaults() {
            return of(10_000, 2, true);
        }

        /** The given vocabulary cut and stop-word choice, tokens of letters/digits at least 2 long. */
        public static TextOptions of(int vocabularySize, int minDocumentFrequency, boolean removeStopWords) {
            return new TextOptions(vocabularySize, minDocumentFrequency, removeStopWords, "[^\\p{L}\\p{N}']+", 2);
        }
    }

    private LdaCorpusReader() {
    }

    /** A UCI docword file (gzipped or not) and its vocabulary. */
    public static LdaCorpus readUci(String docword, String vocab, Configuration conf) {
        UciBagOfWords.Docword parsed;
        try (InputStream in = open(docword, conf)) {
            parsed = UciBagOfWords.readDocword(in, docword);
        } catch (IOException e) {
            throw new InvalidInputException("cannot read " + docword + ": " + e.getMessage(), e);
        }
        String[] words;
        try (InputStream in = open(vocab, conf)) {
            words = UciBagOfWords.readVocabulary(in, vocab, parsed.corpus().vocabularySize());
        } catch (IOException e) {
            throw new InvalidInputException("cannot read " + vocab + ": " + e.getMessage(), e);
        }
        return new LdaCorpus(parsed.corpus(), words, docword, parsed.emptyDocuments());
    }

    /**
     * Plain text, one document per line (a file or a directory of files, read in name order); a document's id is
     * its 1-based line number over all files. Documents left empty after tokenising and the vocabulary cut are
     * skipped and counted.
     */
    public static LdaCorpus readText(SparkSession spark, String path, TextOptions options) {
        Dataset<String> lines;
        try {
            lines = spark.read().textFile(path);
        } catch (RuntimeException e) {
            throw new InvalidInputException("cannot read text corpus " + path + ": " + e.getMessage(), e);
        }
        StructType schema = new StructType().add("id", DataTypes.LongType).add("text", DataTypes.StringType);
        Dataset<Row> docs = spark.createDataFrame(lines.javaRDD().zipWithIndex()
                .map(t -> RowFactory.create(t._2() + 1, t._1())), schema);
        Dataset<Row> counted = tokenize(docs, options);
        CountVectorizerModel model = vectorizer(options).fit(counted);
        return fromVectors(model.transform(counted).select("id", "counts").collectAsList(),
                model.vocabulary(), path);
    }

    /** Tokenised (and stop-word filtered) words of the {@code text} column, in a column {@code words}. */
    static Dataset<Row> tokenize(Dataset<Row> docs, TextOptions options) {
        RegexTokenizer tokenizer = new RegexTokenizer().setInputCol("text").setOutputCol("tokens")
                .setPattern(options.tokenPattern()).setGaps(true).setToLowercase(true)
                .setMinTokenLength(options.minTokenLength());
        Dataset<Row> tokens = tokenizer.transform(docs);
        if (!options.removeStopWords()) {
            return tokens.withColumnRenamed("tokens", "words");
        }
        return new StopWordsRemover().setInputCol("tokens").setOutputCol("words").transform(tokens);
    }

    static CountVectorizer vectorizer(TextOptions options) {
        return new CountVectorizer().setInputCol("words").setOutputCol("counts")
                .setVocabSize(options.vocabularySize()).setMinDF(options.minDocumentFrequency());
    }

    /**
     * A corpus from (id, term-count vector) rows: each document's tokens are its words in id order, each repeated
     * its count times; documents without a token are skipped and counted.
     */
    static LdaCorpus fromVectors(List<Row> rows, String[] vocabulary, String source) {
        if (vocabulary.length == 0) {
            throw new InvalidInputException(source + ": no word is left after tokenising (is the corpus empty, or "
                    + "min document frequency too high?)");
        }
        List<Row> sorted = new ArrayList<>(rows);
        sorted.sort((a, b) -> Long.compare(a.getLong(0), b.getLong(0)));
        int[] starts = new int[sorted.size() + 1];
        int[] ids = new int[sorted.size()];
        int[] words = new int[16];
        int n = 0;
        int docs = 0;
        int empty = 0;
        for (Row r : sorted) {
            Vector v = (Vector) r.get(1);
            SparseVector counts = v.toSparse();
            int length = 0;
            for (int j = 0; j < counts.indices().length; j++) {
                int c = (int) counts.values()[j];
                if (n + c > words.length) {
                    words = Arrays.copyOf(words, Math.max(words.length * 2, n + c));
                }
                Arrays.fill(words, n, n + c, counts.indices()[j]);
                n += c;
                length += c;
            }
            if (length == 0) {
                empty++;
                continue;
            }
            ids[docs] = Math.toIntExact(r.getLong(0));
            starts[++docs] = n;
        }
        if (docs == 0) {
            throw new InvalidInputException(source + ": the corpus is empty (no document has a word of the vocabulary)");
        }
        Corpus corpus = Corpus.of(Arrays.copyOf(starts, docs + 1), Arrays.copyOf(words, n), Arrays.copyOf(ids, docs),
                vocabulary.length);
        return new LdaCorpus(corpus, vocabulary, source, empty);
    }

    private static InputStream open(String location, Configuration conf) throws IOException {
        Path path = new Path(location);
        FileSystem fs = path.getFileSystem(conf);
        if (!fs.exists(path)) {
            throw new InvalidInputException("no such file: " + location);
        }
        return fs.open(path);
    }
}
