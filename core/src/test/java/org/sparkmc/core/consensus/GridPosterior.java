package org.sparkmc.core.consensus;

import java.util.function.DoubleUnaryOperator;
import org.sparkmc.core.random.Rng;

/**
 * A one-dimensional density known up to a constant, tabulated on a fine grid: its moments by the trapezoid rule,
 * and draws by inverting the tabulated CDF (exact up to the grid's resolution).
 */
final class GridPosterior {
    final double[] x;
    final double[] cdf;
    final double mean;
    final double sd;

    GridPosterior(DoubleUnaryOperator logDensity, double from, double to, int points) {
        x = new double[points];
        double[] logs = new double[points];
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < points; i++) {
            x[i] = from + (to - from) * i / (points - 1);
            logs[i] = logDensity.applyAsDouble(x[i]);
            max = Math.max(max, logs[i]);
        }
        double[] f = new double[points];
        for (int i = 0; i < points; i++) {
            f[i] = Math.exp(logs[i] - max);
        }
        cdf = new double[points];
        double m1 = 0;
        double m2 = 0;
        for (int i = 1; i < points; i++) {
            double dx = x[i] - x[i - 1];
            cdf[i] = cdf[i - 1] + 0.5 * (f[i] + f[i - 1]) * dx;
            m1 += 0.5 * (x[i] * f[i] + x[i - 1] * f[i - 1]) * dx;
            m2 += 0.5 * (x[i] * x[i] * f[i] + x[i - 1] * x[i - 1] * f[i - 1]) * dx;
        }
        double total = cdf[points - 1];
        if (f[0] > 1e-12 || f[points - 1] > 1e-12) {
            throw new IllegalArgumentException("the grid cuts off mass: ends at " + f[0] + ", " + f[points - 1]);
        }
        for (int i = 0; i < points; i++) {
            cdf[i] /= total;
        }
        mean = m1 / total;
        sd = Math.sqrt(m2 / total - mean * mean);
    }

    /** n draws by inverting the piecewise-linear CDF. */
    double[][] draw(int n, Rng rng) {
        double[][] out = new double[n][1];
        for (int t = 0; t < n; t++) {
            double u = rng.uniform();
            int lo = 0;
            int hi = cdf.length - 1;
            while (hi - lo > 1) {
                int mid = (lo + hi) >>> 1;
                if (cdf[mid] <= u) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            double w = (u - cdf[lo]) / (cdf[hi] - cdf[lo]);
            out[t][0] = x[lo] + w * (x[hi] - x[lo]);
        }
        return out;
    }
}
