package org.sparkmc.spark.generate;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.stream.IntStream;
import java.util.zip.GZIPOutputStream;
import org.apache.hadoop.io.compress.GzipCodec;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.LongAccumulator;
import org.sparkmc.core.lda.PlantedCorpus;
import org.sparkmc.spark.io.AtomicOutput;

/**
 * Writes a {@link PlantedCorpus} as a UCI bag-of-words pair, the executors generating and writing the documents:
 * {@code docword/} (a header file, then Spark's part files, whose lines in path order are the docword file the
 * {@code lda} job reads), {@code vocab.txt}, and the planted topics. The documents are cut into {@code partitions}
 * contiguous id ranges; as a document's words depend only on the seed and its id, the part files' concatenation is
 * the same for any cut.
 */
final class GenerateLdaJob {
    static final StructType PLANTED_TOPIC_WORD = new StructType().add("topic", DataTypes.IntegerType, false)
            .add("phi", DataTypes.createArrayType(DataTypes.DoubleType, false), false);

    /**
     * What was written.
     *
     * @param tokens Σ document lengths
     * @param lines the docword body's lines (NNZ)
     * @param partFiles the docword's part files
     */
    record Written(long tokens, long lines, int partFiles) {
    }

    private GenerateLdaJob() {
    }

    static Written write(SparkSession spark, AtomicOutput out, PlantedCorpus.Settings settings, int partitions,
            boolean gzip) {
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        LongAccumulator tokens = sc.sc().longAccumulator("generate-lda tokens");
        LongAccumulator lines = sc.sc().longAccumulator("generate-lda lines");
        List<Integer> slices = IntStream.range(0, partitions).boxed().toList();
        sc.setJobDescription("generate-lda: generate and write the documents");
        String docword = out.staged("docword");
        var body = sc.parallelize(slices, partitions)
                .mapPartitions(new DocwordLines(settings, partitions, tokens, lines));
        if (gzip) {
            body.saveAsTextFile(docword, GzipCodec.class);
        } else {
            body.saveAsTextFile(docword);
        }
        // Accumulators updated in an action's tasks count each partition once, retries or not.
        String header = settings.documents() + "\n" + settings.vocabularySize() + "\n" + lines.value() + "\n";
        if (gzip) {
            out.writeBytes("docword/header.gz", gzip(header));
        } else {
            out.writeText("docword/header", header);
        }
        out.writeText("vocab.txt", vocabulary(settings.vocabularySize()));
        sc.setJobDescription("generate-lda: write planted_topic_word.parquet");
        int topics = settings.topics();
        List<Integer> ids = IntStream.range(0, topics).boxed().toList();
        // About 512 KB of φ a task, as the lda job writes topic_word.parquet.
        int perTask = Math.max(1, 65_536 / settings.vocabularySize());
        spark.createDataFrame(sc.parallelize(ids, (topics + perTask - 1) / perTask).mapPartitions(new PhiRows(settings)),
                PLANTED_TOPIC_WORD).write().parquet(out.staged("planted_topic_word.parquet"));
        return new Written(tokens.value(), lines.value(), partitions);
    }

    /**
     * The planted topics' top words: {@code topic,rank,word_id,word,probability}, ranks from 1 and word ids from 0 as
     * in the lda job's topics.csv.
     */
    static String plantedTopicsCsv(PlantedCorpus model, int topWords) {
        int v = model.settings().vocabularySize();
        StringBuilder csv = new StringBuilder("topic,rank,word_id,word,probability\n");
        for (int t = 0; t < model.settings().topics(); t++) {
            double[] phi = model.phi(t);
            int[] top = model.topWords(t, Math.min(topWords, v));
            for (int r = 0; r < top.length; r++) {
                csv.append(t).append(',').append(r + 1).append(',').append(top[r]).append(',').append(word(top[r], v))
                        .append(',').append(phi[top[r]]).append('\n');
            }
        }
        return csv.toString();
    }

    /** Synthetic words: {@code w} and the 0-based word id, zero-padded to the width of V − 1. */
    static String word(int id, int vocabularySize) {
        String digits = Integer.toString(id);
        int width = Integer.toString(Math.max(vocabularySize - 1, 0)).length();
        return "w" + "0".repeat(Math.max(0, width - digits.length())) + digits;
    }

    private static String vocabulary(int v) {
        StringBuilder s = new StringBuilder(v * 8);
        for (int w = 0; w < v; w++) {
            s.append(word(w, v)).append('\n');
        }
        return s.toString();
    }

    private static byte[] gzip(String text) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream z = new GZIPOutputStream(bytes)) {
            z.write(text.getBytes(StandardCharsets.US_ASCII));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** First document id (1-based) of slice i of n over D documents; slice i holds ids [first(i), first(i + 1)). */
    static long first(long documents, int slice, int slices) {
        return 1 + documents * slice / slices;
    }

    /** A slice's documents as docword lines "docId wordId count" (1-based ids), generated lazily. */
    static final class DocwordLines implements FlatMapFunction<Iterator<Integer>, String> {
        private static final long serialVersionUID = 1L;
        private final PlantedCorpus.Settings settings;
        private final int slices;
        private final LongAccumulator tokens;
        private final LongAccumulator lines;

        DocwordLines(PlantedCorpus.Settings settings, int slices, LongAccumulator tokens, LongAccumulator lines) {
            this.settings = settings;
            this.slices = slices;
            this.tokens = tokens;
            this.lines = lines;
        }

        @Override
        public Iterator<String> call(Iterator<Integer> sliceIds) {
            if (!sliceIds.hasNext()) {
                return Collections.emptyIterator();
            }
            int slice = sliceIds.next();
            long from = first(settings.documents(), slice, slices);
            long to = first(settings.documents(), slice + 1, slices);
            PlantedCorpus model = PlantedCorpus.of(settings);
            return new Iterator<>() {
                private long next = from;
                private PlantedCorpus.Document doc;
                private int at;

                @Override
                public boolean hasNext() {
                    while ((doc == null || at == doc.words().length) && next < to) {
                        doc = model.document(next++);
                        at = 0;
                        tokens.add(doc.length());
                        lines.add(doc.words().length);
                    }
                    return doc != null && at < doc.words().length;
                }

                @Override
                public String next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    String line = doc.id() + " " + (doc.words()[at] + 1) + " " + doc.counts()[at];
                    at++;
                    return line;
                }
            };
        }
    }

    /** Rows (topic, φ_topic) of the planted topics, the model built on the executor from the settings. */
    static final class PhiRows implements FlatMapFunction<Iterator<Integer>, Row> {
        private static final long serialVersionUID = 1L;
        private final PlantedCorpus.Settings settings;

        PhiRows(PlantedCorpus.Settings settings) {
            this.settings = settings;
        }

        @Override
        public Iterator<Row> call(Iterator<Integer> topics) {
            PlantedCorpus model = PlantedCorpus.of(settings);
            List<Row> rows = new ArrayList<>();
            topics.forEachRemaining(t -> rows.add(RowFactory.create(t, model.phi(t))));
            return rows.iterator();
        }
    }
}
