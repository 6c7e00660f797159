package org.sparkmc.core.model;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.numbers.gamma.LogGamma;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.random.Rng;
import org.sparkmc.core.smc.LogWeights;

/**
 * A finite Gaussian mixture model and its data, shared by the Gibbs samplers of {@link GaussianMixtureGibbs} and
 * {@link CollapsedGaussianMixture}: N points y_i ∈ R^d, K components, weights π ~ Dirichlet(α, …, α), each
 * component (μ_k, Σ_k) ~ {@link NormalInverseWishart}(m₀, κ₀, ν₀, S₀), z_i ~ Categorical(π), y_i ~ N(μ_{z_i},
 * Σ_{z_i}).
 *
 * <p>Parameters: {@code points} (row-major N × {@code dim}) or a synthetic data set ({@link #synthetic}: {@code n}
 * points, default 300, from 4 well-spread 2-d Gaussians, seeded by {@code data-seed}); {@code K} (4), {@code alpha}
 * (1), {@code kappa0} (0.01), {@code nu0} (d + 2), {@code s0} (1: S₀ = s0²·I, so E[Σ] = S₀ when ν₀ = d + 2) and
 * {@code m0} (zeros).
 *
 * <p>Label switching: the likelihood is invariant under permuting the labels, so component summaries are reported
 * relabelled — components sorted by the first coordinate of their mean (an ordering constraint imposed after
 * sampling) — and the convergence checks rest on label-invariant quantities: log p(y, z), the log-likelihood and the
 * cluster sizes sorted in decreasing order.
 */
public final class MixtureSpec implements Serializable {
    private static final long serialVersionUID = 1L;

    final double[] y;
    final int n;
    final int d;
    final int k;
    final double alpha;
    final NormalInverseWishart prior;

    public MixtureSpec(double[] points, int dim, int components, double alpha, NormalInverseWishart prior) {
        if (dim <= 0 || points.length == 0 || points.length % dim != 0) {
            throw new InvalidInputException("mixture: points must hold N × dim numbers, have " + points.length
                    + " for dim " + dim);
        }
        if (components < 1 || !(alpha > 0) || prior.dimension() != dim) {
            throw new InvalidInputException("mixture: need K ≥ 1, alpha > 0 and a " + dim + "-d prior; got K = "
                    + components + ", alpha = " + alpha);
        }
        this.y = points.clone();
        this.d = dim;
        this.n = points.length / dim;
        this.k = components;
        this.alpha = alpha;
        this.prior = prior;
    }

    public static MixtureSpec of(ModelParameters p) {
        double[] points;
        int dim;
        if (p.has("points")) {
            points = p.getDoubleArray("points");
            dim = p.getInt("dim", 2, 1);
        } else {
            dim = 2;
            int n = p.getInt("n", 300, 1);
            long seed = p.has("data-seed") ? (long) p.getDouble("data-seed") : 1;
            points = synthetic(n, seed);
        }
        int k = p.getInt("K", 4, 1);
        double[] m0 = p.has("m0") ? p.getDoubleArray("m0") : new double[dim];
        if (m0.length != dim) {
            throw new InvalidInputException(p.where("m0") + ": m0 has " + m0.length + " values, expected " + dim);
        }
        double s0 = p.getDoubleAbove("s0", 1, 0);
        double kappa0 = p.getDoubleAbove("kappa0", 0.01, 0);
        double nu0 = p.getDoubleAbove("nu0", dim + 2, dim - 1); // the prior's degrees of freedom: > dim − 1
        NormalInverseWishart prior = new NormalInverseWishart(m0, kappa0, nu0, Matrices.identity(dim, s0 * s0));
        return new MixtureSpec(points, dim, k, p.getDoubleAbove("alpha", 1, 0), prior);
    }

    /**
     * The lectures' kind of data set: n points in 2-d from 4 equally weighted Gaussians with means (0, 0), (3, 3),
     * (−3, 2.5), (2.5, −3) and different covariances, drawn from stream ("mixture-data") of root seed {@code seed}.
     */
    public static double[] synthetic(int n, long seed) {
        double[][] means = {{0, 0}, {3, 3}, {-3, 2.5}, {2.5, -3}};
        double[][] chol = {{1, 0, 0.5, 0.8}, {0.8, 0, -0.3, 0.5}, {0.6, 0, 0, 1.1}, {1, 0, 0, 0.7}};
        Rng rng = new RandomStreams(seed).rng("mixture-data");
        double[] y = new double[2 * n];
        for (int i = 0; i < n; i++) {
            int c = rng.provider().nextInt(4);
            double z1 = rng.normal();
            double z2 = rng.normal();
            y[2 * i] = means[c][0] + chol[c][0] * z1;
            y[2 * i + 1] = means[c][1] + chol[c][2] * z1 + chol[c][3] * z2;
        }
        return y;
    }

    public int points() {
        return n;
    }

    public int dimension() {
        return d;
    }

    public int components() {
        return k;
    }

    public NormalInverseWishart prior() {
        return prior;
    }

    public double alpha() {
        return alpha;
    }

    /** The data, row-major N × d (a copy). */
    public double[] data() {
        return y.clone();
    }

    /** Sufficient statistics of each component under labels z (positions 0…N−1 of {@code x}). */
    NormalInverseWishart.Stats[] stats(double[] x) {
        NormalInverseWishart.Stats[] s = new NormalInverseWishart.Stats[k];
        for (int c = 0; c < k; c++) {
            s[c] = new NormalInverseWishart.Stats(d);
        }
        for (int i = 0; i < n; i++) {
            s[(int) x[i]].add(y, i * d, 1);
        }
        return s;
    }

    /** Whether x[0…N) are valid labels 0…K−1. */
    boolean validLabels(double[] x) {
        for (int i = 0; i < n; i++) {
            double z = x[i];
            if (!(z >= 0 && z < k) || z != Math.rint(z)) {
                return false;
            }
        }
        return true;
    }

    /**
     * log p(y, z) with π, μ, Σ integrated out: the Dirichlet-multinomial term plus each component's NIW marginal
     * likelihood. The same function of z for both samplers, and label-invariant.
     */
    public double logJointCollapsed(double[] x) {
        if (!validLabels(x)) {
            return Double.NEGATIVE_INFINITY;
        }
        NormalInverseWishart.Stats[] s = stats(x);
        double lp = LogGamma.value(k * alpha) - LogGamma.value(n + k * alpha);
        for (int c = 0; c < k; c++) {
            lp += LogGamma.value(s[c].n + alpha) - LogGamma.value(alpha) + prior.logMarginal(s[c]);
        }
        return lp;
    }

    /** log p(y | π, μ, Σ) = Σ_i log Σ_k π_k N(y_i; μ_k, Σ_k), Σ_k given by Cholesky factors. */
    double logLikelihood(double[] weights, double[] means, double[][] chol) {
        double ll = 0;
        double[] point = new double[d];
        double[] mean = new double[d];
        double[] logw = new double[k];
        for (int i = 0; i < n; i++) {
            System.arraycopy(y, i * d, point, 0, d);
            for (int c = 0; c < k; c++) {
                System.arraycopy(means, c * d, mean, 0, d);
                logw[c] = Math.log(weights[c]) + logNormal(point, mean, chol[c]);
            }
            ll += LogWeights.logSumExp(logw);
        }
        return ll;
    }

    double logNormal(double[] point, double[] mean, double[] chol) {
        return -0.5 * d * Math.log(2 * Math.PI) - 0.5 * Matrices.logDeterminant(chol, d)
                - 0.5 * Matrices.mahalanobis(chol, d, point, mean);
    }

    /** Names of the reported quantities (see {@link #report}). */
    List<String> names() {
        List<String> names = new ArrayList<>(List.of("log_p_yz", "loglik"));
        for (int c = 1; c <= k; c++) {
            names.add("size_sorted[" + c + "]");
        }
        for (int c = 1; c <= k; c++) {
            names.add("w[" + c + "]");
            for (int a = 1; a <= d; a++) {
                names.add("mu[" + c + "," + a + "]");
            }
        }
        return names;
    }

    /**
     * The reported quantities: log p(y, z), the log-likelihood at (weights, means, covariances), the cluster sizes
     * in decreasing order, then each component's weight and mean with components relabelled by increasing first
     * mean coordinate.
     */
    double[] report(double[] x, double[] weights, double[] means, double[][] chol) {
        double[] out = new double[2 + k + k * (1 + d)];
        out[0] = logJointCollapsed(x);
        out[1] = logLikelihood(weights, means, chol);
        int[] sizes = new int[k];
        for (int i = 0; i < n; i++) {
            sizes[(int) x[i]]++;
        }
        Arrays.sort(sizes);
        for (int c = 0; c < k; c++) {
            out[2 + c] = sizes[k - 1 - c];
        }
        Integer[] order = new Integer[k];
        for (int c = 0; c < k; c++) {
            order[c] = c;
        }
        Arrays.sort(order, (a, b) -> Double.compare(means[a * d], means[b * d]));
        int at = 2 + k;
        for (int c : order) {
            out[at++] = weights[c];
            for (int a = 0; a < d; a++) {
                out[at++] = means[c * d + a];
            }
        }
        return out;
    }

    /** Labels uniformly at random (a dispersed start). */
    double[] randomLabels(Rng rng) {
        double[] z = new double[n];
        for (int i = 0; i < n; i++) {
            z[i] = rng.provider().nextInt(k);
        }
        return z;
    }
}
