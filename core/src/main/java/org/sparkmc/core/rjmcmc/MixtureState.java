package org.sparkmc.core.rjmcmc;

/**
 * A decoded working copy of a {@link NormalMixture} position {@code [k, β, w_1..w_k, μ_1..μ_k, σ²_1..σ²_k,
 * z_1..z_n]} (allocations z_i ∈ {0, …, k−1} stored as doubles). Moves decode, change and re-encode it.
 */
final class MixtureState {
    int k;
    double beta;
    double[] w;
    double[] mu;
    double[] var;
    int[] z;

    MixtureState(int k, double beta, double[] w, double[] mu, double[] var, int[] z) {
        this.k = k;
        this.beta = beta;
        this.w = w;
        this.mu = mu;
        this.var = var;
        this.z = z;
    }

    static int length(int k, int n) {
        return 2 + 3 * k + n;
    }

    static MixtureState decode(double[] x, int n) {
        int k = (int) x[0];
        double[] w = new double[k];
        double[] mu = new double[k];
        double[] var = new double[k];
        System.arraycopy(x, 2, w, 0, k);
        System.arraycopy(x, 2 + k, mu, 0, k);
        System.arraycopy(x, 2 + 2 * k, var, 0, k);
        int[] z = new int[n];
        for (int i = 0; i < n; i++) {
            z[i] = (int) x[2 + 3 * k + i];
        }
        return new MixtureState(k, x[1], w, mu, var, z);
    }

    double[] encode() {
        int n = z.length;
        double[] x = new double[length(k, n)];
        x[0] = k;
        x[1] = beta;
        System.arraycopy(w, 0, x, 2, k);
        System.arraycopy(mu, 0, x, 2 + k, k);
        System.arraycopy(var, 0, x, 2 + 2 * k, k);
        for (int i = 0; i < n; i++) {
            x[2 + 3 * k + i] = z[i];
        }
        return x;
    }

    /** Number of observations allocated to each component. */
    int[] counts() {
        int[] c = new int[k];
        for (int zi : z) {
            c[zi]++;
        }
        return c;
    }

    int emptyCount() {
        int e = 0;
        for (int c : counts()) {
            if (c == 0) {
                e++;
            }
        }
        return e;
    }
}
