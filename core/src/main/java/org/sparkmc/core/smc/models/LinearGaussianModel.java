package org.sparkmc.core.smc.models;

import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.model.Matrices;
import org.sparkmc.core.random.Rng;
import org.sparkmc.core.smc.GuidedProposal;
import org.sparkmc.core.smc.StateSpaceModel;

/**
 * The linear-Gaussian state-space model x_0 ~ N(m_0, P_0), x_n = F x_{n−1} + η_n with η_n ~ N(0, Q), y_n = H x_n +
 * ε_n with ε_n ~ N(0, R): the model the {@link KalmanFilter} solves exactly, used to check particle filters.
 * Gaussian draws use the Cholesky factors of Q, R and P_0.
 */
public final class LinearGaussianModel implements StateSpaceModel {
    private static final long serialVersionUID = 1L;
    private static final double LOG_2PI = Math.log(2 * Math.PI);

    private final double[][] f;
    private final double[][] q;
    private final double[][] h;
    private final double[][] r;
    private final double[] m0;
    private final double[][] p0;
    private final double[][] lq;
    private final double[][] lr;
    private final double[][] lp0;
    private final double logDetQ;
    private final double logDetR;
    private final double logDetP0;

    /** Checks shapes and that Q, R and P_0 are positive definite. */
    public LinearGaussianModel(double[][] f, double[][] q, double[][] h, double[][] r, double[] m0, double[][] p0) {
        int d = f.length; // the state's dimension is F's (m0 is checked against it, not F against m0)
        int p = h.length;
        if (m0.length != d) {
            throw new InvalidInputException("m0 has " + m0.length + (m0.length == 1 ? " entry" : " entries")
                    + ", expected " + d + " (F is " + d + "×" + d + ")");
        }
        check(f, d, d, "F");
        check(q, d, d, "Q");
        check(h, p, d, "H");
        check(r, p, p, "R");
        check(p0, d, d, "P0");
        this.f = Matrices.copy(f);
        this.q = Matrices.copy(q);
        this.h = Matrices.copy(h);
        this.r = Matrices.copy(r);
        this.m0 = m0.clone();
        this.p0 = Matrices.copy(p0);
        this.lq = positiveDefinite(q, "Q");
        this.lr = positiveDefinite(r, "R");
        this.lp0 = positiveDefinite(p0, "P0");
        this.logDetQ = Matrices.logDeterminant(lq);
        this.logDetR = Matrices.logDeterminant(lr);
        this.logDetP0 = Matrices.logDeterminant(lp0);
    }

    /** The Cholesky factor of {@code a}; bad input naming the matrix when it is not positive definite. */
    private static double[][] positiveDefinite(double[][] a, String name) {
        try {
            return Matrices.cholesky(a);
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("linear-Gaussian model: " + name + " must be positive definite: "
                    + e.getMessage(), e);
        }
    }

    private static void check(double[][] a, int rows, int cols, String name) {
        if (a.length != rows) {
            throw new InvalidInputException(name + " has " + a.length + " rows, expected " + rows);
        }
        for (double[] row : a) {
            if (row.length != cols) {
                throw new InvalidInputException(name + " has a row of " + row.length + " columns, expected " + cols);
            }
            for (double x : row) {
                if (!Double.isFinite(x)) {
                    throw new InvalidInputException(name + " has a non-finite entry " + x);
                }
            }
        }
    }

    @Override
    public int stateDimension() {
        return m0.length;
    }

    @Override
    public int observationDimension() {
        return h.length;
    }

    @Override
    public void sampleInitial(double[] states, int from, int to, Rng rng) {
        int d = m0.length;
        double[] z = new double[d];
        for (int i = from; i < to; i++) {
            for (int k = 0; k < d; k++) {
                z[k] = rng.normal();
            }
            for (int a = 0; a < d; a++) {
                double s = m0[a];
                for (int k = 0; k <= a; k++) {
                    s += lp0[a][k] * z[k];
                }
                states[i * d + a] = s;
            }
        }
    }

    @Override
    public void sampleTransition(int step, double[] states, int from, int to, Rng rng) {
        int d = m0.length;
        double[] z = new double[d];
        double[] prev = new double[d];
        for (int i = from; i < to; i++) {
            System.arraycopy(states, i * d, prev, 0, d);
            for (int k = 0; k < d; k++) {
                z[k] = rng.normal();
            }
            for (int a = 0; a < d; a++) {
                double s = 0;
                for (int k = 0; k < d; k++) {
                    s += f[a][k] * prev[k];
                }
                for (int k = 0; k <= a; k++) {
                    s += lq[a][k] * z[k];
                }
                states[i * d + a] = s;
            }
        }
    }

    @Override
    public void logObservationDensity(int step, double[] y, double[] states, int from, int to, double[] out) {
        int d = m0.length;
        int p = h.length;
        double[] resid = new double[p];
        for (int i = from; i < to; i++) {
            for (int a = 0; a < p; a++) {
                double s = y[a];
                for (int k = 0; k < d; k++) {
                    s -= h[a][k] * states[i * d + k];
                }
                resid[a] = s;
            }
            out[i - from] = gaussianLogDensity(lr, logDetR, resid);
        }
    }

    @Override
    public void logInitialDensity(double[] states, int from, int to, double[] out) {
        int d = m0.length;
        double[] dev = new double[d];
        for (int i = from; i < to; i++) {
            for (int a = 0; a < d; a++) {
                dev[a] = states[i * d + a] - m0[a];
            }
            out[i - from] = gaussianLogDensity(lp0, logDetP0, dev);
        }
    }

    @Override
    public void logTransitionDensity(int step, double[] previous, double[] states, int from, int to,
            double[] out) {
        int d = m0.length;
        double[] dev = new double[d];
        for (int i = from; i < to; i++) {
            int pb = (i - from) * d;
            for (int a = 0; a < d; a++) {
                double s = states[i * d + a];
                for (int k = 0; k < d; k++) {
                    s -= f[a][k] * previous[pb + k];
                }
                dev[a] = s;
            }
            out[i - from] = gaussianLogDensity(lq, logDetQ, dev);
        }
    }

    /**
     * log N(dev; 0, L Lᵀ) = −½(k log 2π + log det + |L⁻¹ dev|²); overwrites dev with L⁻¹ dev.
     */
    static double gaussianLogDensity(double[][] l, double logDet, double[] dev) {
        int k = dev.length;
        double quad = 0;
        for (int i = 0; i < k; i++) {
            double s = dev[i];
            for (int j = 0; j < i; j++) {
                s -= l[i][j] * dev[j];
            }
            s /= l[i][i];
            dev[i] = s;
            quad += s * s;
        }
        return -0.5 * (k * LOG_2PI + logDet + quad);
    }

    /**
     * The locally optimal proposal q(x_n | x_{n−1}, y_n) ∝ f(x_n | x_{n−1}) g(y_n | x_n) (Doucet, Godsill &amp;
     * Andrieu 2000): Gaussian with covariance Σ = (Q⁻¹ + HᵀR⁻¹H)⁻¹ and mean Σ(Q⁻¹F x_{n−1} + HᵀR⁻¹ y_n); at step 0,
     * P_0 and m_0 in place of Q and F x_{n−1}.
     */
    public GuidedProposal optimalProposal() {
        return new OptimalProposal(this);
    }

    private static final class OptimalProposal implements GuidedProposal {
        private static final long serialVersionUID = 1L;
        private final int d;
        private final double[][] meanFromPrevious; // Σ Q⁻¹ F
        private final double[][] meanFromY; // Σ Hᵀ R⁻¹
        private final double[][] lSigma;
        private final double logDetSigma;
        private final double[] mean0Prior; // Σ0 P0⁻¹ m0
        private final double[][] meanFromY0; // Σ0 Hᵀ R⁻¹
        private final double[][] lSigma0;
        private final double logDetSigma0;

        OptimalProposal(LinearGaussianModel m) {
            d = m.m0.length;
            double[][] ht = Matrices.transpose(m.h);
            double[][] rinv = Matrices.inverseSpd(m.r);
            double[][] htRinv = Matrices.multiply(ht, rinv);
            double[][] info = Matrices.multiply(htRinv, m.h);
            double[][] qinv = Matrices.inverseSpd(m.q);
            double[][] sigma = Matrices.inverseSpd(Matrices.add(qinv, info));
            meanFromPrevious = Matrices.multiply(Matrices.multiply(sigma, qinv), m.f);
            meanFromY = Matrices.multiply(sigma, htRinv);
            lSigma = Matrices.cholesky(sigma);
            logDetSigma = Matrices.logDeterminant(lSigma);
            double[][] p0inv = Matrices.inverseSpd(m.p0);
            double[][] sigma0 = Matrices.inverseSpd(Matrices.add(p0inv, info));
            mean0Prior = Matrices.multiply(Matrices.multiply(sigma0, p0inv), m.m0);
            meanFromY0 = Matrices.multiply(sigma0, htRinv);
            lSigma0 = Matrices.cholesky(sigma0);
            logDetSigma0 = Matrices.logDeterminant(lSigma0);
        }

        @Override
        public void sampleInitial(double[] y, double[] states, int from, int to, Rng rng, double[] logDensity) {
            double[] mean = Matrices.multiply(meanFromY0, y);
            for (int a = 0; a < d; a++) {
                mean[a] += mean0Prior[a];
            }
            draw(mean, null, null, 0, y, states, from, to, rng, logDensity, lSigma0, logDetSigma0);
        }

        @Override
        public void sample(int step, double[] y, double[] previous, double[] states, int from, int to, Rng rng,
                double[] logDensity) {
            double[] fromY = Matrices.multiply(meanFromY, y);
            draw(fromY, meanFromPrevious, previous, from, y, states, from, to, rng, logDensity, lSigma,
                    logDetSigma);
        }

        private void draw(double[] base, double[][] a, double[] previous, int prevFrom, double[] y,
                double[] states, int from, int to, Rng rng, double[] logDensity, double[][] l, double logDet) {
            double[] z = new double[d];
            for (int i = from; i < to; i++) {
                for (int k = 0; k < d; k++) {
                    z[k] = rng.normal();
                }
                double quad = 0;
                for (int r = 0; r < d; r++) {
                    double s = base[r];
                    if (a != null) {
                        int pb = (i - prevFrom) * d;
                        for (int k = 0; k < d; k++) {
                            s += a[r][k] * previous[pb + k];
                        }
                    }
                    for (int k = 0; k <= r; k++) {
                        s += l[r][k] * z[k];
                    }
                    states[i * d + r] = s;
                    quad += z[r] * z[r];
                }
                logDensity[i - from] = -0.5 * (d * LOG_2PI + logDet + quad);
            }
        }
    }

    public double[][] transitionMatrix() {
        return Matrices.copy(f);
    }

    public double[][] transitionCovariance() {
        return Matrices.copy(q);
    }

    public double[][] observationMatrix() {
        return Matrices.copy(h);
    }

    public double[][] observationCovariance() {
        return Matrices.copy(r);
    }

    public double[] initialMean() {
        return m0.clone();
    }

    public double[][] initialCovariance() {
        return Matrices.copy(p0);
    }
}
