package org.sparkmc.spark.chains;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sparkmc.spark.diagnose.ParameterResult;
import org.sparkmc.spark.diagnose.Thresholds;
import org.sparkmc.spark.report.Chart;
import org.sparkmc.spark.report.HtmlReport;
import org.sparkmc.spark.report.Svg;

/**
 * The {@code chains} job's report.html: run facts, summary table, R-hat and ESS per round, for a reversible-jump run
 * p(m | y) and the predictive density, then parameter plots.
 */
final class ChainsReport {
    private ChainsReport() {
    }

    /** The report; {@code rj} (null unless a reversible-jump run) adds the model-choice section. */
    static String render(ChainsConfig config, ChainsResult result, int topParameters, RjmcmcSummary rj) {
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("model", config.modelName());
        facts.put("kernel", config.kernelName());
        facts.put("converged", result.converged());
        facts.put("chains", config.chains());
        facts.put("warm-up per chain", config.warmup());
        facts.put("draws per chain", result.drawsPerChain());
        facts.put("sampling rounds", result.samplingRounds());
        facts.put("acceptance", String.format(java.util.Locale.ROOT, "%.3f", result.acceptance()));
        facts.put("seed", config.seed());
        facts.put("seconds", String.format(java.util.Locale.ROOT, "%.1f", result.seconds()));
        Thresholds thresholds = new Thresholds(config.maxRhat(), config.minEss());
        HtmlReport report = new HtmlReport("sparkmc chains: " + config.modelName()).facts(facts)
                .summary(result.parameters(), thresholds);
        report.section("Convergence by round", roundCharts(result.history(), config));
        if (rj != null) {
            report.section("Reversible jump: model choice", modelChoice(rj));
        }
        List<ParameterResult> shown = result.results();
        if (shown.size() > topParameters) {
            shown = ParameterResult.worstFirst(shown, thresholds, topParameters);
        }
        return report.parameters(shown, result.results().size()).render();
    }

    /**
     * p(m | y) as bars with ±2 MCSE error bars, the predictive density with its band over the data's histogram, and
     * tables of the model probabilities and the acceptance rate of each move type.
     */
    private static String modelChoice(RjmcmcSummary rj) {
        String m = rj.modelIndex();
        int[] x = rj.models().stream().mapToInt(RjmcmcSummary.ModelRow::model).toArray();
        double[] p = rj.models().stream().mapToDouble(RjmcmcSummary.ModelRow::probability).toArray();
        double[] err = rj.models().stream().mapToDouble(r -> 2 * r.mcse()).toArray();
        StringBuilder html = new StringBuilder("<div class=\"plots\">");
        html.append(Svg.bars("p(" + m + " | y), error bars ±2 MCSE", 600, 360, x, p, err, m));
        if (rj.predictive() != null) {
            html.append(PredictiveChart.svg(rj.predictive(), rj.data(), "y"));
        }
        html.append("</div><div class=\"plots\" style=\"align-items:flex-start\"><table><tr><th>").append(Svg.escape(m))
                .append("</th><th>p(").append(Svg.escape(m)).append(" | y)</th><th>MCSE</th><th>ESS</th>"
                        + "<th>min over chains</th><th>max over chains</th></tr>");
        for (RjmcmcSummary.ModelRow r : rj.models()) {
            double lo = java.util.Arrays.stream(r.perChain()).min().orElse(Double.NaN);
            double hi = java.util.Arrays.stream(r.perChain()).max().orElse(Double.NaN);
            html.append(String.format(java.util.Locale.ROOT, "<tr><td>%d</td><td>%s</td><td>%s</td><td>%s</td>"
                    + "<td>%s</td><td>%s</td></tr>", r.model(), probability(r.probability()), probability(r.mcse()),
                    fixed(r.ess(), "%.0f"), probability(lo), probability(hi)));
        }
        html.append("</table><table><tr><th>move</th><th>proposed</th><th>accepted</th><th>rate</th>"
                + "<th>rate in warm-up</th></tr>");
        java.util.Map<String, org.sparkmc.core.rjmcmc.MoveRate> warm = new java.util.HashMap<>();
        rj.warmupMoveRates().forEach(r -> warm.put(r.move(), r));
        for (org.sparkmc.core.rjmcmc.MoveRate r : rj.moveRates()) {
            org.sparkmc.core.rjmcmc.MoveRate w = warm.get(r.move());
            html.append(String.format(java.util.Locale.ROOT, "<tr><td>%s</td><td>%d</td><td>%d</td><td>%s</td>"
                    + "<td>%s</td></tr>", Svg.escape(r.move()), r.proposed(), r.accepted(), fixed(r.rate(), "%.4f"),
                    w == null ? "NA" : fixed(w.rate(), "%.4f")));
        }
        html.append("</table></div><p class=\"note\">p(").append(Svg.escape(m)).append(" | y) pools every sampling "
                + "draw of every chain; its MCSE is the mcse_mean of the indicator (autocorrelation counted through its "
                + "ESS). The predictive density is the posterior mean of the mixture density on the model's grid, the "
                + "band its pointwise 5–95% quantiles. Files: model_probs.csv, predictive.csv.</p>");
        return html.toString();
    }

    /** Four decimals, or three significant digits below 0.001 (the tail of p(k | y)). */
    private static String probability(double v) {
        return !Double.isFinite(v) ? "NA" : v == 0 || v >= 0.001 ? String.format(java.util.Locale.ROOT, "%.4f", v)
                : String.format(java.util.Locale.ROOT, "%.2e", v);
    }

    private static String fixed(double v, String format) {
        return Double.isFinite(v) ? String.format(java.util.Locale.ROOT, format, v) : "NA";
    }

    private static String roundCharts(List<RoundSummary> history, ChainsConfig config) {
        List<RoundSummary> sampling = history.stream().filter(r -> r.phase().equals("sampling")).toList();
        double[] draws = sampling.stream().mapToDouble(RoundSummary::drawsPerChain).toArray();
        double[] rhat = sampling.stream().mapToDouble(RoundSummary::maxRhat).toArray();
        double[] bulk = sampling.stream().mapToDouble(RoundSummary::minEssBulk).toArray();
        double[] tail = sampling.stream().mapToDouble(RoundSummary::minEssTail).toArray();
        return "<div class=\"plots\">" + new Chart("max R-hat", 420, 200).xLabel("draws per chain").markPoints()
                .line(draws, rhat, Svg.COLOURS[0], null)
                .level(config.maxRhat(), "#777", "threshold").svg()
                + new Chart("min ESS", 420, 200).xLabel("draws per chain").yFromZero().markPoints()
                        .line(draws, bulk, Svg.COLOURS[0], "bulk").line(draws, tail, Svg.COLOURS[1], "tail")
                        .level(config.minEss(), "#777", "target").svg()
                + "</div>";
    }
}
