package org.sparkmc.spark.ml;

import java.util.Arrays;
import org.apache.spark.ml.linalg.SQLDataTypes;
import org.apache.spark.ml.param.DoubleArrayParam;
import org.apache.spark.ml.param.DoubleParam;
import org.apache.spark.ml.param.IntParam;
import org.apache.spark.ml.param.LongParam;
import org.apache.spark.ml.param.Param;
import org.apache.spark.ml.param.Params;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.sparkmc.core.lda.LdaKernel;
import org.sparkmc.core.lda.LdaPriors;

/**
 * The params {@link GibbsLDA} and {@link GibbsLDAModel} share, named as Spark MLlib's
 * {@code org.apache.spark.ml.clustering.LDA} names them ({@code k}, {@code maxIter}, {@code docConcentration},
 * {@code topicConcentration}, {@code featuresCol}, {@code topicDistributionCol}, {@code seed},
 * {@code checkpointInterval}), plus the sampler's own ({@code numBlocks}, {@code kernel}, {@code foldInBurnIn},
 * {@code foldInSamples}), with MLlib-style getters.
 */
public interface GibbsLDAParams extends Params {
    /**
     * The param objects of this estimator or model. The accessors below are public methods returning them, which is
     * how Spark finds a class's params (by reflection over its public methods, default ones included).
     */
    GibbsLDAParamSet paramSet();

    /**
     * The number of topics K, 1 to 65535 (default 10; MLlib requires K &gt; 1, here K = 1 — a unigram model — is
     * allowed).
     */
    default IntParam k() {
        return paramSet().k;
    }

    /**
     * Collapsed Gibbs sweeps over the corpus (default 20; 0 gives the model of the random start). MLlib: EM or
     * online iterations.
     */
    default IntParam maxIter() {
        return paramSet().maxIter;
    }

    /** α: one value, or K equal values (a symmetric prior). Unset by default; then α = 50/K. */
    default DoubleArrayParam docConcentration() {
        return paramSet().docConcentration;
    }

    /** β. Unset by default; then β = 0.01. */
    default DoubleParam topicConcentration() {
        return paramSet().topicConcentration;
    }

    /** Input term-count vectors (default "features"). */
    default Param<String> featuresCol() {
        return paramSet().featuresCol;
    }

    /** Output θ_d column of {@code transform} (default "topicDistribution"). */
    default Param<String> topicDistributionCol() {
        return paramSet().topicDistributionCol;
    }

    /** The root seed (default: the hash of the estimator's class name, as MLlib's). */
    default LongParam seed() {
        return paramSet().seed;
    }

    /** Sweeps between cuts of the sampler's RDD lineage, the first after the random start (default 10; -1: never). */
    default IntParam checkpointInterval() {
        return paramSet().checkpointInterval;
    }

    /** AD-LDA document blocks B (default 8): the seed and B fix the chain whatever the partitioning. */
    default IntParam numBlocks() {
        return paramSet().numBlocks;
    }

    /** Per-token update: {@code sparse_gibbs} (default) or {@code cycle_mh}, in any case. */
    default Param<String> kernel() {
        return paramSet().kernel;
    }

    /** Fold-in sweeps discarded per document in {@code transform} and {@code logLikelihood} (default 50). */
    default IntParam foldInBurnIn() {
        return paramSet().foldInBurnIn;
    }

    /** Fold-in sweeps averaged into θ_d (default 50). */
    default IntParam foldInSamples() {
        return paramSet().foldInSamples;
    }

    default int getK() {
        return (Integer) getOrDefault(k());
    }

    default int getMaxIter() {
        return (Integer) getOrDefault(maxIter());
    }

    /** The docConcentration set, or (unlike MLlib, which throws when it is unset) the effective one, {50/K}. */
    default double[] getDocConcentration() {
        return isSet(docConcentration()) ? getOrDefault(docConcentration()).clone()
                : new double[] {GibbsLDAParamSet.DEFAULT_ALPHA_TIMES_K / getK()};
    }

    /** The topicConcentration set, or (unlike MLlib, which throws when it is unset) the effective one, 0.01. */
    default double getTopicConcentration() {
        return isSet(topicConcentration()) ? (Double) getOrDefault(topicConcentration())
                : GibbsLDAParamSet.DEFAULT_BETA;
    }

    default String getFeaturesCol() {
        return getOrDefault(featuresCol());
    }

    default String getTopicDistributionCol() {
        return getOrDefault(topicDistributionCol());
    }

    default long getSeed() {
        return (Long) getOrDefault(seed());
    }

    default int getCheckpointInterval() {
        return (Integer) getOrDefault(checkpointInterval());
    }

    default int getNumBlocks() {
        return (Integer) getOrDefault(numBlocks());
    }

    /** The kernel's name in lower case, however it was set ({@code kernel} takes any case). */
    default String getKernel() {
        return GibbsLDAParamSet.checkKernel(getOrDefault(kernel()));
    }

    default int getFoldInBurnIn() {
        return (Integer) getOrDefault(foldInBurnIn());
    }

    default int getFoldInSamples() {
        return (Integer) getOrDefault(foldInSamples());
    }

    /** The kernel as core's enum. */
    default LdaKernel ldaKernel() {
        return GibbsLDAParamSet.kernelOf(getKernel());
    }

    /**
     * K, α and β as the sampler uses them, checked: docConcentration must hold one value or K values.
     *
     * @throws IllegalArgumentException if docConcentration's length is neither 1 nor K
     */
    default LdaPriors effectivePriors() {
        int numTopics = GibbsLDAParamSet.checkK(getK());
        double[] alpha = GibbsLDAParamSet.checkDocConcentration(getDocConcentration());
        if (alpha.length != 1 && alpha.length != numTopics) {
            throw new IllegalArgumentException("docConcentration (alpha) must hold 1 or k = " + numTopics
                    + " values, holds " + alpha.length + ": " + Arrays.toString(alpha));
        }
        return new LdaPriors(numTopics, alpha[0],
                GibbsLDAParamSet.checkTopicConcentration(getTopicConcentration()));
    }

    /**
     * Checks the params (docConcentration's length against k) and that the features column holds vectors or arrays
     * of doubles or floats, as MLlib's LDA does, and adds the topic-distribution column.
     */
    default StructType validateAndTransformSchema(StructType schema) {
        effectivePriors();
        String in = getFeaturesCol();
        if (!Arrays.asList(schema.fieldNames()).contains(in)) {
            throw new IllegalArgumentException("featuresCol '" + in + "' is not a column of " + schema.simpleString());
        }
        DataType type = schema.apply(in).dataType();
        if (!type.equals(SQLDataTypes.VectorType()) && !isNumberArray(type)) {
            throw new IllegalArgumentException("featuresCol '" + in + "' must hold term-count vectors (as "
                    + "CountVectorizer makes) or arrays of double or float, is " + type.catalogString());
        }
        String out = getTopicDistributionCol();
        if (Arrays.asList(schema.fieldNames()).contains(out)) {
            throw new IllegalArgumentException("topicDistributionCol '" + out + "' already exists");
        }
        return schema.add(new StructField(out, SQLDataTypes.VectorType(), true,
                org.apache.spark.sql.types.Metadata.empty()));
    }

    /**
     * The features column of {@code dataset} as vectors: a vector column as it is, an array of doubles or floats
     * (which MLlib's LDA takes too) converted by {@code array_to_vector}.
     */
    default Column featuresAsVectors(Dataset<?> dataset) {
        Column features = dataset.col(getFeaturesCol());
        return isNumberArray(dataset.schema().apply(getFeaturesCol()).dataType())
                ? org.apache.spark.ml.functions.array_to_vector(features) : features;
    }

    private static boolean isNumberArray(DataType type) {
        return type instanceof ArrayType array && (array.elementType().equals(DataTypes.DoubleType)
                || array.elementType().equals(DataTypes.FloatType));
    }
}
