package org.sparkmc.core.smc.models;

import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.model.Matrices;
import org.sparkmc.core.smc.Observations;

/**
 * The exact Kalman filter (Kalman 1960) for a {@link LinearGaussianModel}: filtering means m_n and covariances
 * P_n of x_n | y_{0:n}, and the log-likelihood log p(y_{0:T−1}) by the prediction-error decomposition (Durbin
 * &amp; Koopman 2012, §4.3, §7.2). The prior is on x_0, the state of the first observation; a missing
 * observation (any NaN) skips the update.
 */
public final class KalmanFilter {
    private KalmanFilter() {
    }

    /** What the filter computed: per step means [n][d], covariances [n][d][d] and log-likelihood increments. */
    public record Result(double logLikelihood, double[][] means, double[][][] covariances, double[] increments) {
        /** Var(x_n[component] | y_{0:n}). */
        public double variance(int step, int component) {
            return covariances[step][component][component];
        }
    }

    public static Result run(LinearGaussianModel model, double[][] observations) {
        int t = observations.length;
        int d = model.stateDimension();
        int p = model.observationDimension();
        for (int n = 0; n < t; n++) {
            if (observations[n] != null && observations[n].length != p) {
                throw new InvalidInputException("observation at time step " + n + " has " + observations[n].length
                        + " values, the model expects " + p);
            }
        }
        double[][] f = model.transitionMatrix();
        double[][] q = model.transitionCovariance();
        double[][] h = model.observationMatrix();
        double[][] r = model.observationCovariance();
        double[][] ht = Matrices.transpose(h);
        double[][] ft = Matrices.transpose(f);
        double[] m = model.initialMean();
        double[][] cov = model.initialCovariance();
        double[][] means = new double[t][];
        double[][][] covs = new double[t][][];
        double[] increments = new double[t];
        double ll = 0;
        for (int n = 0; n < t; n++) {
            if (n > 0) {
                m = Matrices.multiply(f, m);
                cov = Matrices.symmetrise(Matrices.add(Matrices.multiply(Matrices.multiply(f, cov), ft), q));
            }
            double[] y = observations[n];
            if (!Observations.isMissing(y)) {
                double[] hm = Matrices.multiply(h, m);
                double[] v = new double[p];
                for (int i = 0; i < p; i++) {
                    v[i] = y[i] - hm[i];
                }
                double[][] pht = Matrices.multiply(cov, ht);
                double[][] s = Matrices.symmetrise(Matrices.add(Matrices.multiply(h, pht), r));
                double[][] ls = Matrices.cholesky(s);
                double[] sv = Matrices.solve(ls, v);
                double quad = 0;
                for (int i = 0; i < p; i++) {
                    quad += v[i] * sv[i];
                }
                increments[n] = -0.5 * (p * Math.log(2 * Math.PI) + Matrices.logDeterminant(ls) + quad);
                ll += increments[n];
                // K = P Hᵀ S⁻¹; m += K v; P −= K S Kᵀ = P Hᵀ S⁻¹ H P
                double[] gain = Matrices.multiply(pht, sv);
                double[] mNew = new double[d];
                for (int i = 0; i < d; i++) {
                    mNew[i] = m[i] + gain[i];
                }
                m = mNew;
                double[][] correction = new double[d][d];
                double[][] hp = Matrices.transpose(pht);
                for (int j = 0; j < d; j++) {
                    double[] col = Matrices.solve(ls, column(hp, j));
                    for (int i = 0; i < d; i++) {
                        double s2 = 0;
                        for (int k = 0; k < p; k++) {
                            s2 += pht[i][k] * col[k];
                        }
                        correction[i][j] = s2;
                    }
                }
                cov = Matrices.symmetrise(Matrices.subtract(cov, correction));
            }
            means[n] = m.clone();
            covs[n] = Matrices.copy(cov);
        }
        return new Result(ll, means, covs, increments);
    }

    private static double[] column(double[][] a, int j) {
        double[] c = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            c[i] = a[i][j];
        }
        return c;
    }
}
