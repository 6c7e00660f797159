package org.sparkmc.spark.report;

import java.util.Locale;

/**
 * What the reports' inline-SVG charts share (colours, the opening tag, the y grid, escaping), and a bar chart of values
 * at integer positions; line charts are {@link Chart}. Self-contained: no scripts, fonts or network.
 */
public final class Svg {
    /** Chain colours (Okabe–Ito, colour-blind safe). */
    public static final String[] COLOURS = {"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00",
        "#F0E442", "#000000"};
    /** Left margin of every chart, where the y axis' labels go. */
    public static final int LEFT = 48;
    private static final int RIGHT = 22;
    private static final int TOP = 20;
    private static final int BOTTOM = 26;

    private Svg() {
    }

    /** The opening {@code <svg>} tag of a chart with its accessible title and the visible title at the top left. */
    public static String open(String title, int width, int height) {
        return String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "viewBox=\"0 0 %d %d\" role=\"img\"><title>%s</title><text x=\"%d\" y=\"14\" class=\"t\">%s</text>",
                width, height, width, height, escape(title), LEFT, escape(title));
    }

    /** Horizontal grid lines with their labels at the ticks of a y axis drawn from {@code top} down {@code h} px. */
    public static String yGrid(Ticks ticks, int top, int w, int h) {
        StringBuilder out = new StringBuilder();
        for (double v : ticks.values()) {
            double py = top + h - h * ticks.fraction(v);
            out.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" class=\"grid\"/>"
                    + "<text x=\"%d\" y=\"%.1f\" class=\"ya\">%s</text>", LEFT, LEFT + w, py, py, LEFT - 4, py + 3,
                    ticks.label(v)));
        }
        return out.toString();
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
        int w = width - LEFT - RIGHT;
        int h = height - TOP - BOTTOM;
        Ticks ticks = Ticks.covering(0, yMax > 0 ? yMax * 1.05 : 1, Math.max(2, h / 30));
        yMax = ticks.hi();
        int n = Math.max(x.length, 1);
        double slot = (double) w / n;
        StringBuilder svg = new StringBuilder(open(title, width, height));
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"frame\"/>",
                LEFT, TOP, w, h));
        svg.append(yGrid(ticks, TOP, w, h));
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
        if (!Double.isFinite(v)) {
            return "NA"; // as summary.csv has it
        }
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
