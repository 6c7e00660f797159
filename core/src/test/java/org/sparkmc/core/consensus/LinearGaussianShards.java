package org.sparkmc.core.consensus;

import java.util.List;
import org.sparkmc.core.model.Matrices;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.random.Rng;

/**
 * A Gaussian linear model with known noise sd σ and a N(0, s²I) prior on its coefficients, its data cut into shards
 * of different sizes and feature scales, so that every sub-posterior is exactly Gaussian and known in closed form:
 * shard s's precision is P_s = X_sᵀX_s/σ² + I/(S·s²) and its mean P_s⁻¹X_sᵀy_s/σ², and the full posterior's
 * precision Σ_s P_s and mean (Σ_s P_s)⁻¹ Σ_s P_s m_s. With {@code priorRaised} false every shard uses the whole
 * prior I/s² instead, the mistake of forgetting the 1/S power; the full posterior stays the right one.
 */
final class LinearGaussianShards {
    static final double[] TRUE_BETA = {0.5, -1, 2};
    static final int D = TRUE_BETA.length;
    static final double NOISE_SD = 1;
    static final double PRIOR_SD = 0.5;

    final int shards;
    final double[][] features;
    final double[][] responses;
    final double[][] subMeans;
    final double[][] subCovariances;
    final double[] fullMean;
    final double[] fullCovariance;

    /**
     * @param rows rows per shard; shard s's non-intercept features are N(0, (0.5·(s + 1))²)
     */
    LinearGaussianShards(int[] rows, long seed, boolean priorRaised) {
        this.shards = rows.length;
        this.features = new double[shards][];
        this.responses = new double[shards][];
        this.subMeans = new double[shards][];
        this.subCovariances = new double[shards][];
        double[] precisionSum = Matrices.identity(D, 1 / (PRIOR_SD * PRIOR_SD));
        double[] weighted = new double[D];
        RandomStreams streams = new RandomStreams(seed);
        for (int s = 0; s < shards; s++) {
            Rng rng = streams.rng("linear-gaussian-data", s);
            double scale = 0.5 * (s + 1);
            double[] x = new double[rows[s] * D];
            double[] y = new double[rows[s]];
            for (int i = 0; i < rows[s]; i++) {
                double eta = 0;
                for (int j = 0; j < D; j++) {
                    x[i * D + j] = j == 0 ? 1 : scale * rng.normal();
                    eta += x[i * D + j] * TRUE_BETA[j];
                }
                y[i] = eta + NOISE_SD * rng.normal();
            }
            features[s] = x;
            responses[s] = y;
            double priorPrecision = 1 / (PRIOR_SD * PRIOR_SD * (priorRaised ? shards : 1));
            double[] precision = Matrices.identity(D, priorPrecision);
            double[] xty = new double[D];
            for (int i = 0; i < rows[s]; i++) {
                for (int a = 0; a < D; a++) {
                    xty[a] += x[i * D + a] * y[i] / (NOISE_SD * NOISE_SD);
                    for (int b = 0; b < D; b++) {
                        precision[a * D + b] += x[i * D + a] * x[i * D + b] / (NOISE_SD * NOISE_SD);
                    }
                }
            }
            double[] l = Matrices.cholesky(precision, D);
            subMeans[s] = Matrices.solve(l, D, xty);
            subCovariances[s] = Matrices.inverse(l, D);
            for (int k = 0; k < D * D; k++) {
                precisionSum[k] += precision[k] - (k % (D + 1) == 0 ? priorPrecision : 0);
            }
            for (int a = 0; a < D; a++) {
                weighted[a] += xty[a];
            }
        }
        double[] l = Matrices.cholesky(precisionSum, D);
        this.fullMean = Matrices.solve(l, D, weighted);
        this.fullCovariance = Matrices.inverse(l, D);
    }

    /** T exact, independent draws of every shard's sub-posterior. */
    double[][][] exactDraws(int perShard, long seed) {
        RandomStreams streams = new RandomStreams(seed);
        double[][][] draws = new double[shards][perShard][];
        for (int s = 0; s < shards; s++) {
            draws[s] = GaussianDraws.draw(subMeans[s], subCovariances[s], perShard, streams.rng("sub-posterior", s));
        }
        return draws;
    }

    /** The shard targets for the model with σ known. */
    ShardTarget target(int s) {
        return new ShardTarget(GaussianGlm.withKnownSd(Glm.coefficientNames(D), NOISE_SD), features[s], responses[s],
                PRIOR_SD, shards, s);
    }

    static List<String> names() {
        return Glm.coefficientNames(D);
    }
}
