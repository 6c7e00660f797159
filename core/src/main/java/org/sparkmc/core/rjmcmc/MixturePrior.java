package org.sparkmc.core.rjmcmc;

import java.io.Serializable;
import java.util.Arrays;
import org.sparkmc.core.InvalidInputException;

/**
 * The hierarchical prior of Richardson &amp; Green (1997, §2.2) for a univariate normal mixture with k components:
 * k ~ p(k) on 1..kmax; w ~ Dirichlet(δ, …, δ); μ_j ~ N(ξ, κ⁻¹) independently, restricted to μ_1 &lt; … &lt; μ_k;
 * σ_j⁻² ~ Gamma(α, β) (rate β) independently; β ~ Gamma(g, h) (rate h).
 *
 * @param logPriorK log p(k) for k = 1..kmax (index k − 1), normalised or not: no NaN nor +∞, not all −∞
 */
public record MixturePrior(double xi, double kappa, double alpha, double g, double h, double delta, int kmax,
        double[] logPriorK) implements Serializable {

    public MixturePrior {
        Checks.positive("mixture prior", "kappa", kappa);
        Checks.positive("mixture prior", "alpha", alpha);
        Checks.positive("mixture prior", "g", g);
        Checks.positive("mixture prior", "h", h);
        Checks.positive("mixture prior", "delta", delta);
        if (!Double.isFinite(xi)) {
            throw new InvalidInputException("mixture prior: xi must be finite, is " + xi);
        }
        if (kmax < 1 || logPriorK.length != kmax) {
            throw new InvalidInputException("mixture prior: kmax must be ≥ 1 with one log p(k) per k, have kmax "
                    + kmax + " and " + logPriorK.length + " values");
        }
        logPriorK = logPriorK.clone();
        boolean mass = false;
        for (int j = 0; j < kmax; j++) {
            double v = logPriorK[j];
            if (Double.isNaN(v) || v == Double.POSITIVE_INFINITY) {
                throw new InvalidInputException("mixture prior: log p(k) must be a number below +Infinity, is " + v
                        + " for k = " + (j + 1));
            }
            mass |= v > Double.NEGATIVE_INFINITY;
        }
        if (!mass) {
            throw new InvalidInputException("mixture prior: every log p(k) is -Infinity (k = 1.." + kmax
                    + "): p(k) puts no mass on any k");
        }
    }

    /**
     * Richardson &amp; Green's "weakly informative" choice for data y: ξ = midrange, κ = 1/R², α = 2, g = 0.2,
     * h = 10/R² (R the range), δ = 1, and k uniform on 1..kmax (they use kmax = 30).
     */
    public static MixturePrior richardsonGreen(double[] y, int kmax) {
        if (y.length < 2) {
            throw new InvalidInputException("mixture prior: the data-based prior needs at least 2 observations, have "
                    + y.length);
        }
        double min = Arrays.stream(y).min().getAsDouble();
        double max = Arrays.stream(y).max().getAsDouble();
        double range = max - min;
        if (!(range > 0)) {
            throw new InvalidInputException("mixture prior: the data have zero range");
        }
        return new MixturePrior(0.5 * (min + max), 1 / (range * range), 2, 0.2, 10 / (range * range), 1, kmax,
                new double[kmax]);
    }

    /** The same prior with another p(k). */
    public MixturePrior withLogPriorK(double[] logPrior) {
        return new MixturePrior(xi, kappa, alpha, g, h, delta, logPrior.length, logPrior);
    }

    @Override
    public double[] logPriorK() {
        return logPriorK.clone();
    }

    double logPriorK(int k) {
        return logPriorK[k - 1];
    }


    @Override
    public boolean equals(Object o) {
        return o instanceof MixturePrior p && xi == p.xi && kappa == p.kappa && alpha == p.alpha && g == p.g
                && h == p.h && delta == p.delta && kmax == p.kmax && Arrays.equals(logPriorK, p.logPriorK);
    }

    @Override
    public int hashCode() {
        return Double.hashCode(xi) * 31 + Arrays.hashCode(logPriorK);
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT,
                "MixturePrior[ξ=%.6g, κ=%.6g, α=%.6g, g=%.6g, h=%.6g, δ=%.6g, kmax=%d]", xi, kappa, alpha, g, h,
                delta, kmax);
    }
}
