package org.sparkmc.spark.report;

import static org.sparkmc.spark.diagnose.SummaryFiles.summaryShown;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.sparkmc.core.diagnostics.FullParameterSummary;
import org.sparkmc.spark.diagnose.ParameterResult;
import org.sparkmc.spark.diagnose.Thresholds;

/**
 * A self-contained {@code report.html}: inline CSS and SVG only (no scripts, fonts or network). A facts table, the
 * summary table with failing parameters highlighted, job-specific sections, and per parameter a trace plot
 * coloured by chain, a rank plot and per-chain densities.
 */
public final class HtmlReport {
    private static final String STYLE = "body{font-family:sans-serif;margin:24px;color:#222;max-width:1300px}"
            + "h1{font-size:22px}h2{font-size:17px;margin-top:28px;border-bottom:1px solid #ccc}"
            + "table{border-collapse:collapse;font-size:12px}td,th{padding:3px 7px;border-bottom:1px solid #e4e4e4;"
            + "text-align:right}th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}"
            + "tr.fail td{background:#fde2e2}span.fail{color:#b00020;font-weight:bold}span.ok{color:#11772d;"
            + "font-weight:bold}.plots{display:flex;flex-wrap:wrap;gap:8px}svg{background:#fff}"
            + ".t{font-size:12px;font-weight:bold}.ya{font-size:9px;text-anchor:end}.xa{font-size:9px;"
            + "text-anchor:middle}.xl{font-size:10px;text-anchor:middle}.frame{fill:none;stroke:#999}"
            + ".grid{stroke:#eee}.note{color:#555;font-size:12px}.lg{font-size:10px}th.text,td.text{text-align:left}"
            + ".chains{font-size:12px;display:flex;flex-wrap:wrap;gap:4px 14px;align-items:center}"
            + ".scroll{max-height:520px;overflow-y:auto;display:inline-block;border-bottom:1px solid #ccc}"
            + ".scroll th{position:sticky;top:0}";

    /** Summary tables longer than this scroll in a box of their own, so the charts below stay in reach. */
    static final int SCROLL_ROWS = 30;

    private final String title;
    private final StringBuilder body = new StringBuilder();

    public HtmlReport(String title) {
        this.title = title;
    }

    /** A two-column table of run facts. */
    public HtmlReport facts(Map<String, ?> facts) {
        body.append("<table>");
        facts.forEach((k, v) -> body.append("<tr><th>").append(Svg.escape(k)).append("</th><td>")
                .append(Svg.escape(String.valueOf(v))).append("</td></tr>"));
        body.append("</table>");
        return this;
    }

    /** The verdict and the summary table, failing rows highlighted. */
    public HtmlReport summary(List<FullParameterSummary> summaries, Thresholds thresholds) {
        Map<String, List<String>> failing = thresholds.failingOfFull(summaries);
        body.append("<h2>Summary</h2><p>").append(failing.isEmpty()
                ? "<span class=\"ok\">All " + summaries.size() + " parameters pass</span>"
                : "<span class=\"fail\">" + failing.size() + " of " + summaries.size() + " parameters fail</span>")
                .append(String.format(Locale.ROOT, " (R-hat &lt; %.3f, bulk and tail ESS ≥ %.0f)</p>",
                        thresholds.maxRhat(), thresholds.minEss()));
        body.append(summaries.size() > SCROLL_ROWS ? "<div class=\"scroll\">" : "<div>");
        body.append("<table><tr><th>parameter</th><th>mean</th><th>sd</th><th>q5</th><th>median</th><th>q95</th>"
                + "<th>R-hat</th><th>ESS bulk</th><th>ESS tail</th><th>MCSE mean</th><th class=\"text\">verdict</th>"
                + "</tr>");
        for (FullParameterSummary s : summaries) {
            List<String> why = failing.getOrDefault(s.name(), List.of());
            body.append(why.isEmpty() ? "<tr>" : "<tr class=\"fail\">").append("<td>").append(Svg.escape(s.name()))
                    .append("</td>");
            for (double v : new double[] {s.mean(), s.sd(), s.q5(), s.median(), s.q95()}) {
                body.append("<td>").append(Svg.number(v)).append("</td>");
            }
            body.append(String.format(Locale.ROOT, "<td>%s</td><td>%s</td><td>%s</td><td>%s</td>",
                    summaryShown(s.rhat(), "%.4f"), summaryShown(s.essBulk(), "%.0f"),
                    summaryShown(s.essTail(), "%.0f"),
                    Svg.number(s.mcseMean())));
            body.append("<td class=\"text\">").append(why.isEmpty() ? "ok" : Svg.escape(String.join("; ", why)))
                    .append("</td></tr>");
        }
        body.append("</table></div>");
        return this;
    }

    /** A section of the caller's own HTML (e.g. R-hat per round, topics, filtering bands). */
    public HtmlReport section(String heading, String html) {
        body.append("<h2>").append(Svg.escape(heading)).append("</h2>").append(html);
        return this;
    }

    /** Trace, rank and density plots of each parameter given. */
    public HtmlReport parameters(List<ParameterResult> results, int totalParameters) {
        body.append("<h2>Parameters</h2>");
        if (results.size() < totalParameters) {
            body.append("<p class=\"note\">The ").append(results.size()).append(" of ").append(totalParameters)
                    .append(" parameters plotted: failing ones first, then by R-hat, highest first.</p>");
        }
        if (!results.isEmpty()) {
            body.append(chainLegend(results.get(0).plots().traces().length));
        }
        for (ParameterResult r : results) {
            ParameterPlots p = r.plots();
            body.append("<h3>").append(Svg.escape(r.summary().name())).append("</h3><div class=\"plots\">");
            Chart trace = new Chart("trace" + (p.thin() > 1 ? " (1 draw in " + p.thin() + " shown)" : ""), 420, 200)
                    .xLabel("iteration");
            for (int c = 0; c < p.traces().length; c++) {
                double[] x = new double[p.traces()[c].length];
                for (int i = 0; i < x.length; i++) {
                    x[i] = 1 + (double) i * p.thin();
                }
                trace.line(x, p.traces()[c], colour(c), null);
            }
            body.append(trace.svg());
            Chart ranks = new Chart("rank plot", 300, 200).xLabel("pooled rank").yFromZero();
            double expected = 0;
            for (int c = 0; c < p.rankCounts().length; c++) {
                int[] counts = p.rankCounts()[c];
                double[] x = new double[counts.length * 2];
                double[] y = new double[counts.length * 2];
                double total = 0;
                for (int b = 0; b < counts.length; b++) {
                    x[2 * b] = (double) b / counts.length;
                    x[2 * b + 1] = (double) (b + 1) / counts.length;
                    y[2 * b] = counts[b];
                    y[2 * b + 1] = counts[b];
                    total += counts[b];
                }
                expected = total / counts.length;
                ranks.line(x, y, colour(c), null);
            }
            body.append(ranks.level(expected, "#777", "uniform")
                    .svg());
            Chart densities = new Chart("density per chain", 300, 200).xLabel(r.summary().name()).yFromZero();
            for (int c = 0; c < p.densities().length; c++) {
                densities.line(p.grid(), p.densities()[c], colour(c), null);
            }
            body.append(densities.svg());
            body.append("</div>");
        }
        return this;
    }

    /**
     * The key to the chain colours of the trace, rank and density plots; with more chains than colours, the chains
     * that share a colour are listed together.
     */
    static String chainLegend(int chains) {
        StringBuilder html = new StringBuilder("<div class=\"chains\">chains:");
        for (int c = 0; c < Math.min(chains, Svg.COLOURS.length); c++) {
            StringBuilder names = new StringBuilder();
            for (int d = c; d < chains; d += Svg.COLOURS.length) {
                names.append(d == c ? "" : ", ").append(d + 1);
            }
            html.append(String.format(Locale.ROOT, "<span><svg width=\"18\" height=\"8\"><line x1=\"0\" x2=\"18\" "
                    + "y1=\"4\" y2=\"4\" stroke=\"%s\" stroke-width=\"3\"/></svg> %s</span>", colour(c), names));
        }
        return html.append("</div>").toString();
    }

    public String render() {
        return "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + Svg.escape(title)
                + "</title><style>" + STYLE + "</style></head><body><h1>" + Svg.escape(title) + "</h1>" + body
                + "</body></html>\n";
    }

    public static String colour(int chain) {
        return Svg.COLOURS[chain % Svg.COLOURS.length];
    }
}
