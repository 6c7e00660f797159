package org.sparkmc.spark.bench;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.ml.clustering.LDA;
import org.apache.spark.ml.linalg.Matrix;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.core.lda.DocumentCompletion;
import org.sparkmc.core.lda.LdaKernel;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.SparkmcKryoRegistrator;
import org.sparkmc.spark.lda.AdLdaSpark;
import org.sparkmc.spark.lda.LdaConfig;
import org.sparkmc.spark.lda.LdaCorpus;
import org.sparkmc.spark.lda.LdaCorpusReader;
import org.sparkmc.spark.lda.LdaJob;
import org.sparkmc.spark.lda.LdaResult;
import org.sparkmc.spark.lda.LoglikRow;
import org.sparkmc.spark.ml.GibbsLDA;
import org.sparkmc.spark.sync.SyncVia;

/**
 * Held-out perplexity against wall-clock time on KOS (K = 100, documents with id % 10 == 0 held out): sparkmc's
 * AD-LDA job ({@link LdaJob}, 8 blocks) vs Spark MLlib's {@code org.apache.spark.ml.clustering.LDA} with the
 * "online" (Hoffman et al. 2010) and "em" (Asuncion et al. 2009) optimizers, all in one JVM on local[2], scored by
 * ONE evaluator: document completion (core's {@link DocumentCompletion}, 50 + 50 fold-in sweeps with α = 0.5, the
 * job's seed, so every model sees the same split of every held-out document) with the topics fixed at each model's
 * φ. φ for MLlib: online — λ normalised per topic (the variational posterior mean); EM — the MAP estimate
 * (N_wk + β − 1)/(N_k + W(β − 1)) from its expected counts (its raw counts have exact zeros: ∞ perplexity).
 *
 * <p>Runs are given as {@code kind:iterations}, kinds: {@code gibbs} (the job: α = 0.5, β = 0.01), {@code gibbslda}
 * (the {@code GibbsLDA} estimator on the same DataFrame as MLlib's, same priors, 8 blocks; φ = its topicsMatrix),
 * {@code online}
 * (α = 0.5 fixed, β = 0.01, MLlib's defaults otherwise: subsamplingRate 0.05, learningOffset 1024, decay 0.51),
 * {@code online1} (the same with learningOffset = 1), {@code em} (MLlib's default priors α = 1.5, β = 1.1: EM needs
 * both &gt; 1). Fit seconds exclude reading the corpus and the evaluation.
 *
 * <p>Usage: {@code submit/bench spark-jobs org.sparkmc.spark.bench.MllibLdaBenchmark gibbs:50,online:50,em:50,...}
 */
public final class MllibLdaBenchmark {
    private static final int K = 100;
    private static final long SEED = 20261122L;

    public static void main(String[] args) {
        String[] runs = (args.length > 0 ? args[0] : "gibbs:50,online:50,online1:50,em:50").split(",");
        SparkSession spark = SparkSession.builder().master("local[2]").appName("mllib-lda-benchmark")
                .config("spark.serializer", "org.apache.spark.serializer.KryoSerializer")
                .config("spark.kryo.registrationRequired", "false")
                .config("spark.kryo.registrator", SparkmcKryoRegistrator.class.getName())
                .config("spark.ui.showConsoleProgress", "false").getOrCreate();
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        LdaCorpus input = LdaCorpusReader.readUci(sc, "data/kos/docword.kos.txt.gz", "data/kos/vocab.kos.txt");
        Corpus all = input.documents().collect();
        Corpus training = all.selectByDocId(LdaCorpus.heldOut(10).negate());
        Corpus heldOut = all.selectByDocId(LdaCorpus.heldOut(10));
        int w = all.vocabularySize();
        Dataset<Row> docs = bagOfWords(spark, training).repartition(2).cache();
        long n = docs.count();
        DocumentCompletion completion = DocumentCompletion.standard();
        System.out.printf(Locale.ROOT, "%nKOS: %d training documents (%d tokens), %d held out, W = %d, K = %d; "
                + "local[2]; max heap %.1f GiB; %s%n%n", n, training.numTokens(), heldOut.numDocuments(), w, K,
                Runtime.getRuntime().maxMemory() / Math.pow(2, 30), java.time.LocalDate.now());
        System.out.println("| model | iterations | fit seconds | evaluation seconds | held-out perplexity |");
        System.out.println("|---|---|---|---|---|");
        for (String run : runs) {
            String[] parts = run.split(":");
            String kind = parts[0];
            int iterations = Integer.parseInt(parts[1]);
            double fit;
            double eval;
            double perplexity;
            String label;
            if (kind.equals("gibbs")) {
                LdaConfig config = new LdaConfig(new LdaPriors(K, 0.5, 0.01), LdaKernel.SPARSE_GIBBS, iterations, 1,
                        8, 2, SEED, 10, 50, 50, 20, 10, 1, 10, 0, 1, SyncVia.AUTO);
                LdaResult result = new LdaJob(spark, config, LdaJob.Checkpointing.none()).run(input);
                fit = result.history().stream().mapToDouble(LoglikRow::seconds).sum();
                eval = result.seconds() - fit;
                perplexity = result.heldOutResult().perplexity();
                // The same evaluator on the driver, for the record: equal up to the order of the sums.
                double driver = completion.evaluate(result.run().counts(), config.priors(), heldOut,
                        new RandomStreams(SEED)).perplexity();
                result.run().close();
                label = String.format(Locale.ROOT, "sparkmc lda job, 8 blocks, α=0.5 β=0.01 (driver re-score %.2f)",
                        driver);
            } else {
                LDA lda = new LDA().setK(K).setMaxIter(iterations).setSeed(SEED).setFeaturesCol("features");
                GibbsLDA gibbs = null;
                double beta;
                switch (kind) {
                    case "gibbslda" -> {
                        beta = 0.01;
                        gibbs = new GibbsLDA().setK(K).setMaxIter(iterations).setSeed(SEED).setDocConcentration(0.5)
                                .setTopicConcentration(beta).setNumBlocks(8).setCheckpointInterval(10);
                        label = "sparkmc GibbsLDA (Spark ML estimator), 8 blocks, α=0.5 β=0.01";
                    }
                    case "online", "online1" -> {
                        beta = 0.01;
                        lda.setOptimizer("online").setDocConcentration(0.5).setTopicConcentration(beta)
                                .setOptimizeDocConcentration(false);
                        if (kind.equals("online1")) {
                            lda.setLearningOffset(1);
                        }
                        label = "MLlib online, α=0.5 β=0.01, learningOffset " + (int) lda.getLearningOffset()
                                + ", subsamplingRate " + lda.getSubsamplingRate();
                    }
                    case "em" -> {
                        beta = 1.1;
                        if (!sc.getCheckpointDir().isPresent()) {
                            sc.setCheckpointDir(new File("/tmp/bench-mllib-checkpoints").toURI().toString());
                        }
                        lda.setOptimizer("em").setDocConcentration(1.5).setTopicConcentration(beta)
                                .setCheckpointInterval(10);
                        label = "MLlib EM, α=1.5 β=1.1, φ = MAP";
                    }
                    default -> throw new IllegalArgumentException("unknown kind " + kind);
                }
                long t0 = System.nanoTime();
                Matrix topics = gibbs != null ? gibbs.fit(docs).topicsMatrix() : lda.fit(docs).topicsMatrix();
                fit = (System.nanoTime() - t0) / 1e9;
                long t1 = System.nanoTime();
                double[] phi = phi(topics, kind.equals("em") ? beta - 1 : 0);
                perplexity = completion.evaluate(phi, K, 0.5, heldOut, new RandomStreams(SEED)).perplexity();
                eval = (System.nanoTime() - t1) / 1e9;
            }
            System.out.printf(Locale.ROOT, "| %s | %d | %.1f | %.1f | %.1f |%n", label, iterations, fit, eval,
                    perplexity);
        }
        spark.stop();
    }

    /** Training documents as (id, term-count vector) rows, MLlib's input. */
    private static Dataset<Row> bagOfWords(SparkSession spark, Corpus corpus) {
        List<Row> rows = new ArrayList<>(corpus.numDocuments());
        int w = corpus.vocabularySize();
        for (int d = 0; d < corpus.numDocuments(); d++) {
            int[] counts = new int[w];
            int distinct = 0;
            for (int i = corpus.docStart(d); i < corpus.docEnd(d); i++) {
                if (counts[corpus.word(i)]++ == 0) {
                    distinct++;
                }
            }
            int[] index = new int[distinct];
            double[] value = new double[distinct];
            int j = 0;
            for (int v = 0; v < w; v++) {
                if (counts[v] > 0) {
                    index[j] = v;
                    value[j++] = counts[v];
                }
            }
            rows.add(RowFactory.create((long) corpus.docId(d), Vectors.sparse(w, index, value)));
        }
        StructType schema = new StructType(new StructField[] {
            new StructField("id", DataTypes.LongType, false, Metadata.empty()),
            new StructField("features", SQLDataTypes.VectorType(), false, Metadata.empty())});
        return spark.createDataFrame(rows, schema);
    }

    /**
     * Word-major φ from MLlib's W×K topics matrix (column k = topic k): each column plus {@code add} per cell,
     * normalised.
     */
    private static double[] phi(Matrix topics, double add) {
        int w = topics.numRows();
        int k = topics.numCols();
        double[] phi = new double[w * k];
        for (int t = 0; t < k; t++) {
            double sum = 0;
            for (int v = 0; v < w; v++) {
                sum += topics.apply(v, t) + add;
            }
            for (int v = 0; v < w; v++) {
                phi[v * k + t] = (topics.apply(v, t) + add) / sum;
            }
        }
        return phi;
    }
}
