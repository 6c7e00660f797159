package org.sparkmc.spark.ml;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.ml.Model;
import org.apache.spark.ml.linalg.DenseMatrix;
import org.apache.spark.ml.linalg.Matrix;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.linalg.Vector;
import org.apache.spark.ml.linalg.Vectors;
import org.apache.spark.ml.param.DoubleArrayParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.ParamMap;
import org.apache.spark.ml.util.DefaultParamsReader;
import org.apache.spark.ml.util.DefaultParamsReader$;
import org.apache.spark.ml.util.DefaultParamsWriter$;
import org.apache.spark.ml.util.MLReader;
import org.apache.spark.ml.util.MLWritable;
import org.apache.spark.ml.util.MLWriter;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF1;
import org.apache.spark.sql.expressions.UserDefinedFunction;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.LeftToRight;
import org.sparkmc.core.lda.TopicWordCounts;
import org.sparkmc.core.lda.TopicWordDelta;
import org.sparkmc.core.smc.ResamplingScheme;
import org.sparkmc.spark.lda.TopWords;

/**
 * An LDA model fitted by {@link GibbsLDA}: the topic–word counts n_{k,w} of the final Gibbs state and the priors,
 * giving topics φ_{k,w} = (n_{k,w} + β)/(n_k + Wβ) (the posterior mean of φ given that state). Mirrors MLlib's
 * {@code LDAModel}: {@link #describeTopics}, {@link #topicsMatrix}, {@link #transform}, {@link #logLikelihood},
 * {@link #logPerplexity}, {@link #estimatedDocConcentration}, save/load.
 *
 * <p>{@link #transform} adds θ_d by fold-in: Gibbs sampling of the document's topics with φ fixed (core's
 * {@code TopicInference}; {@code foldInBurnIn} sweeps discarded, θ averaged over {@code foldInSamples}), on a random
 * stream keyed by the model's seed and the document's (term, count) pairs — so it is reproducible whatever the
 * partitioning, and two identical rows get identical θ. A row without a term gets zeros, as in MLlib. Each call
 * broadcasts the counts to the dataset's session, so a model keeps working after its session is stopped and
 * another started.
 *
 * <p>Differences from MLlib: {@link #topicsMatrix} columns are normalised distributions φ_k (MLlib's online model
 * returns unnormalised variational λ); {@link #logLikelihood} and {@link #logPerplexity} are plug-in estimates from
 * fold-in (below), not variational lower bounds — {@link #leftToRightLogLikelihood} is the counterpart of MLlib's
 * bound (θ integrated out, a lower bound on average); the model is always local ({@link #isDistributed} is false).
 */
public class GibbsLDAModel extends Model<GibbsLDAModel> implements GibbsLDAParams, MLWritable {
    private static final long serialVersionUID = 1L;

    private final String uid;
    private final GibbsLDAParamSet p;
    private final TopicWordCounts counts;
    private final LdaPriors priors;
    private final double trainingLogLikelihood;

    GibbsLDAModel(String uid, TopicWordCounts counts, LdaPriors priors, double trainingLogLikelihood) {
        if (counts.numTopics() != priors.numTopics()) {
            throw new IllegalArgumentException("counts for K=" + counts.numTopics() + ", priors for K="
                    + priors.numTopics());
        }
        this.uid = uid;
        this.p = new GibbsLDAParamSet(this);
        p.setDefaults(this);
        this.counts = counts;
        this.priors = priors;
        this.trainingLogLikelihood = trainingLogLikelihood;
    }

    @Override
    public String uid() {
        return uid;
    }

    @Override
    public GibbsLDAParamSet paramSet() {
        return p;
    }

    public GibbsLDAModel setFeaturesCol(String value) {
        set(p.featuresCol, value);
        return this;
    }

    public GibbsLDAModel setTopicDistributionCol(String value) {
        set(p.topicDistributionCol, value);
        return this;
    }

    /** The seed of the fold-in streams of {@link #transform} and {@link #logLikelihood}. */
    public GibbsLDAModel setSeed(long value) {
        set(p.seed, value);
        return this;
    }

    public GibbsLDAModel setFoldInBurnIn(int value) {
        set(p.foldInBurnIn, value);
        return this;
    }

    public GibbsLDAModel setFoldInSamples(int value) {
        set(p.foldInSamples, value);
        return this;
    }

    /** W, the vocabulary size (the length of the term-count vectors). */
    public int vocabSize() {
        return counts.vocabularySize();
    }

    /** As MLlib's models print themselves: the uid, K and the vocabulary size. */
    @Override
    public String toString() {
        return "GibbsLDAModel: uid=" + uid + ", k=" + priors.numTopics() + ", numFeatures=" + vocabSize();
    }

    /** Always false: the model's counts live on the driver (as MLlib's {@code LocalLDAModel}'s topics do). */
    public boolean isDistributed() {
        return false;
    }

    /** The topic–word counts n_{k,w} of the final Gibbs state. */
    public TopicWordCounts topicWordCounts() {
        return counts;
    }

    /** K, α and β the model was fitted with. */
    public LdaPriors priors() {
        return priors;
    }

    /** log p(w, z) of the training corpus at the final Gibbs state (both Dirichlet–multinomial terms). */
    public double trainingLogLikelihood() {
        return trainingLogLikelihood;
    }

    /** α for every topic (not re-estimated: MLlib's online optimizer can optimise it, Gibbs here does not). */
    public Vector estimatedDocConcentration() {
        double[] alpha = new double[priors.numTopics()];
        Arrays.fill(alpha, priors.alpha());
        return Vectors.dense(alpha);
    }

    /** α as used, one value per topic (as MLlib's {@code getEffectiveDocConcentration}). */
    public double[] getEffectiveDocConcentration() {
        return estimatedDocConcentration().toArray();
    }

    /** β as used. */
    public double getEffectiveTopicConcentration() {
        return priors.beta();
    }

    /** φ as a local W × K matrix, column k the distribution φ_k over the vocabulary (sums to 1). */
    public Matrix topicsMatrix() {
        double[] phi = TopWords.phi(counts, priors.beta()); // word-major: row-major W × K
        return new DenseMatrix(vocabSize(), priors.numTopics(), phi, true).toDenseColMajor();
    }

    /** {@link #describeTopics(int)} with 10 terms, as MLlib's default. */
    public Dataset<Row> describeTopics() {
        return describeTopics(10);
    }

    /**
     * The top terms of every topic by φ_{k,w}, as MLlib's {@code describeTopics}: columns {@code topic} (int),
     * {@code termIndices} (array&lt;int&gt;) and {@code termWeights} (array&lt;double&gt;, φ_{k,w}), one row per topic,
     * min(maxTermsPerTopic, W) terms each (ties by increasing term index; none for 0, as in MLlib).
     */
    public Dataset<Row> describeTopics(int maxTermsPerTopic) {
        if (maxTermsPerTopic < 0) {
            throw new IllegalArgumentException("maxTermsPerTopic must be >= 0, got " + maxTermsPerTopic);
        }
        int k = priors.numTopics();
        List<TopWords.Entry> top = maxTermsPerTopic == 0 ? List.of()
                : TopWords.of(counts, priors.beta(), maxTermsPerTopic);
        int m = top.size() / k;
        List<Row> rows = new ArrayList<>(k);
        for (int t = 0; t < k; t++) {
            List<TopWords.Entry> entries = top.subList(t * m, (t + 1) * m);
            rows.add(RowFactory.create(t, entries.stream().map(TopWords.Entry::word).toArray(Integer[]::new),
                    entries.stream().map(TopWords.Entry::probability).toArray(Double[]::new)));
        }
        StructType schema = new StructType()
                .add("topic", DataTypes.IntegerType, false)
                .add("termIndices", DataTypes.createArrayType(DataTypes.IntegerType, false))
                .add("termWeights", DataTypes.createArrayType(DataTypes.DoubleType, false));
        return GibbsLDA.session().createDataFrame(rows, schema);
    }

    @Override
    public Dataset<Row> transform(Dataset<?> dataset) {
        transformSchema(dataset.schema(), true);
        FoldIn foldIn = foldIn(broadcastCounts(dataset.sparkSession()));
        String column = getFeaturesCol();
        UserDefinedFunction theta = functions.udf((UDF1<Vector, Vector>) v -> v == null ? null
                : Vectors.dense(TermCounts.ofRow(v, column, foldIn::theta)), SQLDataTypes.VectorType());
        return dataset.withColumn(getTopicDistributionCol(), theta.apply(featuresAsVectors(dataset)));
    }

    /**
     * log p(w | φ, θ̂) = Σ_d Σ_i log Σ_k θ̂_{d,k} φ_{k,w_{d,i}} over every token of {@code dataset}, with θ̂_d the
     * fold-in estimate that {@link #transform} returns (from the same tokens) and φ the model's topics.
     *
     * <p>A plug-in estimate, not MLlib's variational lower bound on log p(w | α, β) (which integrates θ and φ out):
     * because θ̂_d is fitted to the tokens it scores, it overstates how well the model predicts new text; for
     * comparisons across models use held-out document completion (core's {@code DocumentCompletion}). Summed per
     * partition, so the last digits may change with the partitioning.
     */
    public double logLikelihood(Dataset<?> dataset) {
        return scores(dataset)[0];
    }

    /**
     * −{@link #logLikelihood}/N, N the tokens of {@code dataset}: the log of the plug-in perplexity (MLlib's is
     * −bound/N with its variational bound; the two are not comparable).
     *
     * @throws IllegalArgumentException if the dataset holds no token
     */
    public double logPerplexity(Dataset<?> dataset) {
        double[] s = scores(dataset);
        if (s[1] == 0) {
            throw new IllegalArgumentException("logPerplexity needs at least one token; the dataset has none");
        }
        return -s[0] / s[1];
    }

    /**
     * Σ_d log p(w_d | φ, α) over the documents of {@code dataset}, each estimated by the left-to-right particle
     * filter with {@code particles} particles (core's {@code LeftToRight}: Wallach et al. 2009's left-to-right
     * estimate with the particles' weights carried, unbiased for p(w_d)); θ is integrated out, not fitted to the
     * tokens, so unlike {@link #logLikelihood} it does not flatter the model, and like MLlib's variational bound it
     * is a lower bound on average (Jensen). Compare models with the same number of particles: the bound tightens
     * as it grows. One Gibbs sweep over a particle's earlier tokens follows each resampling (resample-move). Each
     * row's stream is keyed by the seed and the row's contents.
     *
     * @throws IllegalArgumentException if particles &lt; 1
     */
    public double leftToRightLogLikelihood(Dataset<?> dataset, int particles) {
        return leftToRightLogLikelihood(dataset, particles, 1);
    }

    /**
     * As {@link #leftToRightLogLikelihood(Dataset, int)} with {@code moves} Gibbs sweeps after each resampling (0:
     * none; the cost of a move grows with the document's length).
     */
    public double leftToRightLogLikelihood(Dataset<?> dataset, int particles, int moves) {
        LeftToRight estimator = LeftToRight.of(particles, ResamplingScheme.SYSTEMATIC, moves);
        return scores(dataset, (foldIn, doc) -> foldIn.leftToRight(doc, estimator))[0];
    }

    /** Scores one document with the model (a function shipped to the executors). */
    private interface DocumentScore extends java.io.Serializable {
        double score(FoldIn foldIn, TermCounts doc);
    }

    /** {Σ log-likelihood, Σ tokens}, per partition on the executors, summed in partition order. */
    private double[] scores(Dataset<?> dataset) {
        return scores(dataset, FoldIn::logLikelihood);
    }

    private double[] scores(Dataset<?> dataset, DocumentScore documentScore) {
        validateAndTransformSchema(dataset.schema());
        Broadcast<TopicWordCounts> shipped = broadcastCounts(dataset.sparkSession());
        FoldIn foldIn = foldIn(shipped);
        String column = getFeaturesCol();
        FlatMapFunction<java.util.Iterator<Row>, double[]> score = rows -> {
            double ll = 0;
            double n = 0;
            while (rows.hasNext()) {
                Row r = rows.next();
                if (!r.isNullAt(0)) {
                    double[] scored = TermCounts.ofRow((Vector) r.get(0), column,
                            doc -> new double[] {documentScore.score(foldIn, doc), doc.numTokens()});
                    ll += scored[0];
                    n += scored[1];
                }
            }
            return List.of(new double[] {ll, n}).iterator();
        };
        List<double[]> parts;
        try {
            parts = VectorCorpus.unwrapped(
                    () -> dataset.select(featuresAsVectors(dataset)).javaRDD().mapPartitions(score).collect());
        } finally {
            shipped.destroy();
        }
        double[] total = new double[2];
        for (double[] part : parts) {
            total[0] += part[0];
            total[1] += part[1];
        }
        return total;
    }

    /**
     * The counts broadcast to {@code spark}'s context, anew for every call (as MLlib's models broadcast theirs): a
     * broadcast belongs to one SparkContext, and the model may outlive it and be used in the next.
     */
    private Broadcast<TopicWordCounts> broadcastCounts(SparkSession spark) {
        return JavaSparkContext.fromSparkContext(spark.sparkContext()).broadcast(counts);
    }

    private FoldIn foldIn(Broadcast<TopicWordCounts> shipped) {
        return new FoldIn(shipped, priors, getSeed(), getFoldInBurnIn(), getFoldInSamples());
    }

    @Override
    public StructType transformSchema(StructType schema) {
        return validateAndTransformSchema(schema);
    }

    @Override
    public GibbsLDAModel copy(ParamMap extra) {
        GibbsLDAModel copy = new GibbsLDAModel(uid, counts, priors, trainingLogLikelihood);
        return copyValues(copy, extra).setParent(parent());
    }

    // Persistence: params as MLlib's metadata (DefaultParamsWriter), a one-row summary and the sparse counts in
    // Parquet, through Hadoop's FileSystem (any URI Spark writes to).

    private static final String SUMMARY = "summary";
    private static final String COUNTS = "counts";
    private static final StructType SUMMARY_SCHEMA = new StructType()
            .add("vocabSize", DataTypes.IntegerType, false)
            .add("k", DataTypes.IntegerType, false)
            .add("alpha", DataTypes.DoubleType, false)
            .add("beta", DataTypes.DoubleType, false)
            .add("trainingLogLikelihood", DataTypes.DoubleType, false);
    private static final StructType COUNTS_SCHEMA = new StructType()
            .add("term", DataTypes.IntegerType, false)
            .add("topics", DataTypes.createArrayType(DataTypes.IntegerType, false), false)
            .add("counts", DataTypes.createArrayType(DataTypes.IntegerType, false), false);

    @Override
    public MLWriter write() {
        return new Writer(this);
    }

    @Override
    public void save(String path) throws IOException {
        write().save(path);
    }

    public static MLReader<GibbsLDAModel> read() {
        return new Reader();
    }

    public static GibbsLDAModel load(String path) {
        return read().load(path);
    }

    /** Saves metadata (params), {@code summary/} (W, K, α, β, training log p(w,z)) and {@code counts/}. */
    static final class Writer extends MLWriter {
        private final GibbsLDAModel model;

        Writer(GibbsLDAModel model) {
            this.model = model;
        }

        @Override
        public void saveImpl(String path) {
            SparkSession spark = sparkSession();
            DefaultParamsWriter$.MODULE$.saveMetadata(model, path, spark);
            LdaPriors pr = model.priors;
            spark.createDataFrame(List.of(RowFactory.create(model.vocabSize(), pr.numTopics(), pr.alpha(), pr.beta(),
                    model.trainingLogLikelihood)), SUMMARY_SCHEMA)
                    .coalesce(1).write().parquet(new Path(path, SUMMARY).toString());
            List<Row> rows = new ArrayList<>();
            int[] rowTopics = new int[pr.numTopics()];
            int[] rowCounts = new int[pr.numTopics()];
            for (int v = 0; v < model.vocabSize(); v++) {
                int n = model.counts.row(v, rowTopics, rowCounts);
                if (n == 0) {
                    continue;
                }
                Integer[] topics = new Integer[n];
                Integer[] ns = new Integer[n];
                for (int e = 0; e < n; e++) {
                    topics[e] = rowTopics[e];
                    ns[e] = rowCounts[e];
                }
                rows.add(RowFactory.create(v, topics, ns));
            }
            spark.createDataFrame(rows, COUNTS_SCHEMA).coalesce(1).write()
                    .parquet(new Path(path, COUNTS).toString());
        }
    }

    /** Reads what {@link Writer} saved. */
    static final class Reader extends MLReader<GibbsLDAModel> {
        @Override
        public GibbsLDAModel load(String path) {
            SparkSession spark = sparkSession();
            DefaultParamsReader.Metadata metadata = DefaultParamsReader$.MODULE$.loadMetadata(path, spark,
                    GibbsLDAModel.class.getName());
            Row s = spark.read().parquet(new Path(path, SUMMARY).toString()).first();
            int w = s.getInt(0);
            int k = s.getInt(1);
            LdaPriors priors = new LdaPriors(k, s.getDouble(2), s.getDouble(3));
            List<Row> rows = new ArrayList<>(spark.read().parquet(new Path(path, COUNTS).toString())
                    .collectAsList());
            rows.sort((a, b) -> Integer.compare(a.getInt(0), b.getInt(0)));
            int cells = 0;
            for (Row r : rows) {
                cells += r.getList(1).size();
            }
            int[] words = new int[cells];
            int[] topics = new int[cells];
            int[] ns = new int[cells];
            int[] totals = new int[k];
            int at = 0;
            for (Row r : rows) {
                List<Integer> ts = r.getList(1);
                List<Integer> cs = r.getList(2);
                if (ts.size() != cs.size()) {
                    throw new IllegalArgumentException(path + ": term " + r.getInt(0) + " has " + ts.size()
                            + " topics and " + cs.size() + " counts");
                }
                int[][] pairs = new int[ts.size()][];
                for (int j = 0; j < ts.size(); j++) {
                    pairs[j] = new int[] {ts.get(j), cs.get(j)};
                }
                Arrays.sort(pairs, (x, y) -> Integer.compare(x[0], y[0]));
                for (int[] pair : pairs) {
                    words[at] = r.getInt(0);
                    topics[at] = pair[0];
                    ns[at] = pair[1];
                    if (pair[0] < 0 || pair[0] >= k || pair[1] <= 0) {
                        throw new IllegalArgumentException(path + ": term " + r.getInt(0) + " has count " + pair[1]
                                + " in topic " + pair[0] + " (K=" + k + ")");
                    }
                    totals[pair[0]] += pair[1];
                    at++;
                }
            }
            TopicWordCounts counts = TopicWordCounts.empty(k, w)
                    .plus(List.of(TopicWordDelta.of(k, w, words, topics, ns, totals)));
            GibbsLDAModel model = new GibbsLDAModel(metadata.uid(), counts, priors, s.getDouble(4));
            metadata.getAndSetParams(model, metadata.getAndSetParams$default$2());
            return model;
        }
    }
}
