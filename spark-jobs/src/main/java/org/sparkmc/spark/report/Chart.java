package org.sparkmc.spark.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * An inline-SVG chart with shared axes: lines, dashed lines, shaded bands and a histogram, drawn in the order they
 * are added (so a later layer lies on top), with round-number ticks ({@link Ticks}) and a legend of the labelled
 * layers beside the title. NaN and infinite points are skipped. A non-negative quantity's axis ({@link #yFromZero})
 * starts at 0.
 */
public final class Chart {
    private static final int LEFT = Svg.LEFT;
    private static final int RIGHT = 22;
    private static final int TOP = 20;
    private static final int BOTTOM = 26;

    private enum Kind { LINE, DASHED, LEVEL, BAND, HISTOGRAM }

    private record Layer(Kind kind, double[] x, double[] y, double[] y2, String colour, String label) {
    }

    private final String title;
    private final int width;
    private final int height;
    private final List<Layer> layers = new ArrayList<>();
    private String xLabel;
    private boolean yFromZero;
    private boolean markPoints;

    public Chart(String title, int width, int height) {
        this.title = title;
        this.width = width;
        this.height = height;
    }

    /** The x axis' caption. */
    public Chart xLabel(String label) {
        this.xLabel = label;
        return this;
    }

    /** The y axis starts at 0 and never goes below it (for seconds, counts, densities, ESS). */
    public Chart yFromZero() {
        this.yFromZero = true;
        return this;
    }

    /** Marks every point of the solid lines with a dot (for short series, such as one value per round). */
    public Chart markPoints() {
        this.markPoints = true;
        return this;
    }

    /** A solid line; {@code label} (or null) names it in the legend. */
    public Chart line(double[] x, double[] y, String colour, String label) {
        return add(new Layer(Kind.LINE, x, y, null, colour, label));
    }

    /** A dashed line, which lets a line under it show through its gaps. */
    public Chart dashed(double[] x, double[] y, String colour, String label) {
        return add(new Layer(Kind.DASHED, x, y, null, colour, label));
    }

    /**
     * A dashed horizontal line at {@code y} across the whole plot (a threshold or a target): it sets no x range, so
     * it shows however few points the other layers have.
     */
    public Chart level(double y, String colour, String label) {
        return add(new Layer(Kind.LEVEL, new double[] {Double.NaN}, new double[] {y}, null, colour, label));
    }

    /** A translucent band between {@code lo} and {@code hi}. */
    public Chart band(double[] x, double[] lo, double[] hi, String colour, String label) {
        if (lo.length != hi.length) {
            throw new IllegalArgumentException("band: lo and hi need the same length");
        }
        return add(new Layer(Kind.BAND, x, lo, hi, colour, label));
    }

    /** Grey histogram bars: bin i spans {@code edges[i]} to {@code edges[i + 1]} at height {@code heights[i]}. */
    public Chart histogram(double[] edges, double[] heights, String label) {
        if (edges.length != heights.length + 1) {
            throw new IllegalArgumentException("histogram: edges need one more value than heights");
        }
        return add(new Layer(Kind.HISTOGRAM, edges, heights, null, "#dddddd", label));
    }

    private Chart add(Layer layer) {
        if (layer.kind() != Kind.HISTOGRAM && layer.x().length != layer.y().length) {
            throw new IllegalArgumentException("chart: x and y need the same length");
        }
        layers.add(layer);
        return this;
    }

    /** The chart as an {@code <svg>} element (CSS classes of {@link HtmlReport}). */
    public String svg() {
        double[] xr = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        double[] yr = {yFromZero ? 0 : Double.POSITIVE_INFINITY, yFromZero ? 0 : Double.NEGATIVE_INFINITY};
        for (Layer l : layers) {
            if (l.kind() == Kind.HISTOGRAM) {
                for (int i = 0; i < l.y().length; i++) {
                    extend(xr, yr, l.x()[i], l.y()[i]);
                    extend(xr, yr, l.x()[i + 1], 0);
                }
                continue;
            }
            if (l.kind() == Kind.LEVEL) {
                extend(yr, l.y()[0]);
                continue;
            }
            for (int i = 0; i < l.x().length; i++) {
                extend(xr, yr, l.x()[i], l.y()[i]);
                if (l.y2() != null) {
                    extend(xr, yr, l.x()[i], l.y2()[i]);
                }
            }
        }
        int w = width - LEFT - RIGHT;
        int h = height - TOP - BOTTOM;
        Ticks xt = Ticks.within(xr[0], xr[1], Math.max(2, w / 60));
        Ticks yt = Ticks.covering(yFromZero ? Math.max(0, yr[0]) : yr[0], yr[1], Math.max(2, h / 30));
        Scale s = new Scale(xt, yt, w, h);
        StringBuilder svg = new StringBuilder(Svg.open(title, width, height));
        svg.append(legend());
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" class=\"frame\"/>",
                LEFT, TOP, w, h));
        svg.append(Svg.yGrid(yt, TOP, w, h));
        for (double v : xt.values()) {
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" class=\"xa\">%s</text>", s.x(v),
                    TOP + h + 12, xt.label(v)));
        }
        if (xLabel != null) {
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" class=\"xl\">%s</text>", LEFT + w / 2,
                    height - 2, Svg.escape(xLabel)));
        }
        for (Layer l : layers) {
            svg.append(switch (l.kind()) {
                case LINE -> polyline(l, s) + (markPoints ? dots(l, s) : "");
                case DASHED -> polyline(l, s);
                case LEVEL -> polyline(new Layer(Kind.DASHED, new double[] {xt.lo(), xt.hi()},
                        new double[] {l.y()[0], l.y()[0]}, null, l.colour(), null), s);
                case BAND -> band(l, s);
                case HISTOGRAM -> histogram(l, s);
            });
        }
        return svg.append("</svg>").toString();
    }

    private static void extend(double[] yr, double y) {
        if (Double.isFinite(y)) {
            yr[0] = Math.min(yr[0], y);
            yr[1] = Math.max(yr[1], y);
        }
    }

    private static void extend(double[] xr, double[] yr, double x, double y) {
        if (Double.isFinite(x) && Double.isFinite(y)) {
            xr[0] = Math.min(xr[0], x);
            xr[1] = Math.max(xr[1], x);
            yr[0] = Math.min(yr[0], y);
            yr[1] = Math.max(yr[1], y);
        }
    }

    /** Data to pixel coordinates of the plot area. */
    private record Scale(Ticks xt, Ticks yt, int w, int h) {
        double x(double v) {
            return LEFT + w * xt.fraction(v);
        }

        double y(double v) {
            return TOP + h - h * yt.fraction(Math.max(yt.lo(), v));
        }
    }

    private static String polyline(Layer l, Scale s) {
        StringBuilder points = new StringBuilder();
        for (int i = 0; i < l.x().length; i++) {
            if (Double.isFinite(l.x()[i]) && Double.isFinite(l.y()[i])) {
                points.append(String.format(Locale.ROOT, "%.1f,%.1f ", s.x(l.x()[i]), s.y(l.y()[i])));
            }
        }
        return String.format(Locale.ROOT, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"%s points=\"%s\"/>",
                l.colour(), l.kind() == Kind.DASHED ? "1.5" : "1.2",
                l.kind() == Kind.DASHED ? " stroke-dasharray=\"5 4\"" : "", points.toString().trim());
    }

    private static String dots(Layer l, Scale s) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < l.x().length; i++) {
            if (Double.isFinite(l.x()[i]) && Double.isFinite(l.y()[i])) {
                out.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" fill=\"%s\"/>",
                        s.x(l.x()[i]), s.y(l.y()[i]), l.colour()));
            }
        }
        return out.toString();
    }

    private static String band(Layer l, Scale s) {
        StringBuilder upper = new StringBuilder();
        StringBuilder lower = new StringBuilder();
        for (int i = 0; i < l.x().length; i++) {
            if (Double.isFinite(l.x()[i]) && Double.isFinite(l.y()[i]) && Double.isFinite(l.y2()[i])) {
                upper.append(String.format(Locale.ROOT, "%.1f,%.1f ", s.x(l.x()[i]), s.y(l.y2()[i])));
                lower.insert(0, String.format(Locale.ROOT, "%.1f,%.1f ", s.x(l.x()[i]), s.y(l.y()[i])));
            }
        }
        return String.format(Locale.ROOT, "<polygon fill=\"%s\" fill-opacity=\"0.3\" stroke=\"none\" points=\"%s\"/>",
                l.colour(), (upper.toString() + lower).trim());
    }

    private static String histogram(Layer l, Scale s) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < l.y().length; i++) {
            if (Double.isFinite(l.y()[i]) && l.y()[i] > 0) {
                double x0 = s.x(l.x()[i]);
                double top = s.y(l.y()[i]);
                out.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                        + "fill=\"%s\" stroke=\"#aaaaaa\" stroke-width=\"0.5\"/>", x0, top, s.x(l.x()[i + 1]) - x0,
                        s.y(0) - top, l.colour()));
            }
        }
        return out.toString();
    }

    /** The labelled layers, right-aligned on the title's line: a sample of each mark, then its label. */
    private String legend() {
        List<Layer> named = layers.stream().filter(l -> l.label() != null).toList();
        if (named.isEmpty()) {
            return "";
        }
        double total = 0;
        for (Layer l : named) {
            total += entryWidth(l.label());
        }
        double x = width - RIGHT - total;
        StringBuilder out = new StringBuilder("<g class=\"legend\">");
        for (Layer l : named) {
            out.append(switch (l.kind()) {
                case LINE -> String.format(Locale.ROOT, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"10\" y2=\"10\" "
                        + "stroke=\"%s\" stroke-width=\"2\"/>", x, x + 16, l.colour());
                case DASHED, LEVEL -> String.format(Locale.ROOT, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"10\" y2=\"10\" "
                        + "stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"5 3\"/>", x, x + 16, l.colour());
                case BAND, HISTOGRAM -> String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"5\" width=\"16\" "
                        + "height=\"10\" fill=\"%s\"%s/>", x, l.colour(), l.kind() == Kind.BAND
                        ? " fill-opacity=\"0.3\"" : " stroke=\"#aaaaaa\"");
            });
            out.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"14\" class=\"lg\">%s</text>", x + 20,
                    Svg.escape(l.label())));
            x += entryWidth(l.label());
        }
        return out.append("</g>").toString();
    }

    /** Sample, gap, the label at about 5.5 px a character (10 px sans-serif), and the space before the next. */
    private static double entryWidth(String label) {
        return 20 + 5.5 * label.length() + 10;
    }
}
