package org.sparkmc.core.model;

import java.util.List;
import org.apache.commons.rng.sampling.distribution.DirichletSampler;
import org.sparkmc.core.random.Categorical;
import org.sparkmc.core.random.Rng;

/**
 * The finite Gaussian mixture of a {@link MixtureSpec} with every variable instantiated, for blocked Gibbs sampling
 * with the full conditionals (Diebolt &amp; Robert 1994; the lectures' "vanilla" Gibbs sampler): position
 * [z_1…z_N | π_1…π_K | μ_1…μ_K | Σ_1…Σ_K] (labels 0…K−1 stored as doubles, covariances row-major). Blocks:
 * 0 — all labels, z_i | … ∝ π_k N(y_i; μ_k, Σ_k), independently; 1 — π | z ~ Dirichlet(α + n_1, …, α + n_K);
 * 2 + k — (μ_k, Σ_k) | z, y ~ NIW posterior of the points labelled k. Reported quantities: see
 * {@link MixtureSpec#report} (log-likelihood at the current parameters).
 */
public final class GaussianMixtureGibbs implements FullConditionals, MixtureLabels {
    private static final long serialVersionUID = 1L;

    private final MixtureSpec spec;

    public GaussianMixtureGibbs(ModelParameters p) {
        this(MixtureSpec.of(p));
    }

    public GaussianMixtureGibbs(MixtureSpec spec) {
        this.spec = spec;
    }

    @Override
    public MixtureSpec spec() {
        return spec;
    }

    private int weightsAt() {
        return spec.n;
    }

    private int meansAt() {
        return spec.n + spec.k;
    }

    private int covariancesAt() {
        return spec.n + spec.k + spec.k * spec.d;
    }

    @Override
    public int dimension() {
        return spec.n + spec.k + spec.k * spec.d + spec.k * spec.d * spec.d;
    }

    @Override
    public int blockCount() {
        return 2 + spec.k;
    }

    /** Cholesky factors of the K covariances, null where one is not positive definite. */
    private double[][] choleskys(double[] x) {
        int d = spec.d;
        double[][] chol = new double[spec.k][];
        for (int c = 0; c < spec.k; c++) {
            double[] cov = new double[d * d];
            System.arraycopy(x, covariancesAt() + c * d * d, cov, 0, d * d);
            double[] l = new double[d * d];
            chol[c] = Matrices.tryCholesky(cov, d, l) ? l : null;
        }
        return chol;
    }

    @Override
    public double logDensity(double[] x) {
        if (!spec.validLabels(x)) {
            return Double.NEGATIVE_INFINITY;
        }
        int k = spec.k;
        int d = spec.d;
        double[][] chol = choleskys(x);
        double lp = 0;
        double[] logw = new double[k];
        for (int c = 0; c < k; c++) {
            double w = x[weightsAt() + c];
            if (!(w > 0) || chol[c] == null) {
                return Double.NEGATIVE_INFINITY;
            }
            logw[c] = Math.log(w);
            lp += (spec.alpha - 1) * logw[c] + spec.prior.logDensity(x, meansAt() + c * d, chol[c]);
        }
        double[] point = new double[d];
        double[] mean = new double[d];
        for (int i = 0; i < spec.n; i++) {
            int c = (int) x[i];
            System.arraycopy(spec.y, i * d, point, 0, d);
            System.arraycopy(x, meansAt() + c * d, mean, 0, d);
            lp += logw[c] + spec.logNormal(point, mean, chol[c]);
        }
        return lp;
    }

    @Override
    public void sampleBlock(int block, double[] x, Rng rng) {
        int k = spec.k;
        int d = spec.d;
        if (block == 0) {
            double[][] chol = choleskys(x);
            double[] logw = new double[k];
            double[] point = new double[d];
            double[] mean = new double[d];
            for (int i = 0; i < spec.n; i++) {
                System.arraycopy(spec.y, i * d, point, 0, d);
                for (int c = 0; c < k; c++) {
                    System.arraycopy(x, meansAt() + c * d, mean, 0, d);
                    logw[c] = Math.log(x[weightsAt() + c]) + spec.logNormal(point, mean, chol[c]);
                }
                x[i] = Categorical.drawLog(logw, rng.uniform());
            }
        } else if (block == 1) {
            double[] a = new double[k];
            java.util.Arrays.fill(a, spec.alpha);
            for (int i = 0; i < spec.n; i++) {
                a[(int) x[i]]++;
            }
            double[] w = DirichletSampler.of(rng.provider(), a).sample();
            System.arraycopy(w, 0, x, weightsAt(), k);
        } else {
            int c = block - 2;
            NormalInverseWishart.Stats s = new NormalInverseWishart.Stats(d);
            for (int i = 0; i < spec.n; i++) {
                if ((int) x[i] == c) {
                    s.add(spec.y, i * d, 1);
                }
            }
            spec.prior.sample(s, rng, x, meansAt() + c * d, x, covariancesAt() + c * d * d);
        }
    }

    /** Random labels, then weights and components drawn from their conditionals given them. */
    @Override
    public double[] initialPosition(Rng rng) {
        double[] x = new double[dimension()];
        System.arraycopy(spec.randomLabels(rng), 0, x, 0, spec.n);
        for (int b = 1; b < blockCount(); b++) {
            sampleBlock(b, x, rng);
        }
        return x;
    }

    @Override
    public List<String> parameterNames() {
        return spec.names();
    }

    @Override
    public double[] parameters(double[] x) {
        double[] w = new double[spec.k];
        System.arraycopy(x, weightsAt(), w, 0, spec.k);
        double[] means = new double[spec.k * spec.d];
        System.arraycopy(x, meansAt(), means, 0, means.length);
        return spec.report(x, w, means, choleskys(x));
    }
}
