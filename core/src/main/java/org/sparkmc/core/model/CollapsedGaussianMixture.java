package org.sparkmc.core.model;

import java.util.List;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.random.Categorical;
import org.sparkmc.core.random.Rng;

/**
 * The finite Gaussian mixture of a {@link MixtureSpec} with π, μ and Σ integrated out, for collapsed Gibbs sampling
 * of the labels alone (the lectures' algorithm; MacEachern 1994, Neal 2000 Alg. 3 for finite K): position
 * z_1…z_N (labels 0…K−1 as doubles), one block per point, with full conditional
 * p(z_i = k | z_−i, y) ∝ (n_k,−i + α) · t(y_i | points of k except i), the NIW Student-t posterior predictive.
 * {@link #sweep} keeps every component's sufficient statistics (and predictive) up to date from point to point,
 * so a sweep costs O(N·K·d²) instead of recomputing them per point. The log density is log p(y, z). Reported
 * quantities: see {@link MixtureSpec#report}, with weights, means and covariances at their posterior means given z.
 */
public final class CollapsedGaussianMixture implements FullConditionals, MixtureLabels {
    private static final long serialVersionUID = 1L;

    private final MixtureSpec spec;

    /**
     * The model of {@link MixtureSpec#of}; the reported covariances are posterior means S_n/(ν_n − d − 1), which exist
     * for every cluster, even an empty one, only when ν₀ &gt; d + 1, so a smaller {@code nu0} is refused here.
     */
    public CollapsedGaussianMixture(ModelParameters p) {
        this(MixtureSpec.of(p));
        double nu0 = p.getDouble("nu0", spec.d + 2);
        if (!(nu0 > spec.d + 1)) {
            throw new InvalidInputException(p.where("nu0") + ": gmm_collapsed reports each cluster's posterior-mean"
                    + " covariance S_n/(nu_n - d - 1), which needs nu0 > d + 1 = " + (spec.d + 1) + "; got nu0 = "
                    + nu0);
        }
    }

    public CollapsedGaussianMixture(MixtureSpec spec) {
        this.spec = spec;
    }

    @Override
    public MixtureSpec spec() {
        return spec;
    }

    @Override
    public int dimension() {
        return spec.n;
    }

    @Override
    public int blockCount() {
        return spec.n;
    }

    @Override
    public double logDensity(double[] x) {
        return spec.logJointCollapsed(x);
    }

    @Override
    public void sampleBlock(int i, double[] x, Rng rng) {
        NormalInverseWishart.Stats[] s = spec.stats(x);
        s[(int) x[i]].add(spec.y, i * spec.d, -1);
        NormalInverseWishart.Posterior[] post = new NormalInverseWishart.Posterior[spec.k];
        for (int c = 0; c < spec.k; c++) {
            post[c] = spec.prior.posterior(s[c]);
        }
        x[i] = draw(i, s, post, rng);
    }

    private int draw(int i, NormalInverseWishart.Stats[] s, NormalInverseWishart.Posterior[] post, Rng rng) {
        double[] logw = new double[spec.k];
        for (int c = 0; c < spec.k; c++) {
            logw[c] = Math.log(s[c].n + spec.alpha) + post[c].logPredictive(spec.y, i * spec.d);
        }
        return Categorical.drawLog(logw, rng.uniform());
    }

    @Override
    public void sweep(double[] x, Rng rng) {
        NormalInverseWishart.Stats[] s = spec.stats(x);
        NormalInverseWishart.Posterior[] post = new NormalInverseWishart.Posterior[spec.k];
        for (int c = 0; c < spec.k; c++) {
            post[c] = spec.prior.posterior(s[c]);
        }
        for (int i = 0; i < spec.n; i++) {
            int old = (int) x[i];
            s[old].add(spec.y, i * spec.d, -1);
            post[old] = spec.prior.posterior(s[old]);
            int now = draw(i, s, post, rng);
            s[now].add(spec.y, i * spec.d, 1);
            post[now] = spec.prior.posterior(s[now]);
            x[i] = now;
        }
    }

    @Override
    public double[] initialPosition(Rng rng) {
        return spec.randomLabels(rng);
    }

    @Override
    public List<String> parameterNames() {
        return spec.names();
    }

    /** Weights (n_k + α)/(N + Kα), means m_n and covariances S_n/(ν_n − d − 1): posterior means given z. */
    @Override
    public double[] parameters(double[] x) {
        int k = spec.k;
        int d = spec.d;
        NormalInverseWishart.Stats[] s = spec.stats(x);
        double[] w = new double[k];
        double[] means = new double[k * d];
        double[][] chol = new double[k][];
        for (int c = 0; c < k; c++) {
            NormalInverseWishart.Posterior p = spec.prior.posterior(s[c]);
            w[c] = (s[c].n + spec.alpha) / (spec.n + k * spec.alpha);
            System.arraycopy(p.mean, 0, means, c * d, d);
            chol[c] = Matrices.cholesky(p.meanCovariance(), d);
        }
        return spec.report(x, w, means, chol);
    }
}
