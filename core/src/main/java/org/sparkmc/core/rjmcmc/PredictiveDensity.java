package org.sparkmc.core.rjmcmc;

import java.util.Locale;
import org.sparkmc.core.diagnostics.PooledStatistics;

/**
 * The posterior predictive density of a mixture on a grid with pointwise credible bands: at each grid point t the
 * draws of the mixture density f(t) (a label-invariant reported quantity of {@link NormalMixture}) give the predictive
 * density E[f(t) | y] (their mean) and the band between their {@code lower} and {@code upper} quantiles. Can render
 * itself, with a histogram of the data, as a small self-contained SVG.
 *
 * @param grid  the points t
 * @param mean  E[f(t) | y] at each point
 * @param lower the lower pointwise quantile of f(t)
 * @param upper the upper pointwise quantile of f(t)
 */
public record PredictiveDensity(double[] grid, double[] mean, double[] lower, double[] upper, double lowerLevel,
        double upperLevel) {

    /**
     * @param densityDraws {@code [grid point][chain][iteration]} draws of f(t)
     */
    public static PredictiveDensity of(double[] grid, double[][][] densityDraws, double lowerLevel, double upperLevel) {
        int g = grid.length;
        double[] mean = new double[g];
        double[] lo = new double[g];
        double[] hi = new double[g];
        for (int i = 0; i < g; i++) {
            mean[i] = PooledStatistics.mean(densityDraws[i]);
            double[] q = PooledStatistics.quantiles(densityDraws[i], lowerLevel, upperLevel);
            lo[i] = q[0];
            hi[i] = q[1];
        }
        return new PredictiveDensity(grid.clone(), mean, lo, hi, lowerLevel, upperLevel);
    }

    /** An SVG plot (600×360) of the band, the predictive density and a histogram of {@code data}. */
    public String svg(double[] data, String xLabel, String title) {
        int width = 600;
        int height = 360;
        double left = 55;
        double right = 15;
        double top = 30;
        double bottom = 45;
        double x0 = grid[0];
        double x1 = grid[grid.length - 1];
        int bins = 40;
        double binWidth = (x1 - x0) / bins;
        double[] hist = new double[bins];
        for (double v : data) {
            int b = (int) Math.floor((v - x0) / binWidth);
            if (b >= 0 && b < bins) {
                hist[b] += 1.0 / (data.length * binWidth);
            }
        }
        double yMax = 0;
        for (int i = 0; i < grid.length; i++) {
            yMax = Math.max(yMax, upper[i]);
        }
        for (double h : hist) {
            yMax = Math.max(yMax, h);
        }
        yMax *= 1.05;
        double plotW = width - left - right;
        double plotH = height - top - bottom;
        java.util.function.DoubleUnaryOperator sx = v -> left + (v - x0) / (x1 - x0) * plotW;
        double ymax = yMax;
        java.util.function.DoubleUnaryOperator sy = v -> top + plotH - v / ymax * plotH;
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"sans-serif\" font-size=\"12\">%n", width, height));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"18\" text-anchor=\"middle\">%s</text>%n", width / 2,
                escape(title)));
        for (int b = 0; b < bins; b++) {
            if (hist[b] > 0) {
                s.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                        + "fill=\"#dddddd\" stroke=\"#aaaaaa\"/>%n", sx.applyAsDouble(x0 + b * binWidth),
                        sy.applyAsDouble(hist[b]), plotW / bins, plotH - (sy.applyAsDouble(hist[b]) - top)));
            }
        }
        StringBuilder band = new StringBuilder();
        for (int i = 0; i < grid.length; i++) {
            band.append(String.format(Locale.ROOT, "%.1f,%.1f ", sx.applyAsDouble(grid[i]), sy.applyAsDouble(upper[i])));
        }
        for (int i = grid.length - 1; i >= 0; i--) {
            band.append(String.format(Locale.ROOT, "%.1f,%.1f ", sx.applyAsDouble(grid[i]), sy.applyAsDouble(lower[i])));
        }
        s.append("<polygon points=\"").append(band.toString().trim())
                .append("\" fill=\"#4477aa\" fill-opacity=\"0.3\" stroke=\"none\"/>\n");
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < grid.length; i++) {
            line.append(String.format(Locale.ROOT, "%.1f,%.1f ", sx.applyAsDouble(grid[i]), sy.applyAsDouble(mean[i])));
        }
        s.append("<polyline points=\"").append(line.toString().trim())
                .append("\" fill=\"none\" stroke=\"#224477\" stroke-width=\"2\"/>\n");
        // Axes with ticks.
        s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>%n",
                left, top + plotH, left + plotW, top + plotH));
        s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>%n",
                left, top, left, top + plotH));
        double xStep = niceStep((x1 - x0) / 6);
        for (double v = Math.ceil(x0 / xStep) * xStep; v <= x1 + 1e-9; v += xStep) {
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>%n",
                    sx.applyAsDouble(v), top + plotH + 16, trim(v)));
        }
        double yStep = niceStep(yMax / 5);
        for (double v = 0; v <= yMax + 1e-12; v += yStep) {
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n",
                    left - 5, sy.applyAsDouble(v) + 4, trim(v)));
        }
        s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n",
                left + plotW / 2, height - 8, escape(xLabel)));
        s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">predictive density (line), "
                + "%.0f–%.0f%% pointwise band of f, data histogram</text>%n", left + 10, top + 12, 100 * lowerLevel,
                100 * upperLevel));
        s.append("</svg>\n");
        return s.toString();
    }

    private static double niceStep(double raw) {
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        double m = raw / p;
        return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
    }

    private static String trim(double v) {
        String s = String.format(Locale.ROOT, "%.4g", v);
        return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
