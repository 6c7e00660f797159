package org.sparkmc.core.model;

/**
 * Small dense linear algebra on row-major {@code double[]} square matrices (d × d, d up to a few dozen): the
 * Cholesky factorisation and what the kernels and conjugate models build on it. Not for large matrices.
 */
public final class Matrices {
    private Matrices() {
    }

    /**
     * The lower-triangular Cholesky factor L of a symmetric positive-definite matrix A = L·Lᵀ (row-major d × d).
     *
     * @throws IllegalArgumentException if A is not (numerically) positive definite
     */
    public static double[] cholesky(double[] a, int d) {
        double[] l = new double[d * d];
        if (!tryCholesky(a, d, l)) {
            throw new IllegalArgumentException("matrix is not positive definite");
        }
        return l;
    }

    /** Writes the Cholesky factor of A into {@code l}; false (l undefined) if A is not positive definite. */
    public static boolean tryCholesky(double[] a, int d, double[] l) {
        java.util.Arrays.fill(l, 0, d * d, 0);
        for (int i = 0; i < d; i++) {
            for (int j = 0; j <= i; j++) {
                double sum = a[i * d + j];
                for (int k = 0; k < j; k++) {
                    sum -= l[i * d + k] * l[j * d + k];
                }
                if (i == j) {
                    if (!(sum > 0) || !Double.isFinite(sum)) {
                        return false;
                    }
                    l[i * d + i] = Math.sqrt(sum);
                } else {
                    l[i * d + j] = sum / l[j * d + j];
                }
            }
        }
        return true;
    }

    /** log det A from its Cholesky factor: 2 Σ log L_ii. */
    public static double logDeterminant(double[] l, int d) {
        double s = 0;
        for (int i = 0; i < d; i++) {
            s += Math.log(l[i * d + i]);
        }
        return 2 * s;
    }

    /** out = L·z for lower-triangular L. */
    public static void lowerTimes(double[] l, int d, double[] z, double[] out) {
        for (int i = d - 1; i >= 0; i--) {
            double s = 0;
            for (int k = 0; k <= i; k++) {
                s += l[i * d + k] * z[k];
            }
            out[i] = s;
        }
    }

    /** Solves L·y = b (forward substitution) in place of b. */
    public static void forwardSolve(double[] l, int d, double[] b) {
        for (int i = 0; i < d; i++) {
            double s = b[i];
            for (int k = 0; k < i; k++) {
                s -= l[i * d + k] * b[k];
            }
            b[i] = s / l[i * d + i];
        }
    }

    /** Solves Lᵀ·x = b (back substitution) in place of b. */
    public static void backSolve(double[] l, int d, double[] b) {
        for (int i = d - 1; i >= 0; i--) {
            double s = b[i];
            for (int k = i + 1; k < d; k++) {
                s -= l[k * d + i] * b[k];
            }
            b[i] = s / l[i * d + i];
        }
    }

    /** Solves A·x = b given the Cholesky factor L of A; returns a new vector. */
    public static double[] solve(double[] l, int d, double[] b) {
        double[] x = b.clone();
        forwardSolve(l, d, x);
        backSolve(l, d, x);
        return x;
    }

    /** A⁻¹ from the Cholesky factor L of A. */
    public static double[] inverse(double[] l, int d) {
        double[] inv = new double[d * d];
        double[] e = new double[d];
        for (int j = 0; j < d; j++) {
            java.util.Arrays.fill(e, 0);
            e[j] = 1;
            double[] col = solve(l, d, e);
            for (int i = 0; i < d; i++) {
                inv[i * d + j] = col[i];
            }
        }
        return inv;
    }

    /** The quadratic form (x − m)ᵀ A⁻¹ (x − m) from the Cholesky factor L of A. */
    public static double mahalanobis(double[] l, int d, double[] x, double[] m) {
        double[] r = new double[d];
        for (int i = 0; i < d; i++) {
            r[i] = x[i] - m[i];
        }
        forwardSolve(l, d, r);
        double s = 0;
        for (double v : r) {
            s += v * v;
        }
        return s;
    }

    /** The d × d identity times c. */
    public static double[] identity(int d, double c) {
        double[] a = new double[d * d];
        for (int i = 0; i < d; i++) {
            a[i * d + i] = c;
        }
        return a;
    }
}
