package org.sparkmc.core.consensus;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.NormalizedGaussianSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.model.Matrices;

/**
 * The density-product combiners of Neiswanger, Wang &amp; Xing (2014), "Asymptotically exact, embarrassingly
 * parallel MCMC", UAI: each shard's sub-posterior p_s is estimated from its T draws θ_{s,1..T}, and the combined
 * draws are exact draws of the product Π_s p̂_s of the estimates, which tends to the full posterior as T grows and
 * the bandwidth shrinks, whether the sub-posteriors are Gaussian or not.
 *
 * <p>Shard s's kernel is N(0, h²Σ̂_s), its sample covariance scaled by the bandwidth h (the paper uses h²I; a
 * kernel shaped like the draws makes h free of the parameters' scales and correlations). With W_s = Σ̂_s⁻¹,
 * Σ_M = (Σ_s W_s)⁻¹ and, for an index tuple t· = (t_1, …, t_S), the consensus average of its draws
 * θ̄_t· = Σ_M Σ_s W_s θ_{s,t_s}:
 * <ul>
 *   <li><b>Nonparametric</b>: p̂_s(θ) = (1/T) Σ_t N(θ | θ_{s,t}, h²Σ̂_s), a kernel density estimate. Their product is
 *       a mixture over tuples with weights w_t· ∝ exp(−Σ_s (θ_{s,t_s} − θ̄_t·)ᵀ W_s (θ_{s,t_s} − θ̄_t·) / (2h²))
 *       and components N(θ̄_t·, h²Σ_M).</li>
 *   <li><b>Semiparametric</b> (after Hjort &amp; Glad 1995): p̂_s(θ) = f_s(θ) · (1/T) Σ_t N(θ | θ_{s,t}, h²Σ̂_s) /
 *       f_s(θ_{s,t}) with the Gaussian fit f_s = N(μ̂_s, Σ̂_s): a kernel estimate of p_s/f_s corrects the fit. With
 *       μ_M = Σ_M Σ_s W_s μ̂_s (the fits' product is N(μ_M, Σ_M)), the product of the p̂_s is a mixture with weights
 *       W_t· ∝ w_t· · N(θ̄_t· | μ_M, (1 + h²)Σ_M) / Π_s f_s(θ_{s,t_s}) and components
 *       N((θ̄_t· + h²μ_M)/(1 + h²), h²Σ_M/(1 + h²)). It is right for Gaussian sub-posteriors at any bandwidth
 *       (for large h it becomes the Gaussian fits' product); a small h corrects non-Gaussian ones.</li>
 * </ul>
 *
 * <p>The mixture is sampled as the paper does, by independent Metropolis within Gibbs over the tuple: a sweep
 * proposes for each shard in turn a new index uniformly among its T draws and accepts it with probability
 * min(1, W_new/W_old); after every {@code thin} sweeps the tuple's component gives one combined draw. The chain
 * starts at a uniformly drawn tuple, and its first {@code warmupSweeps} sweeps are discarded. A sweep costs
 * O(S·d²); the draws' terms are computed once, O(S·T·d²). The default bandwidth is the normal reference rule of a
 * d-dimensional kernel estimate from T draws, (4/(d + 2))^{1/(d+4)} T^{−1/(d+4)}; the paper instead lets h shrink
 * over the sweeps, here it is fixed, so that all draws come from one mixture.
 */
public final class DensityProductCombiner implements Combiner {
    private final boolean semiparametric;
    private final double bandwidth;
    private final int draws;
    private final int thin;
    private final int warmupSweeps;

    private DensityProductCombiner(boolean semiparametric, double bandwidth, int draws, int thin, int warmupSweeps) {
        if (!(bandwidth > 0 || Double.isNaN(bandwidth)) || Double.isInfinite(bandwidth)) {
            throw new InvalidInputException("the combiner's bandwidth must be positive and finite, is " + bandwidth);
        }
        if (draws < 0 || thin < 1 || warmupSweeps < 0) {
            throw new InvalidInputException("the combiner needs draws ≥ 0, thin ≥ 1 and warm-up sweeps ≥ 0, has "
                    + draws + ", " + thin + " and " + warmupSweeps);
        }
        this.semiparametric = semiparametric;
        this.bandwidth = bandwidth;
        this.draws = draws;
        this.thin = thin;
        this.warmupSweeps = warmupSweeps;
    }

    /**
     * The semiparametric combiner.
     *
     * @param bandwidth    h, relative to each shard's sample covariance; NaN for {@link #defaultBandwidth}
     * @param draws        combined draws to return; 0 for as many as each shard kept
     * @param thin         sweeps of the index chain per combined draw
     * @param warmupSweeps sweeps of the index chain discarded first
     */
    public static DensityProductCombiner semiparametric(double bandwidth, int draws, int thin, int warmupSweeps) {
        return new DensityProductCombiner(true, bandwidth, draws, thin, warmupSweeps);
    }

    /** The nonparametric combiner; arguments as {@link #semiparametric}. */
    public static DensityProductCombiner nonparametric(double bandwidth, int draws, int thin, int warmupSweeps) {
        return new DensityProductCombiner(false, bandwidth, draws, thin, warmupSweeps);
    }

    /** The normal reference bandwidth (4/(d + 2))^{1/(d+4)} T^{−1/(d+4)} for T draws in d dimensions. */
    public static double defaultBandwidth(int perShard, int dimension) {
        return Math.pow(4.0 / (dimension + 2), 1.0 / (dimension + 4)) * Math.pow(perShard, -1.0 / (dimension + 4));
    }

    @Override
    public String name() {
        return semiparametric ? "semiparametric" : "nonparametric";
    }

    @Override
    public CombinedDraws combine(ShardDraws shardDraws, UniformRandomProvider rng) {
        return new Run(shardDraws).sample(rng);
    }

    /** One combination: the draws' precomputed terms and the index chain. Coordinates are centred at μ_M. */
    private final class Run {
        private final int shards;
        private final int perShard;
        private final int d;
        private final double h2;
        private final double[] productMean;
        /** Σ_M and its Cholesky factor. */
        private final double[] productCov;
        private final double[] productFactor;
        /** W_s(θ_{s,t} − μ_M), (θ_{s,t} − μ_M)ᵀW_s(θ_{s,t} − μ_M) and, semiparametric, log f_s(θ_{s,t}) + const. */
        private final double[][][] weighted;
        private final double[][] quadratic;
        private final double[][] logFit;

        Run(ShardDraws in) {
            this.shards = in.shards();
            this.perShard = in.perShard();
            this.d = in.dimension();
            double h = Double.isNaN(bandwidth) ? defaultBandwidth(perShard, d) : bandwidth;
            this.h2 = h * h;
            double[][] precisions = new double[shards][];
            double[] precisionSum = new double[d * d];
            double[] weightedMeans = new double[d];
            for (int s = 0; s < shards; s++) {
                precisions[s] = Matrices.inverse(ConsensusAverage.choleskyOfCovariance(in, s), d);
                for (int k = 0; k < d * d; k++) {
                    precisionSum[k] += precisions[s][k];
                }
                addTimes(weightedMeans, precisions[s], in.mean(s));
            }
            this.productCov = Matrices.inverse(Matrices.cholesky(precisionSum, d), d);
            this.productFactor = Matrices.cholesky(productCov, d);
            this.productMean = new double[d];
            addTimes(productMean, productCov, weightedMeans);
            this.weighted = new double[shards][perShard][];
            this.quadratic = new double[shards][perShard];
            this.logFit = semiparametric ? new double[shards][perShard] : null;
            double[] x = new double[d];
            double[] fromMean = new double[d];
            double[] scratch = new double[d];
            for (int s = 0; s < shards; s++) {
                for (int t = 0; t < perShard; t++) {
                    double[] theta = in.draw(s, t);
                    for (int j = 0; j < d; j++) {
                        x[j] = theta[j] - productMean[j];
                    }
                    double[] u = new double[d];
                    addTimes(u, precisions[s], x);
                    weighted[s][t] = u;
                    quadratic[s][t] = dot(x, u);
                    if (semiparametric) {
                        for (int j = 0; j < d; j++) {
                            fromMean[j] = theta[j] - in.mean(s)[j];
                        }
                        java.util.Arrays.fill(scratch, 0);
                        addTimes(scratch, precisions[s], fromMean);
                        logFit[s][t] = -0.5 * dot(fromMean, scratch);
                    }
                }
            }
        }

        /** log W (up to a constant) of a tuple with Σ_s W_s x_s = v, Σ_s x_sᵀW_s x_s = squares, Σ_s log f_s = fit. */
        private double logWeight(double[] v, double squares, double fit, double[] scratch) {
            java.util.Arrays.fill(scratch, 0);
            addTimes(scratch, productCov, v);
            double r = dot(v, scratch);
            double lw = -(squares - r) / (2 * h2);
            return semiparametric ? lw - 0.5 * r / (1 + h2) - fit : lw;
        }

        CombinedDraws sample(UniformRandomProvider rng) {
            NormalizedGaussianSampler normal = ZigguratSampler.NormalizedGaussian.of(rng);
            int kept = draws == 0 ? perShard : draws;
            int[] index = new int[shards];
            for (int s = 0; s < shards; s++) {
                index[s] = rng.nextInt(perShard);
            }
            double[] v = new double[d];
            double[] proposed = new double[d];
            double[] scratch = new double[d];
            double[] noise = new double[d];
            double[][] out = new double[kept][];
            long accepted = 0;
            long sweeps = warmupSweeps + (long) kept * thin;
            for (long sweep = 0; sweep < sweeps; sweep++) {
                // The sums afresh each sweep, so that rounding does not accumulate over the updates.
                java.util.Arrays.fill(v, 0);
                double squares = 0;
                double fit = 0;
                for (int s = 0; s < shards; s++) {
                    addTo(v, weighted[s][index[s]], 1);
                    squares += quadratic[s][index[s]];
                    fit += semiparametric ? logFit[s][index[s]] : 0;
                }
                double current = logWeight(v, squares, fit, scratch);
                for (int s = 0; s < shards; s++) {
                    int from = index[s];
                    int to = rng.nextInt(perShard);
                    System.arraycopy(v, 0, proposed, 0, d);
                    addTo(proposed, weighted[s][from], -1);
                    addTo(proposed, weighted[s][to], 1);
                    double newSquares = squares - quadratic[s][from] + quadratic[s][to];
                    double newFit = semiparametric ? fit - logFit[s][from] + logFit[s][to] : 0;
                    double candidate = logWeight(proposed, newSquares, newFit, scratch);
                    if (Math.log(rng.nextDouble()) < candidate - current) {
                        index[s] = to;
                        System.arraycopy(proposed, 0, v, 0, d);
                        squares = newSquares;
                        fit = newFit;
                        current = candidate;
                        if (sweep >= warmupSweeps) {
                            accepted++;
                        }
                    }
                }
                long after = sweep - warmupSweeps + 1;
                if (after > 0 && after % thin == 0) {
                    for (int j = 0; j < d; j++) {
                        noise[j] = normal.sample();
                    }
                    out[(int) (after / thin - 1)] = componentDraw(v, noise, scratch);
                }
            }
            return new CombinedDraws(out, (double) accepted / ((double) kept * thin * shards));
        }

        /** A draw of the tuple's component from standard normal {@code noise}; the tuple's Σ_s W_s x_s is v. */
        private double[] componentDraw(double[] v, double[] noise, double[] scratch) {
            // centred consensus average θ̄ − μ_M = Σ_M v; the semiparametric component shrinks it by 1/(1 + h²)
            double shrink = semiparametric ? 1 / (1 + h2) : 1;
            double sd = semiparametric ? Math.sqrt(h2 / (1 + h2)) : Math.sqrt(h2);
            double[] theta = new double[d];
            Matrices.lowerTimes(productFactor, d, noise, scratch);
            java.util.Arrays.fill(theta, 0);
            addTimes(theta, productCov, v);
            for (int j = 0; j < d; j++) {
                theta[j] = productMean[j] + shrink * theta[j] + sd * scratch[j];
            }
            return theta;
        }

        /** out += A·x for row-major d × d A. */
        private void addTimes(double[] out, double[] a, double[] x) {
            for (int i = 0; i < d; i++) {
                double sum = 0;
                for (int j = 0; j < d; j++) {
                    sum += a[i * d + j] * x[j];
                }
                out[i] += sum;
            }
        }
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int j = 0; j < a.length; j++) {
            s += a[j] * b[j];
        }
        return s;
    }

    private static void addTo(double[] target, double[] v, double sign) {
        for (int j = 0; j < target.length; j++) {
            target[j] += sign * v[j];
        }
    }
}
