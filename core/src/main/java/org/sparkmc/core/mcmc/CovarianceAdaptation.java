package org.sparkmc.core.mcmc;

import java.io.Serializable;
import java.util.Arrays;
import org.sparkmc.core.model.Matrices;

/**
 * The running mean and covariance of a chain's warm-up positions (Welford's update) and the Cholesky factor L of the
 * regularised covariance Σ̂ + εI: the state adaptive Metropolis (Haario, Saksman &amp; Tamminen 2001) learns its
 * proposal from. Before the first {@link #refresh} L is {@code initialScale}·I. A diagonal estimate keeps only the
 * variances (O(d) per update and proposal). Mutable, owned by one chain.
 */
public final class CovarianceAdaptation implements Serializable {
    private static final long serialVersionUID = 1L;
    /** A window may shrink a coordinate's variance to no less than this fraction of the last (its sd to 1/10). */
    private static final double MAX_SHRINK = 0.01;

    private final int d;
    private final boolean diagonal;
    private double n;
    private final double[] mean;
    /** Sum of outer products of deviations, row-major d × d. */
    private final double[] m2;
    /** Row-major lower Cholesky factor, d × d. */
    private final double[] chol;

    private CovarianceAdaptation(int d, boolean diagonal, double n, double[] mean, double[] m2, double[] chol) {
        this.d = d;
        this.diagonal = diagonal;
        this.n = n;
        this.mean = mean;
        this.m2 = m2;
        this.chol = chol;
    }

    /** No positions yet, L = initialScale·I; {@code diagonal}: variances only. */
    static CovarianceAdaptation initial(int d, double initialScale, boolean diagonal) {
        double[] l = new double[d * d];
        for (int i = 0; i < d; i++) {
            l[i * d + i] = initialScale;
        }
        return new CovarianceAdaptation(d, diagonal, 0, new double[d], new double[d * d], l);
    }

    /** Writes [n, mean, M2, L]. */
    void write(Packed out) {
        out.put(n).put(mean).put(m2).put(chol);
    }

    /** Reads what {@link #write} wrote, for dimension d. */
    static CovarianceAdaptation read(Packed in, int d, boolean diagonal) {
        return new CovarianceAdaptation(d, diagonal, in.next(), in.next(d), in.next(d * d), in.next(d * d));
    }

    double count() {
        return n;
    }

    /** Forgets the positions seen so far (a new adaptation window), keeping L. */
    void restart() {
        n = 0;
        Arrays.fill(mean, 0);
        Arrays.fill(m2, 0);
    }

    /** Adds a position to the running mean and sum of squared deviations (Welford 1962). */
    void update(double[] x) {
        n += 1;
        double[] delta = new double[d];
        for (int i = 0; i < d; i++) {
            delta[i] = x[i] - mean[i];
            mean[i] += delta[i] / n;
        }
        for (int i = 0; i < d; i++) {
            double after = x[i] - mean[i];
            if (diagonal) {
                m2[i * d + i] += delta[i] * after;
                continue;
            }
            for (int j = 0; j < d; j++) {
                m2[i * d + j] += delta[j] * after;
            }
        }
    }

    /**
     * Replaces L by the Cholesky factor of Σ̃ + εI, where Σ̃ is Σ̂ = M2/(n − 1) with its covariances shrunk by
     * n/(n + 5) toward its diagonal (Stan's regularisation weight, toward the diagonal rather than 10⁻³·I because
     * coordinates may differ in scale by orders of magnitude: a window in which the chain moved along one line would
     * otherwise give a rank-deficient proposal that never leaves that line), each variance at least 1% of what the
     * current L gives (a window in which the chain hardly moved in one coordinate would otherwise shrink that
     * coordinate's steps so much that it never moves again), and ε = 1e-6·(mean diagonal of Σ̂) + 1e-12 (Haario et
     * al.'s εI); a diagonal estimate ignores the covariances. Leaves L unchanged and returns false if that fails or
     * n &lt; 2.
     */
    boolean refresh() {
        if (n < 2) {
            return false;
        }
        double[] cov = new double[d * d];
        double trace = 0;
        for (int i = 0; i < d * d; i++) {
            cov[i] = m2[i] / (n - 1);
        }
        for (int i = 0; i < d; i++) {
            cov[i * d + i] = Math.max(cov[i * d + i], MAX_SHRINK * previousVariance(i));
            trace += cov[i * d + i];
        }
        double eps = 1e-6 * trace / d + 1e-12;
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < i; j++) {
                double sym = diagonal ? 0 : 0.5 * (cov[i * d + j] + cov[j * d + i]) * n / (n + 5);
                cov[i * d + j] = sym;
                cov[j * d + i] = sym;
            }
            cov[i * d + i] += eps;
        }
        double[] l = new double[d * d];
        if (Matrices.tryCholesky(cov, d, l)) {
            System.arraycopy(l, 0, chol, 0, d * d);
            return true;
        }
        return false;
    }

    /** (L·Lᵀ)_ii, the variance the current factor gives coordinate i. */
    private double previousVariance(int i) {
        double v = 0;
        for (int k = 0; k <= i; k++) {
            v += chol[i * d + k] * chol[i * d + k];
        }
        return v;
    }

    /** out = L·z. */
    void choleskyTimes(double[] z, double[] out) {
        if (diagonal) {
            for (int i = 0; i < d; i++) {
                out[i] = chol[i * d + i] * z[i];
            }
            return;
        }
        for (int i = 0; i < d; i++) {
            double s = 0;
            for (int k = 0; k <= i; k++) {
                s += chol[i * d + k] * z[k];
            }
            out[i] = s;
        }
    }

    /** L·Lᵀ·factor², row-major. */
    double[] covariance(double factor) {
        double[] cov = new double[d * d];
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                double s = 0;
                for (int k = 0; k <= Math.min(i, j); k++) {
                    s += chol[i * d + k] * chol[j * d + k];
                }
                cov[i * d + j] = factor * factor * s;
            }
        }
        return cov;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CovarianceAdaptation c && d == c.d && diagonal == c.diagonal && Double.compare(n, c.n) == 0
                && Arrays.equals(mean, c.mean) && Arrays.equals(m2, c.m2) && Arrays.equals(chol, c.chol);
    }

    @Override
    public int hashCode() {
        return Double.hashCode(n) * 31 + Arrays.hashCode(chol);
    }

    @Override
    public String toString() {
        return "CovarianceAdaptation[n=" + n + ", L=" + Arrays.toString(chol) + "]";
    }
}
