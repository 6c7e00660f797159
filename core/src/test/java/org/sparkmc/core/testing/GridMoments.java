package org.sparkmc.core.testing;

/**
 * Posterior means and sds by quadrature on a grid: each grid point has a log weight (unnormalised) and the
 * conditional first and second moments of every quantity there; the moments are the weighted averages.
 */
public final class GridMoments {
    private GridMoments() {
    }

    /** {mean, sd} of each quantity; {@code first[g][k]}, {@code second[g][k]}: E[q_k | g], E[q_k² | g]. */
    public static double[][] of(double[] logWeight, double[][] first, double[][] second) {
        double max = Double.NEGATIVE_INFINITY;
        for (double lw : logWeight) {
            max = Math.max(max, lw);
        }
        int q = first[0].length;
        double total = 0;
        double[] mean = new double[q];
        double[] square = new double[q];
        for (int g = 0; g < logWeight.length; g++) {
            double w = Math.exp(logWeight[g] - max);
            total += w;
            for (int k = 0; k < q; k++) {
                mean[k] += w * first[g][k];
                square[k] += w * second[g][k];
            }
        }
        double[][] out = new double[q][];
        for (int k = 0; k < q; k++) {
            double mu = mean[k] / total;
            out[k] = new double[] {mu, Math.sqrt(square[k] / total - mu * mu)};
        }
        return out;
    }
}
