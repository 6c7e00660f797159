package org.sparkmc.core.model;

import java.util.List;
import org.sparkmc.core.InvalidInputException;

/**
 * posteriordb's {@code kidiq-kidscore_momiq} (Gelman &amp; Hill 2007, ch. 3): kid_score_i ~ N(β₁ + β₂·mom_iq_i, σ²),
 * flat priors on β, σ ~ half-Cauchy(0, 2.5) (the Stan program's {@code sigma ~ cauchy(0, 2.5)} on
 * {@code real<lower=0>}). Position (β₁, β₂, log σ); the log density includes the Jacobian log σ. The likelihood is
 * computed from the sufficient statistics (n, Σx, Σx², Σy, Σxy, Σy²), exactly equal to the sum over points.
 * Reports {@code beta[1]}, {@code beta[2]}, {@code sigma}. Data: {@code N}, {@code kid_score}, {@code mom_iq}.
 * Analytic gradient for NUTS.
 */
public final class KidscoreMomiq implements GradientTarget {
    private static final long serialVersionUID = 1L;

    private final double n;
    private final double sx;
    private final double sxx;
    private final double sy;
    private final double sxy;
    private final double syy;

    public KidscoreMomiq(ModelParameters data) {
        this(data.source(), data.getDoubleArray("mom_iq"), data.getDoubleArray("kid_score"));
        if (data.has("N") && data.getInt("N") != n) {
            throw new InvalidInputException(data.where("N") + ": N = " + data.getInt("N") + " but kid_score has "
                    + (int) n + " values");
        }
    }

    public KidscoreMomiq(double[] momIq, double[] kidScore) {
        this("kidscore_momiq", momIq, kidScore);
    }

    /** {@code where} names the data in error messages: its file, or the model. */
    private KidscoreMomiq(String where, double[] momIq, double[] kidScore) {
        if (momIq.length == 0 || momIq.length != kidScore.length) {
            throw new InvalidInputException(where + ": mom_iq and kid_score need the same non-zero length, have "
                    + momIq.length + " and " + kidScore.length);
        }
        double a = 0;
        double b = 0;
        double c = 0;
        double e = 0;
        double f = 0;
        for (int i = 0; i < momIq.length; i++) {
            a += momIq[i];
            b += momIq[i] * momIq[i];
            c += kidScore[i];
            e += momIq[i] * kidScore[i];
            f += kidScore[i] * kidScore[i];
        }
        n = momIq.length;
        sx = a;
        sxx = b;
        sy = c;
        sxy = e;
        syy = f;
    }

    @Override
    public int dimension() {
        return 3;
    }

    @Override
    public double logDensity(double[] x) {
        double b1 = x[0];
        double b2 = x[1];
        double logSigma = x[2];
        double sigma = Math.exp(logSigma);
        // Σ (y − b1 − b2 x)² expanded in the sufficient statistics.
        double rss = syy - 2 * b1 * sy - 2 * b2 * sxy + n * b1 * b1 + 2 * b1 * b2 * sx + b2 * b2 * sxx;
        double t = sigma / 2.5;
        return -n * logSigma - 0.5 * rss / (sigma * sigma) - Math.log1p(t * t) + logSigma;
    }

    /**
     * ∂/∂β_k = −½·(∂RSS/∂β_k)/σ², ∂RSS/∂β₁ = 2(nβ₁ + β₂Σx − Σy), ∂RSS/∂β₂ = 2(β₁Σx + β₂Σx² − Σxy);
     * ∂/∂log σ = −n + RSS/σ² − 2t²/(1 + t²) + 1 with t = σ/2.5.
     */
    @Override
    public double logDensityGradient(double[] x, double[] gradient) {
        double b1 = x[0];
        double b2 = x[1];
        double logSigma = x[2];
        double sigma = Math.exp(logSigma);
        double rss = syy - 2 * b1 * sy - 2 * b2 * sxy + n * b1 * b1 + 2 * b1 * b2 * sx + b2 * b2 * sxx;
        double precision = 1 / (sigma * sigma);
        double t = sigma / 2.5;
        double t2 = t * t;
        gradient[0] = -(n * b1 + b2 * sx - sy) * precision;
        gradient[1] = -(b1 * sx + b2 * sxx - sxy) * precision;
        gradient[2] = -n + rss * precision - 2 * t2 / (1 + t2) + 1;
        return -n * logSigma - 0.5 * rss / (sigma * sigma) - Math.log1p(t2) + logSigma;
    }

    @Override
    public List<String> parameterNames() {
        return List.of("beta[1]", "beta[2]", "sigma");
    }

    @Override
    public double[] parameters(double[] x) {
        return new double[] {x[0], x[1], Math.exp(x[2])};
    }
}
