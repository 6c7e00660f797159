/**
 * A Spark ML API for collapsed Gibbs LDA: {@link org.sparkmc.spark.ml.GibbsLDA}, an {@code Estimator} with the params
 * of MLlib's {@code org.apache.spark.ml.clustering.LDA} that runs AD-LDA
 * ({@link org.sparkmc.spark.lda.AdLdaSpark}; Newman et al. 2009), and {@link org.sparkmc.spark.ml.GibbsLDAModel},
 * its model (topics, fold-in θ, plug-in likelihood, save/load). The sampling mathematics is core's
 * ({@code org.sparkmc.core.lda}); this package reads DataFrames, moves counts and calls it.
 */
package org.sparkmc.spark.ml;
