package org.sparkmc.spark.report;

import java.util.List;
import java.util.Locale;

/** Small inline-SVG line charts with axes, for self-contained reports (no scripts, fonts or network). */
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
