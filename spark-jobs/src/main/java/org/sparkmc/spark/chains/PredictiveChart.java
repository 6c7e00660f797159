package org.sparkmc.spark.chains;

import java.util.Locale;
import org.sparkmc.core.rjmcmc.PredictiveDensity;
import org.sparkmc.spark.report.Chart;
import org.sparkmc.spark.report.Svg;

/**
 * The report's plot of a reversible-jump mixture's posterior predictive density: a histogram of the data (as a
 * density, 40 bins over the grid's range), the pointwise band of f and the predictive density on top.
 */
final class PredictiveChart {
    static final int BINS = 40;

    private PredictiveChart() {
    }

    static String svg(PredictiveDensity pd, double[] data, String xLabel) {
        double[] grid = pd.grid();
        double x0 = grid[0];
        double x1 = grid[grid.length - 1];
        double binWidth = (x1 - x0) / BINS;
        double[] edges = new double[BINS + 1];
        for (int b = 0; b <= BINS; b++) {
            edges[b] = x0 + b * binWidth;
        }
        double[] hist = new double[BINS];
        for (double v : data) {
            int b = (int) Math.floor((v - x0) / binWidth);
            if (b >= 0 && b < BINS) {
                hist[b] += 1.0 / (data.length * binWidth);
            }
        }
        String band = String.format(Locale.ROOT, "%.0f–%.0f%% band", 100 * pd.lowerLevel(), 100 * pd.upperLevel());
        return new Chart("posterior predictive density", 600, 360).xLabel(xLabel).yFromZero()
                .histogram(edges, hist, "data")
                .band(grid, pd.lower(), pd.upper(), Svg.COLOURS[0], band)
                .line(grid, pd.mean(), Svg.COLOURS[0], "predictive density").svg();
    }
}
