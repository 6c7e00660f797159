package org.sparkmc.core.consensus;

import org.apache.commons.rng.UniformRandomProvider;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.model.Matrices;

/**
 * The consensus Monte Carlo average of Scott, Blocker, Bonassi, Chipman, George &amp; McCulloch (2016), "Bayes and big
 * data: the consensus Monte Carlo algorithm", Int. J. Management Science and Engineering Management 11(2):
 * draw t of the combined sample is the matrix-weighted average of draw t of every shard,
 *
 * <pre>
 *   θ_t = (Σ_s W_s)⁻¹ Σ_s W_s θ_{s,t},   W_s = Σ̂_s⁻¹ (the inverse sample covariance of shard s's draws).
 * </pre>
 *
 * When every sub-posterior is Gaussian, N(μ_s, Σ_s) with W_s = Σ_s⁻¹, the θ_t are exact draws of their product
 * N((Σ W_s)⁻¹ Σ W_s μ_s, (Σ W_s)⁻¹), which is the full posterior when each shard sampled
 * p(θ)^{1/S} Π_{i ∈ s} p(y_i | θ) ({@link ShardTarget}). Otherwise it is an approximation whose error grows with the
 * sub-posteriors' skewness; {@link DensityProductCombiner} does not assume normality. Deterministic: T combined
 * draws from T draws per shard.
 */
public final class ConsensusAverage implements Combiner {

    @Override
    public String name() {
        return "consensus";
    }

    /**
     * @throws InvalidInputException when a shard's draws have a singular covariance (a chain that never moved in
     *     some direction)
     */
    @Override
    public CombinedDraws combine(ShardDraws draws, UniformRandomProvider rng) {
        int shards = draws.shards();
        int d = draws.dimension();
        double[][] weights = new double[shards][];
        double[] total = new double[d * d];
        for (int s = 0; s < shards; s++) {
            weights[s] = Matrices.inverse(choleskyOfCovariance(draws, s), d);
            for (int k = 0; k < d * d; k++) {
                total[k] += weights[s][k];
            }
        }
        double[] totalInverse = Matrices.inverse(Matrices.cholesky(total, d), d);
        // B_s = (Σ W)⁻¹ W_s, so that θ_t = Σ_s B_s θ_{s,t}
        double[][] b = new double[shards][];
        for (int s = 0; s < shards; s++) {
            b[s] = product(totalInverse, weights[s], d);
        }
        double[][] out = new double[draws.perShard()][d];
        for (int t = 0; t < out.length; t++) {
            double[] theta = out[t];
            for (int s = 0; s < shards; s++) {
                double[] x = draws.draw(s, t);
                double[] bs = b[s];
                for (int a = 0; a < d; a++) {
                    double sum = 0;
                    for (int c = 0; c < d; c++) {
                        sum += bs[a * d + c] * x[c];
                    }
                    theta[a] += sum;
                }
            }
        }
        return new CombinedDraws(out, Double.NaN);
    }

    /** The Cholesky factor of shard s's sample covariance, or a message naming the shard when it is singular. */
    static double[] choleskyOfCovariance(ShardDraws draws, int s) {
        int d = draws.dimension();
        double[] l = new double[d * d];
        if (!Matrices.tryCholesky(draws.covariance(s), d, l)) {
            throw new InvalidInputException("shard " + s + "'s draws have a singular covariance: its chain did not"
                    + " move in every direction");
        }
        return l;
    }

    /** A·B for row-major d × d matrices. */
    static double[] product(double[] a, double[] b, int d) {
        double[] c = new double[d * d];
        for (int i = 0; i < d; i++) {
            for (int k = 0; k < d; k++) {
                double x = a[i * d + k];
                for (int j = 0; j < d; j++) {
                    c[i * d + j] += x * b[k * d + j];
                }
            }
        }
        return c;
    }
}
