package org.sparkmc.spark.report;

import java.util.List;
import java.util.Locale;

/**
 * Small inline-SVG line and bar charts with axes, for self-contained reports (no scripts, fonts or network).
 */
public final class Svg {
    /** Chain colours (Okabe–Ito, colour-blind safe). */
    public static final String[] COLOURS = {"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00",
        "#F0E442", "#000000"};
    private static final int LEFT = 48;
    private static final int RIGHT = 22;
    private static final int TOP = 20;
    private static final int BOTTOM = 26;

    private Svg() {
    }

    /** A series to draw: x and y values, colour, whether dashed, and whether drawn as steps. */
    public record Series(double[] x, double[] y, String colour, boolean dashed) {
    }

    /** A chart of several series sharing axes; NaN and infinite points are skipped. */
    public static String chart(String title, int width, int height, List<Series> series, String xLabel) {
        double xMin = Double.POSITIVE_INFINITY;
        double xMax = Double.NEGATIVE_INFINITY;
        double yMin = Double.POSITIVE_INFINITY;
        double yMax = Double.NEGATIVE_INFINITY;
        for (Series s : series) {
            for (int i = 0; i < s.x().length; i++) {
                if (Double.isFinite(s.x()[i]) && Double.isFinite(s.y()[i])) {
                    xMin = Math.min(xMin, s.x()[i]);
                    xMax = Math.max(xMax, s.x()[i]);
                    yMin = Math.min(yMin, s.y()[i]);
                    yMax = Math.max(yMax, s.y()[i]);
                }
            }
        }
        if (!(xMax > xMin)) {
            xMax = xMin + 1;
        }
        if (!(yMax > yMin)) {
            yMax = yMin + 1;
        }
        if (!Double.isFinite(xMin)) {
            xMin = 0;
            xMax = 1;
            yMin = 0;
            yMax = 1;
        }
        double pad = (yMax - yMin) * 0.05;
        yMin -= pad;
        yMax += pad;
        int w = width - LEFT - RIGHT;
        int h = height - TOP - BOTTOM;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" role=\"img\"><title>%s</title>", width, height, width, height, escape(title)));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"14\" class=\"t\">%s</text>", LEFT, escape(title)));
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"frame\"/>",
                LEFT, TOP, w, h));
        for (int i = 0; i <= 4; i++) {
            double yv = yMin + (yMax - yMin) * i / 4;
            double py = TOP + h - h * (yv - yMin) / (yMax - yMin);
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" class=\"ya\">%s</text>", LEFT, LEFT + w, py, py, LEFT - 4, py + 3,
                    number(yv)));
            double xv = xMin + (xMax - xMin) * i / 4;
            double px = LEFT + w * (xv - xMin) / (xMax - xMin);
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" class=\"xa\">%s</text>", px,
                    TOP + h + 12, number(xv)));
        }
        if (xLabel != null) {
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" class=\"xl\">%s</text>", LEFT + w / 2,
                    height - 2, escape(xLabel)));
        }
        for (Series s : series) {
            StringBuilder points = new StringBuilder();
            for (int i = 0; i < s.x().length; i++) {
                if (Double.isFinite(s.x()[i]) && Double.isFinite(s.y()[i])) {
                    double px = LEFT + w * (s.x()[i] - xMin) / (xMax - xMin);
                    double py = TOP + h - h * (s.y()[i] - yMin) / (yMax - yMin);
                    points.append(String.format(Locale.ROOT, "%.1f,%.1f ", px, py));
                }
            }
            svg.append(String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.2\"%s "
                    + "points=\"%s\"/>", s.colour(), s.dashed() ? " stroke-dasharray=\"4 3\"" : "",
                    points.toString().trim()));
        }
        return svg.append("</svg>").toString();
    }

    /**
     * A bar chart of values at integer positions (e.g. p(k | y) for each k), with error bars y ± err where err is
     * finite; the y axis starts at 0.
     */
    public static String bars(String title, int width, int height, int[] x, double[] y, double[] err,
            String xLabel) {
        if (x.length != y.length || x.length != err.length) {
            throw new IllegalArgumentException("bars: x, y and err need the same length");
        }
        double yMax = 0;
        for (int i = 0; i < y.length; i++) {
            double top = y[i] + (Double.isFinite(err[i]) ? err[i] : 0);
            if (Double.isFinite(top)) {
                yMax = Math.max(yMax, top);
            }
        }
        yMax = yMax > 0 ? yMax * 1.05 : 1;
        int w = width - LEFT - RIGHT;
        int h = height - TOP - BOTTOM;
        int n = Math.max(x.length, 1);
        double slot = (double) w / n;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" role=\"img\"><title>%s</title>", width, height, width, height, escape(title)));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"14\" class=\"t\">%s</text>", LEFT, escape(title)));
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"frame\"/>",
                LEFT, TOP, w, h));
        for (int i = 0; i <= 4; i++) {
            double yv = yMax * i / 4;
            double py = TOP + h - h * yv / yMax;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" class=\"ya\">%s</text>", LEFT, LEFT + w, py, py, LEFT - 4, py + 3,
                    number(yv)));
        }
        int labelEvery = Math.max(1, (int) Math.ceil(n / 25.0));
        for (int i = 0; i < x.length; i++) {
            double cx = LEFT + slot * (i + 0.5);
            if (Double.isFinite(y[i]) && y[i] > 0) {
                double py = TOP + h - h * y[i] / yMax;
                svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                        + "fill=\"%s\" fill-opacity=\"0.75\"/>", cx - 0.35 * slot, py, 0.7 * slot, TOP + h - py,
                        COLOURS[0]));
                if (Double.isFinite(err[i]) && err[i] > 0) {
                    double lo = TOP + h - h * Math.max(0, y[i] - err[i]) / yMax;
                    double hi = TOP + h - h * (y[i] + err[i]) / yMax;
                    double cap = Math.min(4, 0.2 * slot);
                    svg.append(String.format(Locale.ROOT, "<path d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\" "
                            + "stroke=\"#222\" stroke-width=\"1\" fill=\"none\"/>", cx, lo, hi, cx - cap, lo, cx + cap,
                            cx - cap, hi, cx + cap));
                }
            }
            if (i % labelEvery == 0) {
                svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" class=\"xa\">%d</text>", cx,
                        TOP + h + 12, x[i]));
            }
        }
        if (xLabel != null) {
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" class=\"xl\">%s</text>", LEFT + w / 2,
                    height - 2, escape(xLabel)));
        }
        return svg.append("</svg>").toString();
    }

    static String number(double v) {
        double a = Math.abs(v);
        if (a != 0 && (a >= 1e5 || a < 1e-2)) {
            return String.format(Locale.ROOT, "%.2g", v);
        }
        return String.format(Locale.ROOT, a >= 100 ? "%.0f" : a >= 1 ? "%.2f" : "%.3f", v);
    }

    public static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
