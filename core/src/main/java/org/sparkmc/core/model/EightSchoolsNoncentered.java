package org.sparkmc.core.model;

import java.util.ArrayList;
import java.util.List;
import org.sparkmc.core.InvalidInputException;

/**
 * posteriordb's {@code eight_schools_noncentered}: y_j ~ N(μ + τ·η_j, σ_j²), η_j ~ N(0, 1), μ ~ N(0, 5²),
 * τ ~ half-Cauchy(0, 5).
 *
 * <p>Position (η_1…η_J, μ, log τ); the log density includes the Jacobian log τ of τ = exp(log τ). Reports
 * θ_j = μ + τ·η_j, μ and τ, as posteriordb's reference summary does. Data: {@code J}, {@code y}, {@code sigma}; any
 * number J of groups (a 100-school data set gives a 102-dimensional posterior). Analytic gradient for NUTS.
 */
public final class EightSchoolsNoncentered implements GradientTarget {
    private static final long serialVersionUID = 1L;

    private final double[] y;
    private final double[] sigma;

    public EightSchoolsNoncentered(ModelParameters data) {
        this(data.source(), data.getDoubleArray("y"), data.getDoubleArrayAbove("sigma", 0));
        if (data.has("J") && data.getInt("J") != y.length) {
            throw new InvalidInputException(data.where("J") + ": J = " + data.getInt("J") + " but y has " + y.length
                    + " values");
        }
    }

    public EightSchoolsNoncentered(double[] y, double[] sigma) {
        this("eight_schools", y, sigma);
    }

    /** {@code where} names the data in error messages: its file, or the model. */
    private EightSchoolsNoncentered(String where, double[] y, double[] sigma) {
        if (y.length == 0 || y.length != sigma.length) {
            throw new InvalidInputException(where + ": y and sigma need the same non-zero length, have "
                    + y.length + " and " + sigma.length);
        }
        for (int j = 0; j < sigma.length; j++) {
            if (!(sigma[j] > 0)) {
                throw new InvalidInputException(where + ": sigma[" + (j + 1) + "] must be > 0, is " + sigma[j]);
            }
        }
        this.y = y.clone();
        this.sigma = sigma.clone();
    }

    @Override
    public int dimension() {
        return y.length + 2;
    }

    @Override
    public double logDensity(double[] x) {
        int n = y.length;
        double mu = x[n];
        double logTau = x[n + 1];
        double tau = Math.exp(logTau);
        double lp = 0;
        for (int j = 0; j < n; j++) {
            double eta = x[j];
            double r = (y[j] - (mu + tau * eta)) / sigma[j];
            lp -= 0.5 * (eta * eta + r * r);
        }
        double m = mu / 5;
        double t = tau / 5;
        return lp - 0.5 * m * m - Math.log1p(t * t) + logTau;
    }

    /**
     * With r_j = (y_j − μ − τη_j)/σ_j: ∂/∂η_j = −η_j + τr_j/σ_j, ∂/∂μ = Σ r_j/σ_j − μ/25,
     * ∂/∂log τ = Σ τη_j r_j/σ_j − 2t²/(1 + t²) + 1 with t = τ/5.
     */
    @Override
    public double logDensityGradient(double[] x, double[] gradient) {
        int n = y.length;
        double mu = x[n];
        double logTau = x[n + 1];
        double tau = Math.exp(logTau);
        double lp = 0;
        double dMu = 0;
        double dLogTau = 0;
        for (int j = 0; j < n; j++) {
            double eta = x[j];
            double r = (y[j] - (mu + tau * eta)) / sigma[j];
            lp -= 0.5 * (eta * eta + r * r);
            double rs = r / sigma[j];
            gradient[j] = -eta + tau * rs;
            dMu += rs;
            dLogTau += tau * eta * rs;
        }
        double m = mu / 5;
        double t = tau / 5;
        double t2 = t * t;
        gradient[n] = dMu - mu / 25;
        gradient[n + 1] = dLogTau - 2 * t2 / (1 + t2) + 1;
        return lp - 0.5 * m * m - Math.log1p(t2) + logTau;
    }

    @Override
    public List<String> parameterNames() {
        List<String> names = new ArrayList<>();
        for (int j = 1; j <= y.length; j++) {
            names.add("theta[" + j + "]");
        }
        names.add("mu");
        names.add("tau");
        return names;
    }

    @Override
    public double[] parameters(double[] x) {
        int n = y.length;
        double mu = x[n];
        double tau = Math.exp(x[n + 1]);
        double[] out = new double[n + 2];
        for (int j = 0; j < n; j++) {
            out[j] = mu + tau * x[j];
        }
        out[n] = mu;
        out[n + 1] = tau;
        return out;
    }
}
