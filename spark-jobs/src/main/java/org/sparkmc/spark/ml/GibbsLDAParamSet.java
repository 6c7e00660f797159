package org.sparkmc.spark.ml;

import java.io.Serializable;
import java.util.Locale;
import org.apache.spark.ml.param.DoubleArrayParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.Params;
import org.sparkmc.core.lda.LdaKernel;
import org.sparkmc.core.lda.LdaPriors;
import scala.Function1;

/**
 * The Param objects of one {@link GibbsLDA} or {@link GibbsLDAModel} (a Java class cannot mix in Spark's Scala
 * param traits, so both own one of these and expose its members), their defaults, and their validators' checks,
 * which Spark runs whichever way a value is set (clearer messages than Spark's generic "given invalid value").
 */
public final class GibbsLDAParamSet implements Serializable {
    private static final long serialVersionUID = 1L;
    /** As MLlib's {@code HasSeed}: the hash of the estimator's class name. */
    static final long DEFAULT_SEED = "org.sparkmc.spark.ml.GibbsLDA".hashCode();
    /** Griffiths &amp; Steyvers' (2004) α = 50/K when docConcentration is not set. */
    static final double DEFAULT_ALPHA_TIMES_K = 50.0;
    /** β when topicConcentration is not set. */
    static final double DEFAULT_BETA = 0.01;

    final IntParam k;
    final IntParam maxIter;
    final DoubleArrayParam docConcentration;
    final DoubleParam topicConcentration;
    final Param<String> featuresCol;
    final Param<String> topicDistributionCol;
    final LongParam seed;
    final IntParam checkpointInterval;
    final IntParam numBlocks;
    final Param<String> kernel;
    final IntParam foldInBurnIn;
    final IntParam foldInSamples;

    GibbsLDAParamSet(Params owner) {
        k = new IntParam(owner, "k", "the number of topics (1 to " + LdaPriors.MAX_TOPICS + ")",
                validator(v -> checkK((Integer) v)));
        maxIter = new IntParam(owner, "maxIter", "collapsed Gibbs sweeps over the corpus (>= 0)",
                validator(v -> checkMaxIter((Integer) v)));
        docConcentration = new DoubleArrayParam(owner, "docConcentration",
                "alpha, the symmetric Dirichlet prior on document-topic distributions: one value > 0, or k equal "
                        + "values; unset means 50/k (Griffiths & Steyvers 2004)",
                validator(v -> checkDocConcentration((double[]) v)));
        topicConcentration = new DoubleParam(owner, "topicConcentration",
                "beta, the symmetric Dirichlet prior on topic-word distributions (> 0); unset means 0.01",
                validator(v -> checkTopicConcentration((Double) v)));
        featuresCol = new Param<>(owner, "featuresCol", "term-count vectors (as CountVectorizer makes)",
                validator(v -> checkColumn("featuresCol", v)));
        topicDistributionCol = new Param<>(owner, "topicDistributionCol",
                "output column of document-topic distributions theta_d, by fold-in Gibbs sampling",
                validator(v -> checkColumn("topicDistributionCol", v)));
        seed = new LongParam(owner, "seed", "root seed of every random stream");
        checkpointInterval = new IntParam(owner, "checkpointInterval",
                "sweeps between cuts of the sampler's RDD lineage (>= 1), or -1 for never; when the sweeps run "
                        + "in one relayed stage (every partition has a task slot), it is cut once, at the end",
                validator(v -> checkCheckpointInterval((Integer) v)));
        numBlocks = new IntParam(owner, "numBlocks",
                "AD-LDA document blocks (>= 1); with the seed, they fix the chain whatever the partitioning",
                validator(v -> checkNumBlocks((Integer) v)));
        kernel = new Param<>(owner, "kernel",
                "per-token update: sparse_gibbs (exact SparseLDA) or cycle_mh (LightLDA-style MH, for large k); "
                        + "any case, read in lower case",
                validator(GibbsLDAParamSet::checkKernel));
        foldInBurnIn = new IntParam(owner, "foldInBurnIn",
                "fold-in Gibbs sweeps discarded per document in transform and logLikelihood (>= 0)",
                validator(v -> checkFoldIn("foldInBurnIn", (Integer) v, 0)));
        foldInSamples = new IntParam(owner, "foldInSamples",
                "fold-in Gibbs sweeps whose theta estimates are averaged per document (>= 1)",
                validator(v -> checkFoldIn("foldInSamples", (Integer) v, 1)));
    }

    void setDefaults(Params owner) {
        owner.setDefault(k, 10);
        owner.setDefault(maxIter, 20);
        owner.setDefault(featuresCol, "features");
        owner.setDefault(topicDistributionCol, "topicDistribution");
        owner.setDefault(seed, DEFAULT_SEED);
        owner.setDefault(checkpointInterval, 10);
        owner.setDefault(numBlocks, 8);
        owner.setDefault(kernel, "sparse_gibbs");
        owner.setDefault(foldInBurnIn, 50);
        owner.setDefault(foldInSamples, 50);
    }

    /** A check that throws an {@link IllegalArgumentException} saying what is wrong with a value. */
    private interface Check extends Serializable {
        void check(Object value);
    }

    /**
     * A Spark param validator running {@code check}: Spark calls it whichever way a value is set (a setter,
     * {@code set(param, value)}, a {@code ParamMap}, a loaded model's metadata), so every path refuses the same
     * values with {@code check}'s message rather than Spark's generic "given invalid value".
     */
    private static <T> Function1<T, Object> validator(Check check) {
        return (Function1<T, Object> & Serializable) v -> {
            check.check(v);
            return true;
        };
    }

    static boolean positiveFinite(double x) {
        return x > 0 && !Double.isInfinite(x);
    }

    /** The kernel of a {@code kernel} value (case-insensitive), or null. */
    static LdaKernel kernelOf(String name) {
        for (LdaKernel kernel : LdaKernel.values()) {
            if (kernel.name().equalsIgnoreCase(name)) {
                return kernel;
            }
        }
        return null;
    }

    // The validators' checks: what is wrong, and what was expected.

    static int checkK(int value) {
        if (value < 1 || value > LdaPriors.MAX_TOPICS) {
            throw new IllegalArgumentException("k (the number of topics) must be in [1, " + LdaPriors.MAX_TOPICS
                    + "], got " + value);
        }
        return value;
    }

    static int checkMaxIter(int value) {
        if (value < 0) {
            throw new IllegalArgumentException("maxIter (Gibbs sweeps) must be >= 0, got " + value);
        }
        return value;
    }

    static double[] checkDocConcentration(double[] value) {
        if (value == null || value.length == 0) {
            throw new IllegalArgumentException("docConcentration (alpha) needs one value, got none");
        }
        for (int i = 0; i < value.length; i++) {
            if (!positiveFinite(value[i])) {
                throw new IllegalArgumentException("docConcentration (alpha) must be positive and finite, got "
                        + value[i] + (value.length > 1 ? " at index " + i : ""));
            }
            if (value[i] != value[0]) {
                throw new IllegalArgumentException("docConcentration (alpha): GibbsLDA supports a symmetric prior "
                        + "only (one value, or k equal values); got " + value[0] + " at index 0 and " + value[i]
                        + " at index " + i);
            }
        }
        return value.clone();
    }

    static double checkTopicConcentration(double value) {
        if (!positiveFinite(value)) {
            throw new IllegalArgumentException("topicConcentration (beta) must be positive and finite, got " + value);
        }
        return value;
    }

    static int checkCheckpointInterval(int value) {
        if (value != -1 && value < 1) {
            throw new IllegalArgumentException("checkpointInterval must be >= 1, or -1 to disable, got " + value);
        }
        return value;
    }

    static int checkNumBlocks(int value) {
        if (value < 1) {
            throw new IllegalArgumentException("numBlocks (AD-LDA document blocks) must be >= 1, got " + value);
        }
        return value;
    }

    /** The kernel name in its canonical lower case, for a {@code kernel} value in any case. */
    static String checkKernel(Object value) {
        LdaKernel kernel = value instanceof String name ? kernelOf(name) : null;
        if (kernel == null) {
            throw new IllegalArgumentException("kernel must be sparse_gibbs or cycle_mh (in any case), got " + value);
        }
        return kernel.name().toLowerCase(Locale.ROOT);
    }

    static int checkFoldIn(String name, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be >= " + min + ", got " + value);
        }
        return value;
    }

    static void checkColumn(String name, Object value) {
        if (!(value instanceof String column) || column.isEmpty()) {
            throw new IllegalArgumentException(name + " must name a column (a non-empty string), got "
                    + (value == null ? "null" : "'" + value + "'"));
        }
    }
}
