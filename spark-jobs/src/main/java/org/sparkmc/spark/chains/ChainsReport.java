package org.sparkmc.spark.chains;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sparkmc.spark.diagnose.ParameterResult;
import org.sparkmc.spark.diagnose.Thresholds;
import org.sparkmc.spark.report.HtmlReport;
import org.sparkmc.spark.report.Svg;

/** The {@code chains} job's report.html: run facts, summary table, R-hat and ESS per round, parameter plots. */
final class ChainsReport {
    private ChainsReport() {
    }

    static String render(ChainsConfig config, ChainsResult result, int topParameters) {
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
        List<ParameterResult> shown = new ArrayList<>(result.results());
        if (shown.size() > topParameters) {
            shown.sort(Comparator.comparingDouble((ParameterResult r) -> Double.isNaN(r.summary().rhat())
                    ? Double.NEGATIVE_INFINITY : r.summary().rhat()).reversed());
            shown = shown.subList(0, topParameters);
        }
        return report.parameters(shown, result.results().size()).render();
    }

    private static String roundCharts(List<RoundSummary> history, ChainsConfig config) {
        List<RoundSummary> sampling = history.stream().filter(r -> r.phase().equals("sampling")).toList();
        double[] draws = sampling.stream().mapToDouble(RoundSummary::drawsPerChain).toArray();
        double[] rhat = sampling.stream().mapToDouble(RoundSummary::maxRhat).toArray();
        double[] bulk = sampling.stream().mapToDouble(RoundSummary::minEssBulk).toArray();
        double[] tail = sampling.stream().mapToDouble(RoundSummary::minEssTail).toArray();
        double first = draws.length == 0 ? 0 : draws[0];
        double last = draws.length == 0 ? 1 : draws[draws.length - 1];
        return "<div class=\"plots\">" + Svg.chart("max R-hat (dashed: threshold)", 420, 200, List.of(
                new Svg.Series(draws, rhat, Svg.COLOURS[0], false),
                new Svg.Series(new double[] {first, last}, new double[] {config.maxRhat(), config.maxRhat()}, "#777",
                        true)), "draws per chain")
                + Svg.chart("min ESS: bulk (blue), tail (orange); dashed: target", 420, 200, List.of(
                        new Svg.Series(draws, bulk, Svg.COLOURS[0], false),
                        new Svg.Series(draws, tail, Svg.COLOURS[1], false),
                        new Svg.Series(new double[] {first, last}, new double[] {config.minEss(), config.minEss()},
                                "#777", true)), "draws per chain")
                + "</div>";
    }
}
