package org.sparkmc.core.model;

import java.io.Serializable;
import org.apache.commons.numbers.gamma.LogGamma;
import org.apache.commons.rng.sampling.distribution.AhrensDieterMarsagliaTsangGammaSampler;
import org.sparkmc.core.random.Rng;

/**
 * The Normal–Inverse-Wishart prior of a Gaussian's mean and covariance, Σ ~ IW(ν₀, S₀), μ | Σ ~ N(m₀, Σ/κ₀), and
 * what conjugacy gives from a component's sufficient statistics (n, Σy, Σyyᵀ): the posterior NIW(m_n, κ_n, ν_n,
 * S_n), a draw from it, the marginal likelihood p(Y) and the Student-t posterior predictive p(y* | Y) (Murphy 2007,
 * "Conjugate Bayesian analysis of the Gaussian distribution", §9; Gelman et al., BDA3 §3.6). d-dimensional,
 * matrices row-major.
 */
public final class NormalInverseWishart implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final double LOG_PI = Math.log(Math.PI);

    private final int d;
    private final double[] m0;
    private final double kappa0;
    private final double nu0;
    private final double[] s0;
    private final double logDetS0;

    public NormalInverseWishart(double[] m0, double kappa0, double nu0, double[] s0) {
        this.d = m0.length;
        if (!(kappa0 > 0) || !(nu0 > d - 1) || s0.length != d * d) {
            throw new IllegalArgumentException("NIW needs κ₀ > 0, ν₀ > d − 1 and a d×d S₀; got κ₀ = " + kappa0
                    + ", ν₀ = " + nu0 + ", d = " + d);
        }
        for (int i = 0; i < d; i++) {
            if (!Double.isFinite(m0[i])) {
                throw new IllegalArgumentException("NIW needs a finite prior mean, m₀[" + i + "] is " + m0[i]);
            }
        }
        this.m0 = m0.clone();
        this.kappa0 = kappa0;
        this.nu0 = nu0;
        this.s0 = s0.clone();
        this.logDetS0 = Matrices.logDeterminant(Matrices.cholesky(s0, d), d);
    }

    public int dimension() {
        return d;
    }

    /** A component's sufficient statistics: count, Σy and Σyyᵀ; mutable, with add and remove. */
    public static final class Stats implements Serializable {
        private static final long serialVersionUID = 1L;
        int n;
        final double[] sum;
        final double[] sumSq;

        public Stats(int d) {
            sum = new double[d];
            sumSq = new double[d * d];
        }

        public int count() {
            return n;
        }

        public void add(double[] y, int offset, int sign) {
            int d = sum.length;
            n += sign;
            for (int a = 0; a < d; a++) {
                double ya = y[offset + a];
                sum[a] += sign * ya;
                for (int b = 0; b < d; b++) {
                    sumSq[a * d + b] += sign * ya * y[offset + b];
                }
            }
        }

        public void clear() {
            n = 0;
            java.util.Arrays.fill(sum, 0);
            java.util.Arrays.fill(sumSq, 0);
        }
    }

    /** The posterior's parameters: mean m_n, κ_n, ν_n, scale S_n (with its Cholesky factor and log det). */
    public final class Posterior {
        public final double kappa;
        public final double nu;
        public final double[] mean;
        public final double[] scale;
        final double[] cholScale;
        final double logDetScale;

        Posterior(Stats s) {
            kappa = kappa0 + s.n;
            nu = nu0 + s.n;
            mean = new double[d];
            for (int a = 0; a < d; a++) {
                mean[a] = (kappa0 * m0[a] + s.sum[a]) / kappa;
            }
            scale = new double[d * d];
            for (int a = 0; a < d; a++) {
                for (int b = 0; b < d; b++) {
                    scale[a * d + b] = s0[a * d + b] + s.sumSq[a * d + b] + kappa0 * m0[a] * m0[b]
                            - kappa * mean[a] * mean[b];
                }
            }
            for (int a = 0; a < d; a++) {
                for (int b = 0; b < a; b++) {
                    double sym = 0.5 * (scale[a * d + b] + scale[b * d + a]);
                    scale[a * d + b] = sym;
                    scale[b * d + a] = sym;
                }
            }
            cholScale = Matrices.cholesky(scale, d);
            logDetScale = Matrices.logDeterminant(cholScale, d);
        }

        /** log p(y* | Y): the multivariate Student-t with ν_n − d + 1 degrees of freedom. */
        public double logPredictive(double[] y, int offset) {
            double dof = nu - d + 1;
            double factor = (kappa + 1) / (kappa * dof);
            double[] r = new double[d];
            for (int a = 0; a < d; a++) {
                r[a] = y[offset + a] - mean[a];
            }
            Matrices.forwardSolve(cholScale, d, r);
            double q = 0;
            for (double v : r) {
                q += v * v;
            }
            q /= factor;
            return LogGamma.value((dof + d) / 2) - LogGamma.value(dof / 2) - 0.5 * d * Math.log(dof * Math.PI)
                    - 0.5 * (logDetScale + d * Math.log(factor)) - 0.5 * (dof + d) * Math.log1p(q / dof);
        }

        /** E[Σ | Y] = S_n / (ν_n − d − 1) (NaN entries when ν_n ≤ d + 1). */
        public double[] meanCovariance() {
            double[] c = scale.clone();
            for (int i = 0; i < c.length; i++) {
                c[i] /= nu - d - 1;
            }
            return c;
        }
    }

    public Posterior posterior(Stats s) {
        return new Posterior(s);
    }

    /** log p(Y) of the points summarised by {@code s}, all constants included. */
    public double logMarginal(Stats s) {
        Posterior p = posterior(s);
        return -0.5 * s.n * d * LOG_PI + logMultiGamma(p.nu / 2) - logMultiGamma(nu0 / 2) + 0.5 * nu0 * logDetS0
                - 0.5 * p.nu * p.logDetScale + 0.5 * d * (Math.log(kappa0) - Math.log(p.kappa));
    }

    /** log Γ_d(a). */
    double logMultiGamma(double a) {
        double s = 0.25 * d * (d - 1) * LOG_PI;
        for (int j = 0; j < d; j++) {
            s += LogGamma.value(a - 0.5 * j);
        }
        return s;
    }

    /**
     * Draws (μ, Σ) from the posterior given {@code s} (the prior when s is empty): Σ = W⁻¹ with W ~ Wishart(ν_n,
     * S_n⁻¹) by Bartlett's decomposition, then μ ~ N(m_n, Σ/κ_n). Writes μ into {@code mu[muAt…]} and Σ into
     * {@code sigma[sigmaAt…]} (row-major).
     */
    public void sample(Stats s, Rng rng, double[] mu, int muAt, double[] sigma, int sigmaAt) {
        Posterior p = posterior(s);
        double[] precisionScale = Matrices.inverse(p.cholScale, d);
        double[] l = Matrices.cholesky(precisionScale, d);
        double[] a = new double[d * d];
        for (int i = 0; i < d; i++) {
            double shape = (p.nu - i) / 2;
            a[i * d + i] = Math.sqrt(AhrensDieterMarsagliaTsangGammaSampler.of(rng.provider(), shape, 2).sample());
            for (int j = 0; j < i; j++) {
                a[i * d + j] = rng.normal();
            }
        }
        double[] la = new double[d * d];
        for (int i = 0; i < d; i++) {
            for (int j = 0; j <= i; j++) {
                double v = 0;
                for (int k = j; k <= i; k++) {
                    v += l[i * d + k] * a[k * d + j];
                }
                la[i * d + j] = v;
            }
        }
        // W = (LA)(LA)ᵀ, LA lower triangular, so LA is W's Cholesky factor and Σ = W⁻¹.
        double[] cov = Matrices.inverse(la, d);
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < i; j++) {
                double sym = 0.5 * (cov[i * d + j] + cov[j * d + i]);
                cov[i * d + j] = sym;
                cov[j * d + i] = sym;
            }
        }
        System.arraycopy(cov, 0, sigma, sigmaAt, d * d);
        double[] lc = Matrices.cholesky(cov, d);
        double[] z = new double[d];
        for (int i = 0; i < d; i++) {
            z[i] = rng.normal();
        }
        double[] step = new double[d];
        Matrices.lowerTimes(lc, d, z, step);
        double sd = 1 / Math.sqrt(p.kappa);
        for (int i = 0; i < d; i++) {
            mu[muAt + i] = p.mean[i] + sd * step[i];
        }
    }

    /**
     * log NIW(μ, Σ) up to a constant: −((ν₀ + d + 2)/2)·log|Σ| − ½ tr(S₀ Σ⁻¹) − (κ₀/2)(μ − m₀)ᵀ Σ⁻¹ (μ − m₀), given
     * the Cholesky factor of Σ; −∞ when Σ is not positive definite (null factor).
     */
    public double logDensity(double[] mu, int muAt, double[] cholSigma) {
        if (cholSigma == null) {
            return Double.NEGATIVE_INFINITY;
        }
        double logDet = Matrices.logDeterminant(cholSigma, d);
        double[] inv = Matrices.inverse(cholSigma, d);
        double trace = 0;
        for (int a = 0; a < d; a++) {
            for (int b = 0; b < d; b++) {
                trace += s0[a * d + b] * inv[b * d + a];
            }
        }
        double[] m = new double[d];
        System.arraycopy(mu, muAt, m, 0, d);
        double q = Matrices.mahalanobis(cholSigma, d, m, m0);
        return -0.5 * (nu0 + d + 2) * logDet - 0.5 * trace - 0.5 * kappa0 * q;
    }
}
