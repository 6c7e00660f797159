package org.sparkmc.core.testing;

import java.util.ArrayList;
import java.util.List;
import org.sparkmc.core.model.GradientTarget;
import org.sparkmc.core.model.Matrices;
import org.sparkmc.core.random.Rng;

/**
 * A Bayesian linear regression for kernel tests: y ~ N(Xβ, σ²I), β_j ~ N(0, s²), σ ~ half-Cauchy(0, c) or
 * half-normal(0, c); position (β, log σ) with the Jacobian, reporting (β, σ). Its exact posterior moments come from
 * one-dimensional quadrature over log σ ({@link #reference()}): given σ, β is normal with precision XᵀX/σ² + I/s²,
 * and p(σ | y) is known in closed form up to a constant. Two instances are the posteriordb posteriors issue 21 held
 * back: {@code arK-arK}, an AR(5) model of posteriordb's series ({@link #autoregressive}), and a regression shaped
 * as {@code sblrc-blr}, whose 5 coefficients have sd ≈ 0.001 beside log σ with sd ≈ 0.07 ({@link #badlyScaled}).
 */
public final class LinearModel implements GradientTarget {
    private static final long serialVersionUID = 1L;
    private final double[] x;
    private final double[] y;
    private final int n;
    private final int p;
    private final double priorSd;
    private final double sigmaScale;
    private final boolean halfNormalSigma;
    private final List<String> names;

    /**
     * @param design          row-major n × p design matrix
     * @param names           the p coefficients' names ("sigma" is added)
     * @param priorSd         s, the coefficients' prior sd
     * @param sigmaScale      c, the scale of σ's prior
     * @param halfNormalSigma σ ~ half-normal(0, c) if true, else half-Cauchy(0, c)
     */
    public LinearModel(double[] design, double[] y, List<String> names, double priorSd, double sigmaScale,
            boolean halfNormalSigma) {
        this.x = design.clone();
        this.y = y.clone();
        this.n = y.length;
        this.p = names.size();
        this.priorSd = priorSd;
        this.sigmaScale = sigmaScale;
        this.halfNormalSigma = halfNormalSigma;
        List<String> all = new ArrayList<>(names);
        all.add("sigma");
        this.names = List.copyOf(all);
    }

    /**
     * posteriordb's {@code arK} model of {@code series}: y[t] ~ N(α + Σ_k β_k·y[t − k], σ²) for t &gt; k, α, β ~
     * N(0, 10²), σ ~ half-Cauchy(0, 2.5); k + 2 parameters.
     */
    public static LinearModel autoregressive(double[] series, int k) {
        int rows = series.length - k;
        double[] design = new double[rows * (k + 1)];
        double[] out = new double[rows];
        List<String> names = new ArrayList<>(List.of("alpha"));
        for (int j = 1; j <= k; j++) {
            names.add("beta[" + j + "]");
        }
        for (int i = 0; i < rows; i++) {
            int t = k + i;
            design[i * (k + 1)] = 1;
            for (int j = 0; j < k; j++) {
                design[i * (k + 1) + 1 + j] = series[t - 1 - j];
            }
            out[i] = series[t];
        }
        return new LinearModel(design, out, names, 10, 2.5, false);
    }

    /**
     * A regression shaped as posteriordb's {@code sblrc-blr} (its data are not public outside posteriordb's zip
     * files, so these are simulated from {@code rng}): y = Xβ + N(0, 1) noise, 100 rows, 5 correlated predictors
     * (ρ = 0.5) of sd 100, no intercept, β = (1, 1, 1, 1, 1); blr's priors β ~ N(0, 10²), σ ~ half-normal(0, 10):
     * coefficients with posterior sd ≈ 0.001 (posteriordb's reference: β ≈ 1.00 with MCSE 1e-5), log σ with sd
     * ≈ 0.07.
     */
    public static LinearModel badlyScaled(Rng rng) {
        int rows = 100;
        int k = 5;
        double[] beta = {1, 1, 1, 1, 1};
        double[] design = new double[rows * k];
        double[] out = new double[rows];
        for (int i = 0; i < rows; i++) {
            double common = rng.normal();
            double v = rng.normal();
            for (int j = 0; j < k; j++) {
                design[i * k + j] = 100 * (Math.sqrt(0.5) * common + Math.sqrt(0.5) * rng.normal());
                v += beta[j] * design[i * k + j];
            }
            out[i] = v;
        }
        return new LinearModel(design, out, List.of("beta[1]", "beta[2]", "beta[3]", "beta[4]", "beta[5]"), 10,
                10, true);
    }

    @Override
    public int dimension() {
        return p + 1;
    }

    @Override
    public double logDensity(double[] w) {
        return logDensityGradient(w, new double[p + 1]);
    }

    @Override
    public double logDensityGradient(double[] w, double[] g) {
        double logSigma = w[p];
        double sigma = Math.exp(logSigma);
        double precision = 1 / (sigma * sigma);
        double lp = 0;
        double rss = 0;
        for (int j = 0; j < p; j++) {
            lp -= 0.5 * w[j] * w[j] / (priorSd * priorSd);
            g[j] = -w[j] / (priorSd * priorSd);
        }
        for (int i = 0; i < n; i++) {
            double r = y[i];
            for (int j = 0; j < p; j++) {
                r -= x[i * p + j] * w[j];
            }
            rss += r * r;
            for (int j = 0; j < p; j++) {
                g[j] += x[i * p + j] * r * precision;
            }
        }
        double t = sigma / sigmaScale;
        g[p] = -n + rss * precision + 1 + (halfNormalSigma ? -t * t : -2 * t * t / (1 + t * t));
        return lp - n * logSigma - 0.5 * rss * precision + logSigmaPrior(t) + logSigma;
    }

    /** log p(σ) up to a constant, t = σ/c. */
    private double logSigmaPrior(double t) {
        return halfNormalSigma ? -0.5 * t * t : -Math.log1p(t * t);
    }

    @Override
    public List<String> parameterNames() {
        return names;
    }

    @Override
    public double[] parameters(double[] w) {
        double[] out = w.clone();
        out[p] = Math.exp(w[p]);
        return out;
    }

    /** {mean, sd} of each reported quantity (β, then σ), by quadrature over log σ (20,001 points on [−12, 8]). */
    public double[][] reference() {
        int grid = 20_001;
        double[] xtx = new double[p * p];
        double[] xty = new double[p];
        double yty = 0;
        for (int i = 0; i < n; i++) {
            for (int a = 0; a < p; a++) {
                xty[a] += x[i * p + a] * y[i];
                for (int b = 0; b < p; b++) {
                    xtx[a * p + b] += x[i * p + a] * x[i * p + b];
                }
            }
            yty += y[i] * y[i];
        }
        double[] logWeight = new double[grid];
        double[][] first = new double[grid][p + 1];
        double[][] second = new double[grid][p + 1];
        for (int g = 0; g < grid; g++) {
            double logSigma = -12 + 20.0 * g / (grid - 1);
            double s2 = Math.exp(2 * logSigma);
            double[] prec = new double[p * p];
            double[] b = new double[p];
            for (int a = 0; a < p * p; a++) {
                prec[a] = xtx[a] / s2;
            }
            for (int a = 0; a < p; a++) {
                prec[a * p + a] += 1 / (priorSd * priorSd);
                b[a] = xty[a] / s2;
            }
            double[] chol = Matrices.cholesky(prec, p);
            double[] m = Matrices.solve(chol, p, b);
            double logDet = Matrices.logDeterminant(chol, p);
            double mPm = 0;
            for (int a = 0; a < p; a++) {
                mPm += m[a] * b[a];
            }
            double t = Math.exp(logSigma) / sigmaScale;
            logWeight[g] = -n * logSigma - 0.5 * logDet - 0.5 * yty / s2 + 0.5 * mPm + logSigmaPrior(t) + logSigma;
            double[] cov = Matrices.inverse(chol, p);
            for (int a = 0; a < p; a++) {
                first[g][a] = m[a];
                second[g][a] = cov[a * p + a] + m[a] * m[a];
            }
            first[g][p] = Math.exp(logSigma);
            second[g][p] = s2;
        }
        return GridMoments.of(logWeight, first, second);
    }
}
