package org.sparkmc.spark.consensus;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.sparkmc.core.consensus.ShardCheck;
import org.sparkmc.core.diagnostics.FullParameterSummary;
import org.sparkmc.spark.diagnose.SummaryFiles;
import org.sparkmc.spark.diagnose.Thresholds;
import org.sparkmc.spark.report.Chart;
import org.sparkmc.spark.report.HtmlReport;
import org.sparkmc.spark.report.ParameterPlots;
import org.sparkmc.spark.report.Svg;

/**
 * The {@code consensus} job's report.html: run facts, the combined summary, the disagreement check, per parameter
 * each shard's mean and sd beside the combined ones and each shard's density against the combined density, then
 * the combined chains' trace, rank and density plots.
 */
final class ConsensusReport {
    /** The R-hat and ESS the summary table marks and the shards' warning names: the chains job's defaults. */
    static final Thresholds THRESHOLDS = new Thresholds(1.01, 400);

    private ConsensusReport() {
    }

    static String render(ConsensusConfig config, ConsensusResult result) {
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("data", config.data());
        facts.put("model", config.modelName());
        facts.put("shards", config.shards());
        facts.put("kernel", config.sampling().kernel());
        facts.put("chains per shard", config.sampling().chains());
        facts.put("warm-up per chain", config.sampling().warmup());
        facts.put("draws per chain", config.sampling().iterations());
        facts.put("combiner", config.combiner());
        facts.put("max R-hat within shards", SummaryFiles.summaryShown(result.maxShardRhat(), "%.4f"));
        facts.put("min bulk ESS within shards", SummaryFiles.summaryShown(result.minShardEss(), "%.0f"));
        facts.put("seed", config.seed());
        facts.put("seconds", String.format(Locale.ROOT, "%.1f", result.seconds()));
        HtmlReport report = new HtmlReport("sparkmc consensus: " + config.modelName() + " on " + config.data())
                .facts(facts).summary(result.parameters(), THRESHOLDS);
        report.section("Do the shards agree?", paragraph(result.disagreement()) + paragraph(result.skew()));
        report.section("Shards against the combined posterior", shards(result));
        return report.parameters(result.results(), result.results().size()).render();
    }

    /** Per parameter: a table of each shard's mean and sd beside the combined, and the densities overlaid. */
    /** A check's message, styled as a failure when it warns. */
    private static String paragraph(ShardCheck check) {
        return "<p class=\"" + (check.warn() ? "fail" : "note") + "\">" + Svg.escape(check.message()) + "</p>";
    }

    private static String shards(ConsensusResult result) {
        StringBuilder html = new StringBuilder("<p class=\"note\">Each shard samples p(θ)^{1/S} times its rows' "
                + "likelihood, so its density is about √S times wider than the combined one; their centres should "
                + "scatter about the combined mean by about a shard's sd. Combined density in black.</p>");
        int shards = result.shardDraws().length;
        for (int p = 0; p < result.names().size(); p++) {
            String name = result.names().get(p);
            FullParameterSummary all = result.parameters().get(p);
            html.append("<h3>").append(Svg.escape(name)).append("</h3><div class=\"plots\"><table><tr><th>shard</th>"
                    + "<th>rows</th><th>mean</th><th>sd</th><th>R-hat</th><th>ESS bulk</th></tr>");
            double[][] samples = new double[shards + 1][];
            for (int s = 0; s < shards; s++) {
                FullParameterSummary f = result.shardSummaries().get(s).get(p);
                html.append(String.format(Locale.ROOT, "<tr><td>%d</td><td>%d</td><td>%.4g</td><td>%.4g</td>"
                        + "<td>%.4f</td><td>%.0f</td></tr>", s, result.shards().get(s).rows(), f.mean(), f.sd(),
                        f.rhat(), f.essBulk()));
                samples[s] = pooled(result.shardDraws()[s], p);
            }
            html.append(String.format(Locale.ROOT, "<tr><th>combined</th><th></th><th>%.4g</th><th>%.4g</th>"
                    + "<th>%.4f</th><th>%.0f</th></tr></table>", all.mean(), all.sd(), all.rhat(), all.essBulk()));
            samples[shards] = pooled(result.combined(), p);
            double[][] dens = ParameterPlots.densitiesOnCommonGrid(samples);
            double[] grid = dens[dens.length - 1];
            Chart chart = new Chart("shard densities and combined", 420, 220).xLabel(name).yFromZero();
            for (int s = 0; s < shards; s++) {
                chart.line(grid, dens[s], Svg.COLOURS[s % Svg.COLOURS.length], null);
            }
            chart.line(grid, dens[shards], "#000", "combined");
            html.append(chart.svg()).append("</div>");
        }
        return html.toString();
    }

    /** Parameter p's draws of every chain, pooled: draws are [chain][parameter][iteration]. */
    private static double[] pooled(double[][][] draws, int p) {
        int n = draws[0][p].length;
        double[] out = new double[draws.length * n];
        for (int c = 0; c < draws.length; c++) {
            System.arraycopy(draws[c][p], 0, out, c * n, n);
        }
        return out;
    }
}
