package org.sparkmc.core.smc.models;

/**
 * Small dense matrix helpers (row-major double[][]) for Kalman filters and Gaussian models of a few dimensions:
 * products, transposes, Cholesky factors and solves. Not tuned for large matrices.
 */
public final class Matrices {
    private Matrices() {
    }

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

    public static double[][] transpose(double[][] a) {
        double[][] t = new double[a[0].length][a.length];
        for (int i = 0; i < a.length; i++) {
            for (int j = 0; j < a[0].length; j++) {
                t[j][i] = a[i][j];
            }
        }
        return t;
    }

    public static double[][] add(double[][] a, double[][] b) {
        double[][] c = new double[a.length][a[0].length];
        for (int i = 0; i < a.length; i++) {
            for (int j = 0; j < a[0].length; j++) {
                c[i][j] = a[i][j] + b[i][j];
            }
        }
        return c;
    }

    public static double[][] subtract(double[][] a, double[][] b) {
        double[][] c = new double[a.length][a[0].length];
        for (int i = 0; i < a.length; i++) {
            for (int j = 0; j < a[0].length; j++) {
                c[i][j] = a[i][j] - b[i][j];
            }
        }
        return c;
    }

    public static double[][] identity(int n) {
        double[][] c = new double[n][n];
        for (int i = 0; i < n; i++) {
            c[i][i] = 1;
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

    /** Lower-triangular L with L Lᵀ = A, for symmetric positive definite A. */
    public static double[][] cholesky(double[][] a) {
        int n = a.length;
        double[][] l = new double[n][n];
        for (int i = 0; i < n; i++) {
            if (a[i].length != n) {
                throw new IllegalArgumentException("not a square matrix");
            }
            for (int j = 0; j <= i; j++) {
                double s = a[i][j];
                for (int k = 0; k < j; k++) {
                    s -= l[i][k] * l[j][k];
                }
                if (i == j) {
                    if (!(s > 0)) {
                        throw new IllegalArgumentException("matrix is not positive definite (pivot " + i + " = " + s
                                + ")");
                    }
                    l[i][i] = Math.sqrt(s);
                } else {
                    l[i][j] = s / l[j][j];
                }
            }
        }
        return l;
    }

    /** Solves L Lᵀ x = b given the Cholesky factor L. */
    public static double[] choleskySolve(double[][] l, double[] b) {
        int n = l.length;
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            double s = b[i];
            for (int k = 0; k < i; k++) {
                s -= l[i][k] * y[k];
            }
            y[i] = s / l[i][i];
        }
        double[] x = new double[n];
        for (int i = n - 1; i >= 0; i--) {
            double s = y[i];
            for (int k = i + 1; k < n; k++) {
                s -= l[k][i] * x[k];
            }
            x[i] = s / l[i][i];
        }
        return x;
    }

    /** A⁻¹ for symmetric positive definite A. */
    public static double[][] inverseSpd(double[][] a) {
        double[][] l = cholesky(a);
        int n = a.length;
        double[][] inv = new double[n][n];
        for (int j = 0; j < n; j++) {
            double[] e = new double[n];
            e[j] = 1;
            double[] col = choleskySolve(l, e);
            for (int i = 0; i < n; i++) {
                inv[i][j] = col[i];
            }
        }
        return symmetrise(inv);
    }

    /** log det A = 2 Σ log L_ii from a Cholesky factor. */
    public static double logDeterminant(double[][] l) {
        double s = 0;
        for (int i = 0; i < l.length; i++) {
            s += Math.log(l[i][i]);
        }
        return 2 * s;
    }

    /** Deep copy. */
    public static double[][] copy(double[][] a) {
        double[][] c = new double[a.length][];
        for (int i = 0; i < a.length; i++) {
            c[i] = a[i].clone();
        }
        return c;
    }
}
