package org.sparkmc.spark.bn;

import static org.sparkmc.spark.diagnose.SummaryFiles.formatted;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.sparkmc.spark.diagnose.Thresholds;
import org.sparkmc.spark.report.Chart;
import org.sparkmc.spark.report.HtmlReport;
import org.sparkmc.spark.report.Svg;

/**
 * The {@code bn} job's report.html: run facts, a table of every query state (estimate, SE, exact, error in SE,
 * ESS, R-hat), a bar chart per query variable with ±2 SE whiskers and the exact value, and for Gibbs the indicators'
 * convergence table and max R-hat per round.
 */
final class BnReport {
    private BnReport() {
    }

    static String render(BnConfig config, BnResult result) {
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("network", config.networkPath() + " (" + config.net().name() + ", " + config.net().size()
                + " variables)");
        facts.put("method", config.method().description());
        facts.put("evidence", config.evidenceText().isEmpty() ? "none" : config.evidenceText());
        if (config.method() != BnMethod.EXACT) {
            facts.put(config.method() == BnMethod.GIBBS ? "kept draws (all chains)" : "samples",
                    String.format(Locale.ROOT, "%,d", result.samples()));
            facts.put(config.method() == BnMethod.GIBBS ? "smallest ESS of a state" : "ESS of the weights (Kish)",
                    formatted(result.ess(), "%.4g"));
        }
        if (config.method() == BnMethod.GIBBS) {
            facts.put("chains × (warm-up + draws)", config.chains() + " × (" + config.warmup() + " + "
                    + config.draws() + ")");
            facts.put("converged", result.converged() + String.format(Locale.ROOT, " (R-hat < %.3f, ESS ≥ %.0f)",
                    config.maxRhat(), config.minEss()));
        }
        if (!Double.isNaN(result.evidenceProbability()) || !Double.isNaN(result.exactEvidenceProbability())) {
            facts.put("P(evidence)", formatted(result.evidenceProbability(), "%.5g")
                    + (result.evidenceProbabilitySe() > 0
                        ? " ± " + formatted(result.evidenceProbabilitySe(), "%.2g") : "")
                    + (Double.isNaN(result.exactEvidenceProbability()) ? ""
                        : ", exact " + formatted(result.exactEvidenceProbability(), "%.5g")));
        }
        facts.put("seed", config.seed());
        facts.put("partitions", result.partitions());
        facts.put("seconds", String.format(Locale.ROOT, "%.1f", result.seconds()));
        HtmlReport report = new HtmlReport("sparkmc bn: " + displayName(config) + " — " + config.method().description())
                .facts(facts);
        report.section("Posterior marginals", table(result) + "<p class=\"note\">Whiskers: ±2 standard errors"
                + (result.queries().get(0).exact() != null ? "; black tick: exact (variable elimination)." : ".")
                + "</p><div class=\"plots\">" + charts(result.queries()) + "</div>");
        if (!result.indicators().isEmpty()) {
            report.summary(result.indicators(), new Thresholds(config.maxRhat(), config.minEss()));
            report.section("Convergence by round", rhatChart(result.history(), config));
        }
        return report.render();
    }

    /** The network's declared name, or its file name when the BIF declares none ("unknown", as bnlearn's files). */
    private static String displayName(BnConfig config) {
        String name = config.net().name();
        if (name == null || name.isBlank() || name.equals("unknown")) {
            String path = config.networkPath();
            return path.substring(path.lastIndexOf('/') + 1);
        }
        return name;
    }

    private static String table(BnResult result) {
        boolean exact = result.queries().get(0).exact() != null;
        boolean gibbs = result.queries().get(0).rhat() != null;
        StringBuilder t = new StringBuilder("<table><tr><th>variable</th><th>state</th><th>probability</th>"
                + "<th>SE</th>" + (exact ? "<th>exact</th><th>error / SE</th>" : "") + "<th>ESS</th>"
                + (gibbs ? "<th>R-hat</th>" : "") + "</tr>");
        for (QueryResult q : result.queries()) {
            for (int s = 0; s < q.states().length; s++) {
                t.append("<tr><td>").append(Svg.escape(q.variable())).append("</td><td>")
                        .append(Svg.escape(q.states()[s])).append("</td><td>")
                        .append(formatted(q.probabilities()[s], "%.6g")).append("</td><td>")
                        .append(formatted(q.standardErrors()[s], "%.2g")).append("</td>");
                if (exact) {
                    t.append("<td>").append(formatted(q.exact()[s], "%.6g")).append("</td><td>")
                            .append(formatted(q.errorInSe(s), "%+.2f")).append("</td>");
                }
                t.append("<td>").append(formatted(q.ess()[s], "%.4g")).append("</td>");
                if (gibbs) {
                    t.append("<td>").append(formatted(q.rhat()[s], "%.4f")).append("</td>");
                }
                t.append("</tr>");
            }
        }
        return t.append("</table>").toString();
    }

    private static String charts(List<QueryResult> queries) {
        StringBuilder out = new StringBuilder();
        for (QueryResult q : queries) {
            out.append(BarChart.render(q));
        }
        return out.toString();
    }

    private static String rhatChart(List<BnResult.Step> history, BnConfig config) {
        List<BnResult.Step> sampling = history.stream().filter(s -> s.samples() > 0).toList();
        double[] x = sampling.stream().mapToDouble(BnResult.Step::samples).toArray();
        double[] rhat = sampling.stream().mapToDouble(BnResult.Step::maxRhat).toArray();
        return "<div class=\"plots\">" + new Chart("max R-hat over the indicators", 420, 200)
                .xLabel("draws per chain").markPoints().line(x, rhat, Svg.COLOURS[0], null)
                .level(config.maxRhat(), "#777", "threshold").svg()
                + "</div>";
    }
}
