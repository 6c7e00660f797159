package org.sparkmc.core.testing;

/**
 * The exact posterior moments of the eight-schools model (y_j ~ N(θ_j, σ_j²), θ_j ~ N(μ, τ²), μ ~ N(0, 5²),
 * τ ~ half-Cauchy(0, 5)) for any number of groups, by one-dimensional quadrature over log τ (BDA3 §5.4): given τ,
 * μ | τ, y is normal and θ_j | τ, y is normal with closed-form moments; p(τ | y) is known up to a constant. The
 * grid (20,001 points over log τ ∈ [−14, 6]) makes the quadrature error far below any Monte Carlo error.
 */
public final class HierarchicalNormalReference {
    private final double[] mean;
    private final double[] sd;

    private HierarchicalNormalReference(double[] mean, double[] sd) {
        this.mean = mean;
        this.sd = sd;
    }

    /** Means and sds of θ_1 … θ_J, μ, τ (the model's reported order). */
    public static HierarchicalNormalReference of(double[] y, double[] sigma) {
        int j = y.length;
        int grid = 20_001;
        double lo = -14;
        double hi = 6;
        double[] logWeight = new double[grid];
        double[][] first = new double[grid][];
        double[][] second = new double[grid][];
        for (int g = 0; g < grid; g++) {
            double logTau = lo + (hi - lo) * g / (grid - 1);
            double tau = Math.exp(logTau);
            double precision = 1.0 / 25;
            double weighted = 0;
            double logLik = 0;
            for (int k = 0; k < j; k++) {
                double v = tau * tau + sigma[k] * sigma[k];
                precision += 1 / v;
                weighted += y[k] / v;
                logLik += -0.5 * Math.log(v) - 0.5 * y[k] * y[k] / v;
            }
            double m = weighted / precision;
            // p(log τ | y) ∝ half-Cauchy(τ)·τ · ∫ N(μ | 0, 25) Π N(y_j | μ, τ² + σ_j²) dμ
            double t = tau / 5;
            logWeight[g] = logLik - 0.5 * Math.log(precision) + 0.5 * m * m * precision - Math.log1p(t * t) + logTau;
            double varMu = 1 / precision;
            double[] e = new double[j + 2];
            double[] e2 = new double[j + 2];
            for (int k = 0; k < j; k++) {
                double a = 1 / (sigma[k] * sigma[k]);
                double b = 1 / (tau * tau);
                double w = b / (a + b);
                double condMean = (a * y[k] + b * m) / (a + b);
                double condVar = 1 / (a + b) + w * w * varMu;
                e[k] = condMean;
                e2[k] = condVar + condMean * condMean;
            }
            e[j] = m;
            e2[j] = varMu + m * m;
            e[j + 1] = tau;
            e2[j + 1] = tau * tau;
            first[g] = e;
            second[g] = e2;
        }
        double[][] moments = GridMoments.of(logWeight, first, second);
        double[] mean = new double[j + 2];
        double[] sd = new double[j + 2];
        for (int k = 0; k < j + 2; k++) {
            mean[k] = moments[k][0];
            sd[k] = moments[k][1];
        }
        return new HierarchicalNormalReference(mean, sd);
    }

    public double mean(int k) {
        return mean[k];
    }

    public double sd(int k) {
        return sd[k];
    }

    public int size() {
        return mean.length;
    }
}
