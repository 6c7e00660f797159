package org.sparkmc.spark.lda;

import static org.sparkmc.spark.diagnose.SummaryFiles.csvField;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.sparkmc.core.lda.BestOfChains;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.core.lda.DocumentCompletion;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.TopicWordCounts;
import org.sparkmc.spark.diagnose.SummaryFiles;
import org.sparkmc.spark.io.AtomicOutput;

/**
 * Writes an {@code lda} run, committed atomically: {@code topics.csv} (the top words of every topic with their
 * probabilities), {@code topic_word.parquet} (one row per topic: its token count and its word distribution φ_k over
 * the whole vocabulary; both from the reported topics, the final state's or a posterior mean),
 * {@code doc_topic.parquet} (one row per training document: its id, length and θ_d, written by the executors),
 * {@code loglik.csv}, {@code vocabulary.txt} (line i names word id i), {@code summary.json}
 * (settings, corpus, speed, held-out perplexity) and {@code report.html}.
 */
public final class LdaOutput {
    private static final StructType TOPIC_WORD = new StructType().add("topic", DataTypes.IntegerType, false)
            .add("tokens", DataTypes.LongType, false)
            .add("phi", DataTypes.createArrayType(DataTypes.DoubleType, false), false);
    /** About the most bytes of sparse topic columns one topic_word.parquet task carries: under Spark's 1,000 KiB. */
    private static final long TASK_BYTES = 900 * 1024;
    private static final StructType DOC_TOPIC = new StructType().add("doc_id", DataTypes.IntegerType, false)
            .add("tokens", DataTypes.IntegerType, false)
            .add("theta", DataTypes.createArrayType(DataTypes.DoubleType, false), false);

    private LdaOutput() {
    }

    public static void write(SparkSession spark, AtomicOutput out, LdaConfig config, LdaResult result) {
        TopicWordCounts counts = result.run().counts();
        LdaPriors priors = config.priors();
        String[] vocabulary = result.corpus().vocabulary();
        double[] meanPhi = result.meanPhi();
        List<TopWords.Entry> top = meanPhi != null ? TopWords.of(meanPhi, counts, config.topWords())
                : TopWords.of(counts, priors.beta(), config.topWords());
        out.writeText("topics.csv", topicsCsv(top, vocabulary));
        out.writeText("loglik.csv", loglikCsv(result.history()));
        out.writeText("vocabulary.txt", String.join("\n", vocabulary) + "\n");
        spark.sparkContext().setJobDescription("lda: write topic_word.parquet");
        JavaSparkContext jsc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        int w = counts.vocabularySize();
        JavaRDD<Row> topicWord;
        if (meanPhi != null) {
            // The mean is on the driver already: about 512 KB of rows (W doubles per topic) per task, under Spark's
            // recommended task size.
            List<Row> rows = topicWordRows(counts, meanPhi);
            int topicsPerTask = Math.max(1, 65_536 / w);
            topicWord = jsc.parallelize(rows, (rows.size() + topicsPerTask - 1) / topicsPerTask);
        } else {
            // The final state's φ rows are made on the executors from each topic's sparse column, at most about
            // 64 MB of them per task, so the driver never holds W·K numbers. The columns travel in the tasks, so
            // there are also enough tasks to keep each under Spark's recommended task size (1,000 KiB).
            List<TopicColumn> columns = TopicColumn.of(counts);
            int tasks = topicWordTasks(counts.numTopics(), w,
                    columns.stream().mapToLong(c -> c.words().length).sum());
            double beta = priors.beta();
            double[] denominator = TopWords.denominators(counts, beta);
            topicWord = jsc.parallelize(columns, tasks)
                    .map(c -> RowFactory.create(c.topic(), c.tokens(), c.phi(w, beta, denominator[c.topic()])));
        }
        spark.createDataFrame(topicWord, TOPIC_WORD).write().parquet(out.staged("topic_word.parquet"));
        spark.sparkContext().setJobDescription("lda: write doc_topic.parquet");
        spark.createDataFrame(result.run().blocks().flatMap(b -> docTopicRows(b.docs(), b.topics(), priors)),
                DOC_TOPIC).write().parquet(out.staged("doc_topic.parquet"));
        out.writeText("summary.json", summaryJson(config, result));
        out.writeText("report.html", LdaReport.render(config, result, top));
    }

    /**
     * The tasks that make topic_word.parquet's rows from the K topics' sparse columns (8 bytes a cell, carried in the
     * tasks): enough for at most about 64 MB of φ rows (W doubles a topic) and {@link #TASK_BYTES} of columns a task.
     */
    static int topicWordTasks(int numTopics, int vocabularySize, long nonZeroCells) {
        int topicsPerTask = Math.max(1, (1 << 23) / vocabularySize);
        long byRows = (numTopics + topicsPerTask - 1) / topicsPerTask;
        long byBytes = 8 * nonZeroCells / TASK_BYTES + 1;
        return (int) Math.min(numTopics, Math.max(byRows, byBytes));
    }

    static String topicsCsv(List<TopWords.Entry> top, String[] vocabulary) {
        StringBuilder csv = new StringBuilder("topic,rank,word_id,word,count,probability\n");
        for (TopWords.Entry e : top) {
            csv.append(e.topic()).append(',').append(e.rank()).append(',').append(e.word()).append(',')
                    .append(csvField(vocabulary[e.word()])).append(',').append(e.count()).append(',')
                    .append(e.probability()).append('\n');
        }
        return csv.toString();
    }

    static String loglikCsv(List<LoglikRow> rows) {
        StringBuilder csv = new StringBuilder(LoglikRow.CSV_HEADER).append('\n');
        rows.forEach(r -> csv.append(r.csv()).append('\n'));
        return csv.toString();
    }

    /** One row per topic: its final token count and its row of the reported φ (word-major {@code phi}). */
    static List<Row> topicWordRows(TopicWordCounts counts, double[] phi) {
        int k = counts.numTopics();
        int w = counts.vocabularySize();
        List<Row> rows = new ArrayList<>(k);
        for (int t = 0; t < k; t++) {
            double[] row = new double[w];
            for (int v = 0; v < w; v++) {
                row[v] = phi[v * k + t];
            }
            rows.add(RowFactory.create(t, (long) counts.topicTotal(t), row));
        }
        return rows;
    }

    /**
     * θ_{d,k} = (n_{d,k} + α)/(L_d + Kα) of every document of a block, from its final topics: made one row at a time
     * as the writer takes them (a block's rows hold K doubles per document).
     */
    static Iterator<Row> docTopicRows(Corpus docs, char[] topics, LdaPriors priors) {
        int k = priors.numTopics();
        return IntStream.range(0, docs.numDocuments()).mapToObj(d -> {
            double[] theta = new double[k];
            for (int i = docs.docStart(d); i < docs.docEnd(d); i++) {
                theta[topics[i]]++;
            }
            double denominator = docs.docLength(d) + k * priors.alpha();
            for (int t = 0; t < k; t++) {
                theta[t] = (theta[t] + priors.alpha()) / denominator;
            }
            return RowFactory.create(docs.docId(d), docs.docLength(d), theta);
        }).iterator();
    }

    /**
     * One topic's non-zero counts in the final state: its words (increasing) and their counts, and its total; the
     * sparse column a task turns into the topic's φ row.
     */
    public record TopicColumn(int topic, long tokens, int[] words, int[] counts) implements Serializable {
        /** Every topic's column of {@code counts}: its cells transposed, O(non-zero cells). */
        static List<TopicColumn> of(TopicWordCounts counts) {
            int k = counts.numTopics();
            int[] topics = new int[k];
            int[] cells = new int[k];
            int[] size = new int[k];
            for (int v = 0; v < counts.vocabularySize(); v++) {
                int n = counts.row(v, topics, cells);
                for (int e = 0; e < n; e++) {
                    size[topics[e]]++;
                }
            }
            List<TopicColumn> columns = new ArrayList<>(k);
            for (int t = 0; t < k; t++) {
                columns.add(new TopicColumn(t, counts.topicTotal(t), new int[size[t]], new int[size[t]]));
            }
            int[] fill = new int[k];
            for (int v = 0; v < counts.vocabularySize(); v++) {
                int n = counts.row(v, topics, cells);
                for (int e = 0; e < n; e++) {
                    TopicColumn c = columns.get(topics[e]);
                    c.words[fill[topics[e]]] = v;
                    c.counts[fill[topics[e]]++] = cells[e];
                }
            }
            return columns;
        }

        /** φ_{k,w} = (n_{k,w} + β)/(n_k + Wβ) over the W words, given the denominator n_k + Wβ. */
        double[] phi(int vocabularySize, double beta, double denominator) {
            double[] row = new double[vocabularySize];
            Arrays.fill(row, beta / denominator);
            for (int i = 0; i < words.length; i++) {
                row[words[i]] = (counts[i] + beta) / denominator;
            }
            return row;
        }
    }

    /**
     * The several chains' part of summary.json: how they were scored, each chain's seed and score, and the one
     * chosen (whose seed with {@code --chains 1} reruns it alone).
     */
    private static Map<String, Object> chainsJson(LdaResult result) {
        List<Map<String, Object>> each = new ArrayList<>();
        for (BestOfChains.Score c : result.chains()) {
            Map<String, Object> chain = new LinkedHashMap<>();
            chain.put("chain", c.chain());
            chain.put("seed", c.seed());
            chain.put("score", SummaryFiles.finite(c.score()));
            each.add(chain);
        }
        BestOfChains.Score chosen = result.chains().get(result.chosenChain());
        Map<String, Object> chains = new LinkedHashMap<>();
        chains.put("chains", result.chains().size());
        chains.put("score", "mean log p(w,z) per token over each chain's last " + chosen.sweeps() + " chain sweeps");
        chains.put("chosen", chosen.chain());
        chains.put("chosen_seed", chosen.seed());
        chains.put("explored", each);
        return chains;
    }

    static String summaryJson(LdaConfig config, LdaResult result) {
        Map<String, Object> top = new LinkedHashMap<>();
        LdaPriors p = config.priors();
        LdaDocuments training = result.training();
        LoglikRow last = result.last();
        top.put("job", "lda");
        top.put("corpus", result.corpus().source());
        top.put("documents", result.corpus().documents().numDocuments());
        top.put("empty_documents_skipped", result.corpus().emptyDocuments());
        top.put("vocabulary", result.corpus().documents().vocabularySize());
        top.put("training_documents", training.numDocuments());
        top.put("training_tokens", training.numTokens());
        top.put("held_out_documents", result.heldOut().numDocuments());
        top.put("held_out_every", config.heldOutEvery());
        top.put("topics", p.numTopics());
        top.put("alpha", p.alpha());
        top.put("beta", p.beta());
        top.put("kernel", config.kernel().name().toLowerCase(Locale.ROOT).replace('_', '-'));
        top.put("sweeps", config.sweeps());
        top.put("sync_interval", config.syncInterval());
        top.put("blocks", config.blocks());
        top.put("partitions", config.partitionsIn(result.mode()));
        top.put("seed", config.seed());
        top.put("mode", result.mode().label());
        if (result.mode() == LdaMode.MODEL_PARALLEL) {
            top.put("word_slices", config.blocks());
            top.put("totals_sync", config.totalsSync().name().toLowerCase(Locale.ROOT).replace('_', '-'));
        }
        if (!result.chains().isEmpty()) {
            top.put("chains", chainsJson(result));
        }
        Map<String, Object> estimate = new LinkedHashMap<>();
        if (result.meanPhi() == null) {
            estimate.put("kind", "final state: (n_kw + beta) / (n_k + W beta)");
        } else {
            estimate.put("kind", "posterior mean over saved states of (n_kw + beta) / (n_k + W beta)");
            estimate.put("states", config.topicSamples());
            estimate.put("every", config.topicSampleEvery());
            estimate.put("first_sweep", config.sweeps() - (config.topicSamples() - 1) * config.topicSampleEvery());
        }
        top.put("topic_estimate", estimate);
        top.put("log_likelihood", SummaryFiles.finite(last.logLikelihood()));
        top.put("log_likelihood_per_token", SummaryFiles.finite(last.perToken()));
        DocumentCompletion.Result h = result.heldOutResult();
        Map<String, Object> heldOut = new LinkedHashMap<>();
        if (h != null) {
            heldOut.put("method", "document completion (Wallach et al. 2009): fold in θ on a random half of each "
                    + "held-out document with the topics fixed, score the other half");
            heldOut.put("perplexity", SummaryFiles.finite(h.perplexity()));
            if (result.finalStateResult() != null) {
                heldOut.put("final_state_perplexity", SummaryFiles.finite(result.finalStateResult().perplexity()));
            }
            heldOut.put("log_likelihood", SummaryFiles.finite(h.logLikelihood()));
            heldOut.put("scored_tokens", h.scoredTokens());
            heldOut.put("documents", h.documents());
            heldOut.put("fold_in_burn_in", config.evalBurnIn());
            heldOut.put("fold_in_samples", config.evalSamples());
        }
        DocumentCompletion.Result l2r = result.leftToRightResult();
        if (h != null && l2r != null) {
            Map<String, Object> leftToRight = new LinkedHashMap<>();
            leftToRight.put("method", "left-to-right (Wallach et al. 2009) as a resample-move particle filter: an "
                    + "unbiased estimate of p(w_d) for each whole held-out document, with the reported topics");
            leftToRight.put("perplexity", SummaryFiles.finite(l2r.perplexity()));
            leftToRight.put("log_likelihood", SummaryFiles.finite(l2r.logLikelihood()));
            leftToRight.put("tokens", l2r.scoredTokens());
            leftToRight.put("particles", config.leftToRightParticles());
            leftToRight.put("moves_after_resampling", config.leftToRightMoves());
            leftToRight.put("resampling", "systematic, when the effective sample size falls below half");
            heldOut.put("left_to_right", leftToRight);
        }
        top.put("held_out", h == null ? null : heldOut);
        double sampling = 0;
        double sync = 0;
        double stepSeconds = 0;
        for (LoglikRow r : result.history().subList(1, result.history().size())) {
            sampling += r.samplingSeconds();
            sync += r.syncSeconds();
            stepSeconds += r.seconds();
        }
        top.put("seconds", result.seconds());
        top.put("sampling_seconds", sampling);
        top.put("sync_seconds", sync);
        top.put("share_outside_sampling", stepSeconds > 0 ? sync / stepSeconds : null);
        top.put("tokens_per_second", stepSeconds > 0
                ? (double) training.numTokens() * (result.history().get(result.history().size() - 1).sweep()
                        - result.history().get(0).sweep()) / stepSeconds : null);
        top.put("broadcast_bytes", result.run().counts().payloadBytes());
        if (result.mode() == LdaMode.MODEL_PARALLEL) {
            top.put("slice_bytes_rotated_per_sweep", result.run().lastStep().syncBytes());
        }
        top.put("resumed", result.resumed());
        return SummaryFiles.render(top);
    }
}
