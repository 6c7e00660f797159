package org.sparkmc.spark.ml;

import java.io.IOException;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.ml.Estimator;
import org.apache.spark.ml.param.DoubleArrayParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.DefaultParamsWritable;
import org.apache.spark.ml.util.DefaultParamsWriter;
import org.apache.spark.ml.util.Identifiable$;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.spark.lda.AdLdaSpark;
import org.sparkmc.spark.lda.LdaDocuments;
import org.sparkmc.spark.sync.SyncVia;

/**
 * Latent Dirichlet allocation fitted by collapsed Gibbs sampling (Griffiths &amp; Steyvers 2004), distributed as
 * AD-LDA (Newman, Asuncion, Smyth &amp; Welling, JMLR 2009) by {@link AdLdaSpark}: a Spark ML {@link Estimator} with
 * the params of MLlib's {@code org.apache.spark.ml.clustering.LDA}, so {@code new LDA()} in a pipeline can become
 * {@code new GibbsLDA()}.
 *
 * <p>{@link #fit} reads the term-count vectors of {@code featuresCol} (as {@code CountVectorizer} makes them) on the
 * executors (empty rows skipped; documents in a canonical content-hash order, see {@link VectorCorpus}; the tokens
 * never pass through the driver), cuts them into {@code numBlocks} blocks cached there, and runs {@code maxIter}
 * sweeps, each followed by AD-LDA's merge of the count changes (maxIter = 0: the model of the random start). The
 * fitted topics depend only on the documents, the params and the seed — not on the number of partitions,
 * executors or cores, nor on the row order — given the same input vectors: a {@code CountVectorizer} fitted in the
 * same pipeline leaves the order of words with equal counts to the partitioning, so to reproduce a fit on
 * another cluster shape, fix the vocabulary (a {@code CountVectorizerModel} built from a vocabulary list).
 *
 * <p>Differences from MLlib's LDA: one symmetric α (docConcentration: one value or k equal values; default 50/k,
 * MLlib's online default is 1/k and its EM default 50/k + 1) and β (topicConcentration, default 0.01; MLlib's
 * online 1/k, EM 1.1), any value &gt; 0 is allowed (EM needs &gt; 1); k = 1 is allowed; there is no
 * {@code optimizer}, {@code learningOffset}, {@code learningDecay}, {@code subsamplingRate},
 * {@code optimizeDocConcentration} or {@code keepLastCheckpoint}; the model is always local
 * ({@code isDistributed() == false}).
 */
public class GibbsLDA extends Estimator<GibbsLDAModel> implements GibbsLDAParams, DefaultParamsWritable {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(GibbsLDA.class);

    private final String uid;
    private final GibbsLDAParamSet p;

    public GibbsLDA(String uid) {
        this.uid = uid;
        this.p = new GibbsLDAParamSet(this);
        p.setDefaults(this);
    }

    public GibbsLDA() {
        this(Identifiable$.MODULE$.randomUID("gibbslda"));
    }

    @Override
    public String uid() {
        return uid;
    }

    @Override
    public GibbsLDAParamSet paramSet() {
        return p;
    }

    // Setters, as MLlib's LDA has them; the params' validators check the values (GibbsLDAParamSet).

    public GibbsLDA setK(int value) {
        set(p.k, value);
        return this;
    }

    public GibbsLDA setMaxIter(int value) {
        set(p.maxIter, value);
        return this;
    }

    /** A symmetric α: one value (MLlib also takes one value as "the same for every topic"). */
    public GibbsLDA setDocConcentration(double value) {
        return setDocConcentration(new double[] {value});
    }

    /** α as an array: one value or k equal values (an asymmetric prior is refused). */
    public GibbsLDA setDocConcentration(double[] value) {
        set(p.docConcentration, value == null ? null : value.clone());
        return this;
    }

    public GibbsLDA setTopicConcentration(double value) {
        set(p.topicConcentration, value);
        return this;
    }

    public GibbsLDA setFeaturesCol(String value) {
        set(p.featuresCol, value);
        return this;
    }

    public GibbsLDA setTopicDistributionCol(String value) {
        set(p.topicDistributionCol, value);
        return this;
    }

    public GibbsLDA setSeed(long value) {
        set(p.seed, value);
        return this;
    }

    public GibbsLDA setCheckpointInterval(int value) {
        set(p.checkpointInterval, value);
        return this;
    }

    public GibbsLDA setNumBlocks(int value) {
        set(p.numBlocks, value);
        return this;
    }

    /**
     * {@code sparse_gibbs} (exact SparseLDA buckets) or {@code cycle_mh} (LightLDA-style MH, for large k), in any
     * case (as MLlib's {@code optimizer}); {@link #getKernel} reads it in lower case.
     */
    public GibbsLDA setKernel(String value) {
        set(p.kernel, value);
        return this;
    }

    public GibbsLDA setFoldInBurnIn(int value) {
        set(p.foldInBurnIn, value);
        return this;
    }

    public GibbsLDA setFoldInSamples(int value) {
        set(p.foldInSamples, value);
        return this;
    }

    @Override
    public GibbsLDAModel fit(Dataset<?> dataset) {
        transformSchema(dataset.schema(), true);
        LdaPriors priors = effectivePriors();
        int numBlocks = getNumBlocks();
        int sweeps = getMaxIter();
        VectorCorpus.Read read = VectorCorpus.read(dataset.select(featuresAsVectors(dataset)), getFeaturesCol());
        if (read.emptyRows() > 0) {
            LOG.info("GibbsLDA {}: skipped {} of {} rows without a term", uid, read.emptyRows(), read.rows());
        }
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(dataset.sparkSession().sparkContext());
        int partitions = Math.max(1, Math.min(numBlocks, sc.defaultParallelism()));
        LdaDocuments docs = read.documents();
        AdLdaSpark run;
        try {
            run = AdLdaSpark.start(sc, docs.blocks(numBlocks, partitions), docs.numTokens(), docs.vocabularySize(),
                    new AdLdaSpark.Options(priors, numBlocks, partitions, getSeed(), ldaKernel(),
                            getCheckpointInterval(), SyncVia.AUTO));
        } finally {
            docs.release(); // the blocks are cached by now
        }
        try {
            if (sweeps > 0) { // maxIter = 0: the model of the random start, as AdLdaSpark.start drew it
                run.advance(sweeps, 1, step -> LOG.info(
                        "GibbsLDA {}: sweep {} of {}, log p(w,z) per token {}, {} tokens/s", uid, step.sweeps(),
                        sweeps, String.format("%.4f", step.perToken()), String.format("%.0f", step.tokensPerSecond())));
            }
            GibbsLDAModel model = new GibbsLDAModel(uid, run.counts(), priors, run.logLikelihood());
            return copyValues(model, ParamMap.empty()).setParent(this);
        } finally {
            run.close();
        }
    }

    @Override
    public StructType transformSchema(StructType schema) {
        return validateAndTransformSchema(schema);
    }

    @Override
    public GibbsLDA copy(ParamMap extra) {
        return defaultCopy(extra);
    }

    @Override
    public MLWriter write() {
        return new DefaultParamsWriter(this);
    }

    @Override
    public void save(String path) throws IOException {
        write().save(path);
    }

    /** Reads an estimator saved by {@code write().save(path)} (params only). */
    public static MLReader<GibbsLDA> read() {
        return new DefaultParamsReader<>();
    }

    public static GibbsLDA load(String path) {
        return read().load(path);
    }

    /** The active session (for readers and writers). */
    static SparkSession session() {
        return SparkSession.active();
    }
}
