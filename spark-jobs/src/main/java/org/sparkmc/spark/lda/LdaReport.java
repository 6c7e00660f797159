package org.sparkmc.spark.lda;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.sparkmc.spark.report.Chart;
import org.sparkmc.spark.report.HtmlReport;
import org.sparkmc.spark.report.Svg;

/**
 * The {@code lda} job's report.html: run facts with the held-out perplexity, the log-likelihood per token over the
 * sweeps, sweep times split into sampling and synchronisation, and a table of every topic's top words.
 */
final class LdaReport {
    /** Words per topic shown in the report's table (topics.csv has all of {@code topWords}). */
    static final int WORDS_SHOWN = 10;

    private LdaReport() {
    }

    static String render(LdaConfig config, LdaResult result, List<TopWords.Entry> top) {
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("corpus", result.corpus().source());
        facts.put("training documents / tokens", result.training().numDocuments() + " / "
                + result.training().numTokens());
        facts.put("held-out documents", result.heldOut().numDocuments() + (config.heldOutEvery() > 0
                ? " (id a multiple of " + config.heldOutEvery() + ")" : ""));
        facts.put("vocabulary", result.corpus().documents().vocabularySize());
        facts.put("topics K, α, β", config.priors().numTopics() + ", " + config.priors().alpha() + ", "
                + config.priors().beta());
        facts.put("sweeps (sync interval)", config.sweeps() + " (" + config.syncInterval() + ")");
        facts.put("blocks / partitions", config.blocks() + " / " + config.partitions());
        facts.put("kernel", config.kernel().name().toLowerCase(Locale.ROOT).replace('_', '-'));
        facts.put("seed", config.seed());
        facts.put("final log p(w,z) per token", String.format(Locale.ROOT, "%.4f", result.last().perToken()));
        if (result.heldOutResult() != null) {
            facts.put("held-out perplexity (document completion)", String.format(Locale.ROOT, "%.2f",
                    result.heldOutResult().perplexity()));
        }
        if (result.leftToRightResult() != null) {
            facts.put("held-out perplexity (left-to-right, whole documents)", String.format(Locale.ROOT, "%.2f",
                    result.leftToRightResult().perplexity()));
        }
        facts.put("seconds", String.format(Locale.ROOT, "%.1f", result.seconds()));
        HtmlReport report = new HtmlReport("sparkmc lda: " + config.priors().numTopics() + " topics").facts(facts);
        List<LoglikRow> rows = result.history();
        double[] sweep = rows.stream().mapToDouble(LoglikRow::sweep).toArray();
        double[] perToken = rows.stream().mapToDouble(LoglikRow::perToken).toArray();
        List<LoglikRow> steps = rows.subList(1, rows.size());
        double[] stepSweep = steps.stream().mapToDouble(LoglikRow::sweep).toArray();
        report.section("Log-likelihood", "<div class=\"plots\">"
                + new Chart("log p(w, z) per token", 900, 260).xLabel("sweep")
                        .line(sweep, perToken, Svg.COLOURS[0], null).svg()
                + new Chart("seconds per step", 900, 220).xLabel("sweep").yFromZero()
                        .line(stepSweep, steps.stream().mapToDouble(LoglikRow::samplingSeconds).toArray(),
                                Svg.COLOURS[0], "sampling")
                        .line(stepSweep, steps.stream().mapToDouble(LoglikRow::syncSeconds).toArray(),
                                Svg.COLOURS[1], "synchronisation").svg()
                + "</div>");
        report.section("Topics", topicTable(top, result.corpus().vocabulary(), result.run().counts().topicTotals()));
        return report.render();
    }

    private static String topicTable(List<TopWords.Entry> top, String[] vocabulary, int[] topicTokens) {
        StringBuilder html = new StringBuilder("<p class=\"note\">The ").append(WORDS_SHOWN)
                .append(" most probable words of each topic, φ = (n + β)/(n_k + Wβ); all ranks are in topics.csv."
                        + "</p><table><tr><th>topic</th><th>tokens</th><th class=\"text\">top words</th></tr>");
        int topic = -1;
        for (TopWords.Entry e : top) {
            if (e.topic() != topic) {
                if (topic >= 0) {
                    html.append("</td></tr>");
                }
                topic = e.topic();
                html.append("<tr><td>").append(topic).append("</td><td>").append(topicTokens[topic])
                        .append("</td><td class=\"text\">");
            }
            if (e.rank() <= WORDS_SHOWN) {
                html.append(e.rank() > 1 ? " " : "").append(Svg.escape(vocabulary[e.word()]));
            }
        }
        if (topic >= 0) {
            html.append("</td></tr>");
        }
        return html.append("</table>").toString();
    }
}
