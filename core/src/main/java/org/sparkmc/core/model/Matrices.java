package org.sparkmc.core.model;

/**
 * Small dense linear algebra (d up to a few dozen; not for large matrices) in two layouts: row-major
 * {@code double[]} square matrices with their dimension d, which the kernels and conjugate models use in hot
 * loops, and {@code double[][]} matrices (rows), which the Kalman filter and linear-Gaussian state-space models
 * use for readability. Both layouts share one Cholesky factorisation and one pair of triangular solves: a
 * {@code double[][]} operation gives the same bits as its row-major counterpart.
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
        int pivot = factor(a, d, l);
        if (pivot >= 0) {
            throw new IllegalArgumentException("matrix is not positive definite (pivot " + pivot + ")");
        }
        return l;
    }

    /** Writes the Cholesky factor of A into {@code l}; false (l undefined) if A is not positive definite. */
    public static boolean tryCholesky(double[] a, int d, double[] l) {
        return factor(a, d, l) < 0;
    }

    /** The Cholesky–Banachiewicz factorisation into {@code l}: −1, or the first pivot that is not positive. */
    private static int factor(double[] a, int d, double[] l) {
        java.util.Arrays.fill(l, 0, d * d, 0);
        for (int i = 0; i < d; i++) {
            for (int j = 0; j <= i; j++) {
                double sum = a[i * d + j];
                for (int k = 0; k < j; k++) {
                    sum -= l[i * d + k] * l[j * d + k];
                }
                if (i == j) {
                    if (!(sum > 0) || !Double.isFinite(sum)) {
                        return i;
                    }
                    l[i * d + i] = Math.sqrt(sum);
                } else {
                    l[i * d + j] = sum / l[j * d + j];
                }
            }
        }
        return -1;
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

    // ---- double[][] (an array of rows) ----

    /** Lower-triangular L with L·Lᵀ = A, for symmetric positive-definite A (square). */
    public static double[][] cholesky(double[][] a) {
        return unflatten(cholesky(flatten(a), a.length), a.length);
    }

    /** Solves L·Lᵀ·x = b given the Cholesky factor L; returns a new vector. */
    public static double[] solve(double[][] l, double[] b) {
        return solve(flatten(l), l.length, b);
    }

    /** A⁻¹ for symmetric positive-definite A, symmetrised against rounding. */
    public static double[][] inverseSpd(double[][] a) {
        int d = a.length;
        return symmetrise(unflatten(inverse(cholesky(flatten(a), d), d), d));
    }

    /** log det A = 2 Σ log L_ii from a Cholesky factor. */
    public static double logDeterminant(double[][] l) {
        return logDeterminant(flatten(l), l.length);
    }

    /** A·B. */
    public static double[][] multiply(double[][] a, double[][] b) {
        int n = a.length;
        int k = b.length;
        int m = b[0].length;
        if (a[0].length != k) {
            throw new IllegalArgumentException("shapes " + n + "x" + a[0].length + " and " + k + "x" + m);
        }
        double[][] c = new double[n][m];
        for (int i = 0; i < n; i++) {
            for (int l = 0; l < k; l++) {
                double x = a[i][l];
                for (int j = 0; j < m; j++) {
                    c[i][j] += x * b[l][j];
                }
            }
        }
        return c;
    }

    /** A·v. */
    public static double[] multiply(double[][] a, double[] v) {
        double[] out = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            double s = 0;
            for (int j = 0; j < v.length; j++) {
                s += a[i][j] * v[j];
            }
            out[i] = s;
        }
        return out;
    }

    /** Aᵀ. */
    public static double[][] transpose(double[][] a) {
        double[][] t = new double[a[0].length][a.length];
        for (int i = 0; i < a.length; i++) {
            for (int j = 0; j < a[0].length; j++) {
                t[j][i] = a[i][j];
            }
        }
        return t;
    }

    /** A + B. */
    public static double[][] add(double[][] a, double[][] b) {
        return combine(a, b, 1);
    }

    /** A − B. */
    public static double[][] subtract(double[][] a, double[][] b) {
        return combine(a, b, -1);
    }

    private static double[][] combine(double[][] a, double[][] b, double sign) {
        double[][] c = new double[a.length][a[0].length];
        for (int i = 0; i < a.length; i++) {
            for (int j = 0; j < a[0].length; j++) {
                c[i][j] = a[i][j] + sign * b[i][j];
            }
        }
        return c;
    }

    /** (A + Aᵀ)/2, to keep covariances symmetric against rounding. */
    public static double[][] symmetrise(double[][] a) {
        double[][] c = new double[a.length][a.length];
        for (int i = 0; i < a.length; i++) {
            for (int j = 0; j < a.length; j++) {
                c[i][j] = 0.5 * (a[i][j] + a[j][i]);
            }
        }
        return c;
    }

    /** Deep copy. */
    public static double[][] copy(double[][] a) {
        double[][] c = new double[a.length][];
        for (int i = 0; i < a.length; i++) {
            c[i] = a[i].clone();
        }
        return c;
    }

    /** The rows of a square matrix, laid end to end (row-major). */
    private static double[] flatten(double[][] a) {
        int d = a.length;
        double[] flat = new double[d * d];
        for (int i = 0; i < d; i++) {
            if (a[i].length != d) {
                throw new IllegalArgumentException("not a square matrix: row " + i + " has " + a[i].length
                    + " entries, expected " + d);
            }
            System.arraycopy(a[i], 0, flat, i * d, d);
        }
        return flat;
    }

    private static double[][] unflatten(double[] flat, int d) {
        double[][] a = new double[d][];
        for (int i = 0; i < d; i++) {
            a[i] = java.util.Arrays.copyOfRange(flat, i * d, i * d + d);
        }
        return a;
    }
}
