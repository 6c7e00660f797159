package org.sparkmc.spark.ml;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.spark.ml.Pipeline;
import org.apache.spark.ml.PipelineModel;
import org.apache.spark.ml.Transformer;
import org.apache.spark.ml.clustering.LDA;
import org.apache.spark.ml.feature.CountVectorizerModel;
import org.apache.spark.ml.linalg.Matrix;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.core.lda.LdaKernel;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.LeftToRight;
import org.sparkmc.core.smc.ResamplingScheme;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.lda.AdLdaSpark;
import org.sparkmc.spark.sync.SyncVia;

/**
 * GibbsLDA inside a Spark ML text pipeline: it recovers planted topics, takes MLlib LDA's place with the same
 * setters, saves and loads, is reproducible whatever the partitioning, and refuses bad params clearly.
 *
 * <p>All runs use fixed seeds, so every assertion is deterministic; the recovery checks have a wide margin (the three
 * planted vocabularies are disjoint and each document is 85% about one of them).
 */
class GibbsLDATest extends SparkTestBase {
    private static PipelineModel fitted;
    private static Dataset<Row> docs;

    @TempDir
    Path tmp;

    static GibbsLDA gibbs() {
        return new GibbsLDA().setK(3).setMaxIter(20).setSeed(5).setDocConcentration(0.5)
                .setTopicConcentration(0.01).setNumBlocks(4).setFoldInBurnIn(10).setFoldInSamples(20);
    }

    private Dataset<Row> docs() {
        if (docs == null) {
            docs = PlantedTopics.documents(spark()).cache();
        }
        return docs;
    }

    private PipelineModel fitted() {
        if (fitted == null) {
            fitted = PlantedTopics.pipeline(gibbs()).fit(docs());
        }
        return fitted;
    }

    /** (id, text, tokens, words, features): the fitted pipeline's input to its LDA stage. */
    private Dataset<Row> features() {
        return fitted().transform(docs()).drop("topicDistribution");
    }

    static GibbsLDAModel ldaStage(PipelineModel model) {
        Transformer[] stages = model.stages();
        return (GibbsLDAModel) stages[stages.length - 1];
    }

    private static String[] vocabulary(PipelineModel model) {
        return ((CountVectorizerModel) model.stages()[2]).vocabulary();
    }

    /** θ per document id. */
    static Map<Long, double[]> thetas(Dataset<Row> transformed, String column) {
        Map<Long, double[]> out = new TreeMap<>();
        for (Row r : transformed.select("id", column).collectAsList()) {
            out.put(r.getLong(0), ((Vector) r.get(1)).toArray());
        }
        return out;
    }

    @Test
    void pipelineRecoversPlantedTopics() {
        PipelineModel model = fitted();
        GibbsLDAModel lda = ldaStage(model);
        String[] vocabulary = vocabulary(model);
        assertEquals(24, vocabulary.length, "the stop words are removed, the 24 topic words kept");
        assertEquals(24, lda.vocabSize());
        assertFalse(lda.isDistributed());

        // transform adds θ_d, a distribution over the 3 topics, and each document's largest topic is its planted one.
        Dataset<Row> out = model.transform(docs());
        assertTrue(List.of(out.columns()).contains("topicDistribution"));
        Map<Long, double[]> theta = thetas(out, "topicDistribution");
        assertEquals(PlantedTopics.DOCUMENTS, theta.size());

        // describeTopics: MLlib's columns; each learned topic's top 6 words come from one planted set, and the three
        // learned topics are the three planted ones.
        Dataset<Row> topics = lda.describeTopics(6);
        assertArrayEquals(new String[] {"topic", "termIndices", "termWeights"}, topics.columns());
        Matrix phi = lda.topicsMatrix();
        Set<Integer> planted = new HashSet<>();
        int[] plantedOf = new int[3];
        for (Row r : topics.collectAsList()) {
            List<Integer> terms = r.getList(1);
            List<Double> weights = r.getList(2);
            assertEquals(6, terms.size());
            int topic = PlantedTopics.topicOf(vocabulary[terms.get(0)]);
            for (int j = 0; j < terms.size(); j++) {
                assertEquals(topic, PlantedTopics.topicOf(vocabulary[terms.get(j)]),
                        "topic " + r.getInt(0) + " mixes planted topics: " + terms);
                assertTrue(j == 0 || weights.get(j) <= weights.get(j - 1), "weights decrease");
                assertEquals(phi.apply(terms.get(j), r.getInt(0)), weights.get(j), "the weight is topicsMatrix's φ");
            }
            planted.add(topic);
            plantedOf[r.getInt(0)] = topic;
        }
        assertEquals(Set.of(0, 1, 2), planted);
        int agree = 0;
        for (Map.Entry<Long, double[]> e : theta.entrySet()) {
            double[] t = e.getValue();
            assertEquals(3, t.length);
            assertEquals(1.0, t[0] + t[1] + t[2], 1e-9, "theta sums to 1");
            int best = t[0] >= t[1] && t[0] >= t[2] ? 0 : t[1] >= t[2] ? 1 : 2;
            if (plantedOf[best] == e.getKey() % 3) {
                agree++;
            }
        }
        assertTrue(agree >= 0.95 * PlantedTopics.DOCUMENTS, agree + " documents' largest topic is their planted one");

        // topicsMatrix: W × K, columns are distributions.
        assertEquals(24, phi.numRows());
        assertEquals(3, phi.numCols());
        for (int k = 0; k < 3; k++) {
            double sum = 0;
            for (int w = 0; w < 24; w++) {
                sum += phi.apply(w, k);
            }
            assertEquals(1.0, sum, 1e-12);
        }
        assertArrayEquals(new double[] {0.5, 0.5, 0.5}, lda.estimatedDocConcentration().toArray());
    }

    /**
     * The plug-in log-likelihood: a perfect recovery predicts a token with entropy about H(0.85, 0.15) + log 8 ≈ 2.5
     * nats; the uniform model gives log 24 ≈ 3.18.
     */
    @Test
    void logLikelihoodAndPerplexity() {
        PipelineModel model = fitted();
        GibbsLDAModel lda = ldaStage(model);
        Dataset<Row> features = features().select("features");
        double ll = lda.logLikelihood(features);
        double lp = lda.logPerplexity(features);
        long tokens = PlantedTopics.DOCUMENTS * (long) PlantedTopics.WORDS_PER_DOCUMENT;
        assertEquals(-ll / tokens, lp, 1e-12);
        // The same sum from transform's θ and topicsMatrix's φ: Σ_d Σ_w count · log Σ_k θ_{d,k} φ_{k,w}.
        Matrix phi = lda.topicsMatrix();
        double expected = 0;
        for (Row r : lda.transform(features).select("features", "topicDistribution").collectAsList()) {
            org.apache.spark.ml.linalg.SparseVector counts = ((Vector) r.get(0)).toSparse();
            double[] theta = ((Vector) r.get(1)).toArray();
            for (int j = 0; j < counts.indices().length; j++) {
                double p = 0;
                for (int k = 0; k < theta.length; k++) {
                    p += theta[k] * phi.apply(counts.indices()[j], k);
                }
                expected += counts.values()[j] * Math.log(p);
            }
        }
        assertEquals(expected, ll, 1e-9 * Math.abs(ll));
        assertTrue(lp > 2.0 && lp < 2.9, "log perplexity " + lp);
        assertTrue(lda.trainingLogLikelihood() < 0);
    }

    /** A row without a term gets θ = zeros, as from MLlib's LDA models, and adds nothing to the log-likelihood. */
    @Test
    void rowWithoutTermsGetsZeros() {
        GibbsLDAModel lda = ldaStage(fitted());
        Dataset<Row> empty = spark().createDataFrame(List.of(RowFactory.create(Vectors.sparse(24, new int[0],
                new double[0]))), new StructType().add("features", SQLDataTypes.VectorType()));
        assertArrayEquals(new double[3], ((Vector) lda.transform(empty).first().get(1)).toArray());
        assertEquals(0.0, lda.logLikelihood(empty));
    }

    /**
     * A bad vector in transform or logLikelihood (run on the executors, where the row has no number) is refused
     * with the column named and the vector shown, to find the row by.
     */
    @Test
    void badVectorsAreShownInTheMessage() {
        GibbsLDAModel lda = ldaStage(fitted());
        StructType schema = new StructType().add("features", SQLDataTypes.VectorType());
        Dataset<Row> negative = spark().createDataFrame(List.of(RowFactory.create(Vectors.sparse(24, new int[] {0, 1},
                new double[] {1, -2}))), schema);
        String shown = "featuresCol 'features' of the row holding (24,[0,1],[1.0,-2.0])";
        assertTrue(causes(assertThrows(Exception.class, () -> lda.transform(negative).collect()))
                .contains("has -2.0 for term 1; " + shown), "the message names the column and shows the vector");
        assertMessage("has -2.0 for term 1; " + shown, () -> lda.logLikelihood(negative));
        Dataset<Row> wrongSize = spark().createDataFrame(List.of(RowFactory.create(Vectors.dense(1, 2))), schema);
        assertMessage("whose vocabulary has 24 terms; featuresCol 'features' of the row holding [1.0,2.0]",
                () -> lda.logLikelihood(wrongSize));
    }

    private static String causes(Throwable t) {
        StringBuilder all = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            all.append(c.getMessage()).append('\n');
        }
        return all.toString();
    }

    /**
     * leftToRightLogLikelihood is core's LeftToRight per row (stream keyed by the seed and the row's contents), so it
     * does not depend on the partitioning; with θ integrated out it is below the plug-in log-likelihood, which fits
     * θ to the very tokens it scores.
     */
    @Test
    void leftToRightLogLikelihood() {
        GibbsLDAModel lda = ldaStage(fitted());
        Dataset<Row> features = features().select("features");
        double l2r = lda.leftToRightLogLikelihood(features.repartition(1), 10);
        assertEquals(l2r, lda.leftToRightLogLikelihood(features.repartition(3), 10), 1e-9 * Math.abs(l2r));
        org.sparkmc.core.lda.TopicInference topics = org.sparkmc.core.lda.TopicInference.of(lda.topicWordCounts(),
                new LdaPriors(3, 0.5, 0.01), 0, 1);
        LeftToRight estimator = LeftToRight.of(10, ResamplingScheme.SYSTEMATIC, 1);
        org.sparkmc.core.random.RandomStreams streams = new org.sparkmc.core.random.RandomStreams(lda.getSeed());
        double expected = 0;
        for (Row r : features.collectAsList()) {
            TermCounts doc = TermCounts.of((Vector) r.get(0), "row");
            expected += estimator.logProbability(topics, doc.tokens(), 0, doc.numTokens(),
                    streams.stream(FoldIn.LEFT_TO_RIGHT_STREAM, doc.streamKey()));
        }
        assertEquals(expected, l2r, 1e-9 * Math.abs(expected));
        assertTrue(l2r < lda.logLikelihood(features), l2r + " vs " + lda.logLikelihood(features));
        assertThrows(IllegalArgumentException.class, () -> lda.leftToRightLogLikelihood(features, 0));
    }

    /** MLlib's LDA and GibbsLDA take the same setters (this compiles) and the same pipeline, and output the same schema. */
    @Test
    void replacesMllibLdaInAPipeline() {
        LDA mllib = new LDA().setK(3).setMaxIter(5).setSeed(5).setFeaturesCol("features")
                .setTopicDistributionCol("topicDistribution").setDocConcentration(0.5).setTopicConcentration(0.01)
                .setCheckpointInterval(10);
        GibbsLDA gibbs = new GibbsLDA().setK(3).setMaxIter(5).setSeed(5).setFeaturesCol("features")
                .setTopicDistributionCol("topicDistribution").setDocConcentration(0.5).setTopicConcentration(0.01)
                .setCheckpointInterval(10);
        for (String name : List.of("k", "maxIter", "docConcentration", "topicConcentration", "featuresCol",
                "topicDistributionCol", "seed", "checkpointInterval")) {
            assertTrue(gibbs.hasParam(name), name);
            assertEquals(mllib.getParam(name).getClass(), gibbs.getParam(name).getClass(), name);
        }
        assertEquals(mllib.getK(), gibbs.getK());
        assertArrayEquals(mllib.getDocConcentration(), gibbs.getDocConcentration());
        // The same pipeline either way (only the last stage differs); fitting GibbsLDA's is tested above (MLlib's
        // own fit needs its breeze classes registered with Kryo, which this project's registrator does not do).
        Pipeline withMllib = PlantedTopics.pipeline(mllib);
        Pipeline withGibbs = PlantedTopics.pipeline(gibbs);
        assertEquals(withMllib.getStages().length, withGibbs.getStages().length);
        org.apache.spark.sql.types.StructType in = features().drop("topicDistribution").schema();
        org.apache.spark.sql.types.StructType a = withMllib.getStages()[3].transformSchema(in);
        org.apache.spark.sql.types.StructType b = withGibbs.getStages()[3].transformSchema(in);
        assertArrayEquals(a.fieldNames(), b.fieldNames());
        for (String column : a.fieldNames()) {
            assertEquals(a.apply(column).dataType(), b.apply(column).dataType(), column);
        }
    }

    @Test
    void saveAndLoadRoundTrip() throws IOException {
        PipelineModel model = fitted();
        GibbsLDAModel lda = ldaStage(model);
        Map<Long, double[]> before = thetas(model.transform(docs()), "topicDistribution");

        String pipelinePath = tmp.resolve("ml-pipeline").toString();
        model.write().overwrite().save(pipelinePath);
        PipelineModel loaded = PipelineModel.load(pipelinePath);
        GibbsLDAModel loadedLda = ldaStage(loaded);
        assertEquals(lda.uid(), loadedLda.uid());
        assertEquals(lda.topicWordCounts(), loadedLda.topicWordCounts());
        assertArrayEquals(lda.topicsMatrix().toArray(), loadedLda.topicsMatrix().toArray());
        assertEquals(lda.getSeed(), loadedLda.getSeed());
        assertEquals(lda.getFoldInSamples(), loadedLda.getFoldInSamples());
        assertEquals(lda.trainingLogLikelihood(), loadedLda.trainingLogLikelihood());
        assertThetasEqual(before, thetas(loaded.transform(docs()), "topicDistribution"));

        String modelPath = tmp.resolve("ml-model").toString();
        lda.save(modelPath);
        GibbsLDAModel alone = GibbsLDAModel.load(modelPath);
        assertArrayEquals(lda.topicsMatrix().toArray(), alone.topicsMatrix().toArray());
        assertEquals(lda.priors(), alone.priors());
        Dataset<Row> features = features();
        assertThetasEqual(thetas(lda.transform(features), "topicDistribution"),
                thetas(alone.transform(features), "topicDistribution"));

        String estimatorPath = tmp.resolve("ml-estimator").toString();
        GibbsLDA estimator = gibbs().setKernel("cycle_mh");
        estimator.save(estimatorPath);
        GibbsLDA reread = GibbsLDA.load(estimatorPath);
        assertEquals(estimator.uid(), reread.uid());
        for (org.apache.spark.ml.param.Param<?> param : estimator.params()) {
            assertEquals(estimator.isSet(param), reread.isSet(param), param.name());
            assertTrue(java.util.Objects.deepEquals(estimator.getOrDefault(param),
                    reread.getOrDefault(reread.getParam(param.name()))), param.name());
        }
        assertEquals("cycle_mh", reread.getKernel());
    }

    static void assertThetasEqual(Map<Long, double[]> expected, Map<Long, double[]> actual) {
        assertEquals(expected.keySet(), actual.keySet());
        for (Long id : expected.keySet()) {
            assertArrayEquals(expected.get(id), actual.get(id), "document " + id);
        }
    }

    /**
     * The fitted topics and θ depend on the documents, params and seed only: 1 or 3 input partitions (rows in another
     * order) give the same counts bit for bit; another seed gives other counts (so the comparison can fail).
     */
    @Test
    void sameSeedSameTopicsWhateverThePartitioning() {
        Dataset<Row> features = features().cache();
        GibbsLDAModel one = gibbs().setMaxIter(8).fit(features.repartition(1));
        GibbsLDAModel three = gibbs().setMaxIter(8).fit(features.repartition(3));
        assertEquals(one.topicWordCounts(), three.topicWordCounts());
        assertArrayEquals(one.topicsMatrix().toArray(), three.topicsMatrix().toArray());
        assertThetasEqual(thetas(one.transform(features.repartition(1)), "topicDistribution"),
                thetas(one.transform(features.repartition(4)), "topicDistribution"));
        // GibbsLDA (blocks cut on the executors) is AdLdaSpark on the corpus read from the vectors gathered on the
        // driver and cut there, with the estimator's options.
        AdLdaSpark direct = AdLdaSpark.start(jsc(), VectorCorpus.read(features.select("features"), "features")
                .documents().collect(),
                new AdLdaSpark.Options(new LdaPriors(3, 0.5, 0.01), 4, 2, 5, LdaKernel.SPARSE_GIBBS, 10,
                        SyncVia.JOBS));
        for (int sweep = 0; sweep < 8; sweep++) {
            direct.step(1);
        }
        assertEquals(direct.counts(), one.topicWordCounts());
        direct.close();
        // checkpointInterval -1 never cuts the lineage; the cuts change no number.
        assertEquals(one.topicWordCounts(), gibbs().setMaxIter(8).setCheckpointInterval(-1).fit(features)
                .topicWordCounts());
        GibbsLDAModel otherSeed = gibbs().setMaxIter(8).setSeed(6).fit(features);
        assertNotEquals(one.topicWordCounts(), otherSeed.topicWordCounts());
        features.unpersist();
    }

    /**
     * maxIter = 0 (allowed, as by MLlib's LDA) gives the model of the random start: no sweep, the counts and
     * log p(w, z) of AdLdaSpark's initial state, and every attribute defined.
     */
    @Test
    void noSweepsGiveTheModelOfTheRandomStart() {
        Dataset<Row> features = features().select("features");
        GibbsLDAModel start = gibbs().setMaxIter(0).setNumBlocks(2).fit(features);
        long tokens = PlantedTopics.DOCUMENTS * (long) PlantedTopics.WORDS_PER_DOCUMENT;
        assertEquals(tokens, start.topicWordCounts().totalTokens());
        AdLdaSpark direct = AdLdaSpark.start(jsc(), VectorCorpus.read(features, "features").documents().collect(),
                new AdLdaSpark.Options(new LdaPriors(3, 0.5, 0.01), 2, 2, 5, LdaKernel.SPARSE_GIBBS, 10,
                        SyncVia.JOBS));
        assertEquals(direct.counts(), start.topicWordCounts());
        assertEquals(direct.logLikelihood(), start.trainingLogLikelihood());
        direct.close();
        assertTrue(start.trainingLogLikelihood() < 0, "log p(w, z) " + start.trainingLogLikelihood());
        Matrix phi = start.topicsMatrix();
        for (int k = 0; k < 3; k++) {
            double sum = 0;
            for (int w = 0; w < phi.numRows(); w++) {
                sum += phi.apply(w, k);
            }
            assertEquals(1.0, sum, 1e-12, "topic " + k);
        }
        assertEquals(3, start.describeTopics(4).count());
        assertTrue(Double.isFinite(start.logPerplexity(features)));
        assertEquals(PlantedTopics.DOCUMENTS, start.transform(features).count());
    }

    @Test
    void badParamsFailWithClearMessages() {
        assertMessage("k (the number of topics) must be in [1, 65535], got 0", () -> new GibbsLDA().setK(0));
        assertMessage("docConcentration (alpha) must be positive and finite, got -1.0",
                () -> new GibbsLDA().setDocConcentration(-1));
        assertMessage("topicConcentration (beta) must be positive and finite, got -0.5",
                () -> new GibbsLDA().setTopicConcentration(-0.5));
        assertMessage("symmetric prior only", () -> new GibbsLDA().setDocConcentration(new double[] {1, 2}));
        assertMessage("maxIter (Gibbs sweeps) must be >= 0, got -1", () -> new GibbsLDA().setMaxIter(-1));
        assertMessage("checkpointInterval must be >= 1, or -1 to disable, got 0",
                () -> new GibbsLDA().setCheckpointInterval(0));
        assertMessage("numBlocks (AD-LDA document blocks) must be >= 1, got 0", () -> new GibbsLDA().setNumBlocks(0));
        assertMessage("kernel must be sparse_gibbs or cycle_mh (in any case), got em",
                () -> new GibbsLDA().setKernel("em"));
        // Through Spark's generic Params.set, its validators refuse the same values.
        GibbsLDA g = new GibbsLDA();
        assertThrows(IllegalArgumentException.class, () -> g.set(g.k(), 0));
        assertThrows(IllegalArgumentException.class, () -> g.set(g.topicConcentration(), -1.0));
        // Defaults (α = 50/k, β = 0.01), and k equal values for α, are accepted.
        assertEquals(new LdaPriors(10, 5.0, 0.01), new GibbsLDA().effectivePriors());
        assertEquals(new LdaPriors(3, 0.5, 0.01),
                gibbs().setDocConcentration(new double[] {0.5, 0.5, 0.5}).effectivePriors());
        // An array of the wrong length fails at transformSchema already (so a Pipeline's check finds it before any
        // stage is fitted, as with MLlib), and at fit; features that are not counts fail at fit.
        Dataset<Row> features = features();
        GibbsLDA wrongLength = gibbs().setDocConcentration(new double[] {0.5, 0.5});
        assertMessage("docConcentration (alpha) must hold 1 or k = 3 values, holds 2",
                () -> wrongLength.transformSchema(features.schema()));
        assertMessage("docConcentration (alpha) must hold 1 or k = 3 values, holds 2",
                () -> PlantedTopics.pipeline(wrongLength).transformSchema(docs().schema()));
        assertMessage("docConcentration (alpha) must hold 1 or k = 3 values, holds 2", () -> wrongLength.fit(features));
        assertMessage("featuresCol 'text' must hold term-count vectors", () -> gibbs().setFeaturesCol("text")
                .fit(docs()));
        org.apache.spark.sql.types.StructType vectors = new org.apache.spark.sql.types.StructType()
                .add("features", org.apache.spark.ml.linalg.SQLDataTypes.VectorType());
        Dataset<Row> fractional = spark().createDataFrame(List.of(
                org.apache.spark.sql.RowFactory.create(org.apache.spark.ml.linalg.Vectors.dense(1, 0, 2)),
                org.apache.spark.sql.RowFactory.create(org.apache.spark.ml.linalg.Vectors.dense(0, 0.5, 1))), vectors);
        assertMessage("GibbsLDA needs term counts (non-negative whole numbers); row 1 has 0.5 for term 1",
                () -> gibbs().fit(fractional));
        Dataset<Row> empty = spark().createDataFrame(List.of(
                org.apache.spark.sql.RowFactory.create(org.apache.spark.ml.linalg.Vectors.sparse(3, new int[0],
                        new double[0]))), vectors);
        assertMessage("GibbsLDA needs at least one document with a term; the 1 rows of featuresCol 'features' "
                + "have none", () -> gibbs().fit(empty));
    }

    /**
     * A features column of array&lt;double&gt; or array&lt;float&gt; (MLlib's LDA takes those too) is read as the vectors it
     * holds: the same topics, θ and log-likelihood as from the vector column, and the column itself is left as it
     * was. Arrays of other types are refused by name.
     */
    @Test
    void arrayFeaturesGiveWhatTheirVectorsGive() {
        Dataset<Row> vectors = features().select("id", "features").cache();
        GibbsLDAModel fromVectors = gibbs().setMaxIter(4).fit(vectors);
        Map<Long, double[]> thetas = thetas(fromVectors.transform(vectors), "topicDistribution");
        for (String type : List.of("float64", "float32")) {
            Dataset<Row> arrays = vectors.withColumn("features",
                    org.apache.spark.ml.functions.vector_to_array(vectors.col("features"), type));
            assertEquals(fromVectors.topicWordCounts(), gibbs().setMaxIter(4).fit(arrays).topicWordCounts(), type);
            Dataset<Row> out = fromVectors.transform(arrays);
            assertEquals(arrays.schema().apply("features"), out.schema().apply("features"), type);
            assertThetasEqual(thetas, thetas(out, "topicDistribution"));
            assertEquals(fromVectors.logLikelihood(vectors), fromVectors.logLikelihood(arrays), 0.0, type);
        }
        Dataset<Row> ints = vectors.withColumn("features", org.apache.spark.sql.functions.array(
                org.apache.spark.sql.functions.lit(1), org.apache.spark.sql.functions.lit(2)));
        assertMessage("featuresCol 'features' must hold term-count vectors (as CountVectorizer makes) or arrays of "
                + "double or float, is array<int>", () -> gibbs().fit(ints));
        vectors.unpersist();
    }

    /**
     * describeTopics(0) gives every topic with no terms, as MLlib's does; a negative count is refused. The model
     * prints itself as MLlib's do.
     */
    @Test
    void describeTopicsOfNoTermsAndToString() {
        GibbsLDAModel lda = ldaStage(fitted());
        List<Row> none = lda.describeTopics(0).collectAsList();
        assertEquals(3, none.size());
        for (Row r : none) {
            assertEquals(0, r.getList(1).size());
            assertEquals(0, r.getList(2).size());
        }
        assertMessage("maxTermsPerTopic must be >= 0, got -1", () -> lda.describeTopics(-1));
        assertEquals("GibbsLDAModel: uid=" + lda.uid() + ", k=3, numFeatures=" + lda.vocabSize(), lda.toString());
    }

    /**
     * With a Spark checkpoint directory the lineage cuts are reliable checkpoints; each supersedes the one before,
     * which is deleted, and the last goes when the run ends, so no rdd-* directory is left behind (Spark would keep
     * every one). Driven step by step, exactly one exists after every sweep, a new one after each cut; a fit leaves
     * none, and its topics are those of a fit with local checkpoints.
     */
    @Test
    void reliableLineageCheckpointsAreNotLeftBehind() throws IOException {
        Dataset<Row> features = features().select("features");
        GibbsLDAModel local = gibbs().setMaxIter(6).setCheckpointInterval(2).fit(features);
        Path dir = tmp.resolve("spark-checkpoints");
        jsc().setCheckpointDir(dir.toString());
        try {
            AdLdaSpark run = AdLdaSpark.start(jsc(), VectorCorpus.read(features, "features").documents().collect(),
                    new AdLdaSpark.Options(new LdaPriors(3, 0.5, 0.01), 4, 2, 5, LdaKernel.SPARSE_GIBBS, 2,
                            SyncVia.JOBS));
            Set<String> seen = new HashSet<>();
            for (int sweep = 1; sweep <= 6; sweep++) {
                run.step(1);
                List<String> now = checkpointDirectories(dir);
                assertEquals(1, now.size(), "after sweep " + sweep + ": " + now);
                seen.addAll(now);
            }
            assertTrue(seen.size() >= 3, "a new checkpoint at every cut: " + seen);
            run.close();
            assertEquals(List.of(), checkpointDirectories(dir));

            GibbsLDAModel reliable = gibbs().setMaxIter(6).setCheckpointInterval(2).fit(features);
            assertEquals(local.topicWordCounts(), reliable.topicWordCounts());
            assertEquals(List.of(), checkpointDirectories(dir));
        } finally {
            jsc().sc().checkpointDir_$eq(scala.Option.empty());
        }
    }

    private static List<String> checkpointDirectories(Path dir) throws IOException {
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.walk(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("rdd-")).sorted().toList();
        }
    }

    static void assertMessage(String expected, org.junit.jupiter.api.function.Executable run) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, run);
        assertTrue(e.getMessage().contains(expected), "message: " + e.getMessage());
    }
}
