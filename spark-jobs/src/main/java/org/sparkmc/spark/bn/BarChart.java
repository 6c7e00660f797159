package org.sparkmc.spark.bn;

import java.util.Locale;
import org.sparkmc.spark.report.Svg;
import org.sparkmc.spark.report.Ticks;

/**
 * An inline-SVG bar chart of one posterior marginal for the report (same look and CSS classes as
 * {@link org.sparkmc.spark.report.Chart}): a bar per state at the estimated probability, a whisker of ±2 standard errors, and the exact
 * probability, when known, as a black tick across the bar.
 */
final class BarChart {
    private static final int LEFT = Svg.LEFT;
    private static final int RIGHT = 14;
    private static final int TOP = 20;
    private static final int BOTTOM = 30;
    private static final int SLOT = 64;
    /** Height of a value label (9 px text) and its gap above the highest mark. */
    private static final double LABEL_HEIGHT = 9;
    static final int LABEL_GAP = 4;

    private BarChart() {
    }

    static String render(QueryResult q) {
        int k = q.states().length;
        double top = 0;
        for (int s = 0; s < k; s++) {
            double se = Double.isFinite(q.standardErrors()[s]) ? q.standardErrors()[s] : 0;
            top = Math.max(top, q.probabilities()[s] + 2 * se);
            if (q.exact() != null) {
                top = Math.max(top, q.exact()[s]);
            }
        }
        int height = 230;
        int h = height - TOP - BOTTOM;
        Ticks ticks = headroom(Ticks.covering(0, Math.min(1, top * 1.1), 5), top, h);
        double yMax = ticks.hi();
        String title = "P(" + q.variable() + " | evidence)";
        int w = Math.max(Math.max(160, k * SLOT), (int) (title.length() * 7.2) - LEFT + 8);
        int width = LEFT + w + RIGHT;
        StringBuilder svg = new StringBuilder(Svg.open(title, width, height));
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"frame\"/>",
                LEFT, TOP, w, h));
        svg.append(Svg.yGrid(ticks, TOP, w, h));
        double slot = (double) w / k;
        for (int s = 0; s < k; s++) {
            double centre = LEFT + slot * (s + 0.5);
            double barWidth = Math.min(40, slot * 0.6);
            double p = q.probabilities()[s];
            double py = y(p, yMax, h);
            svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                    + "fill=\"%s\" fill-opacity=\"0.75\"><title>%s = %s: %s</title></rect>", centre - barWidth / 2, py,
                    barWidth, TOP + h - py, Svg.COLOURS[0], Svg.escape(q.variable()), Svg.escape(q.states()[s]),
                    Svg.escape(describe(q, s))));
            double se = q.standardErrors()[s];
            double highest = py;
            if (Double.isFinite(se) && se > 0) {
                double lo = y(Math.max(0, p - 2 * se), yMax, h);
                double hi = y(Math.min(yMax, p + 2 * se), yMax, h);
                svg.append(String.format(Locale.ROOT, "<path d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\" "
                        + "stroke=\"%s\" stroke-width=\"1.5\" fill=\"none\"/>", centre, lo, hi, centre - 6, lo,
                        centre + 6, centre - 6, hi, centre + 6, Svg.COLOURS[5]));
                highest = Math.min(highest, hi);
            }
            if (q.exact() != null) {
                double ey = y(q.exact()[s], yMax, h);
                svg.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" "
                        + "stroke=\"#000\" stroke-width=\"2\"/>", centre - barWidth / 2 - 4, centre + barWidth / 2 + 4,
                        ey, ey));
                highest = Math.min(highest, ey);
            }
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" class=\"xa\">%s</text>", centre,
                    highest - LABEL_GAP, format(p)));
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" class=\"xl\">%s</text>", centre,
                    TOP + h + 14, Svg.escape(q.states()[s])));
        }
        return svg.append("</svg>").toString();
    }

    private static String describe(QueryResult q, int s) {
        String text = String.format(Locale.ROOT, "%.6g ± %s (SE)", q.probabilities()[s], q.standardError(s, "%.2g"));
        return q.exact() == null ? text : text + String.format(Locale.ROOT, ", exact %.6g", q.exact()[s]);
    }

    private static double y(double v, double yMax, int h) {
        return TOP + h - h * v / yMax;
    }

    /**
     * The axis of round ticks, raised where needed (without ticks beyond the round ones, so a probability axis shows
     * none above 1) so that a value label fits above the highest mark, {@code top}: each label sits
     * {@value #LABEL_GAP} px above the highest of its bar's marks (bar top, whisker, exact tick) and touches none.
     */
    static Ticks headroom(Ticks round, double top, int h) {
        double needed = top / (1 - (LABEL_HEIGHT + LABEL_GAP + 1) / h);
        return new Ticks(0, Math.max(round.hi(), needed), round.step());
    }

    static String format(double v) {
        double a = Math.abs(v);
        if (a == 0) {
            return "0";
        }
        return a < 1e-3 ? String.format(Locale.ROOT, "%.2g", v) : String.format(Locale.ROOT, "%.3f", v);
    }
}
