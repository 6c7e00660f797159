package org.sparkmc.spark.smc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.sparkmc.core.smc.models.KalmanFilter;
import org.sparkmc.spark.report.HtmlReport;
import org.sparkmc.spark.report.Svg;

/**
 * The {@code smc} job's report.html: run facts, the ESS over time against the resampling threshold, and per state
 * component the filtering mean with ±2 sd bands — over the observations for the local-level model, and beside the
 * exact Kalman filter (dashed) for linear-Gaussian models. Long series are thinned to at most
 * {@value #MAX_POINTS} points per line.
 */
final class SmcReport {
    static final int MAX_POINTS = 4000;

    private SmcReport() {
    }

    static String render(SmcConfig config, SmcResult result, KalmanFilter.Result kalman) {
        Map<String, Object> facts = new LinkedHashMap<>();
        facts.put("model", config.model().name());
        facts.put("filter", config.model().filter());
        facts.put("observations", result.source() + (result.online() ? " (followed)" : ""));
        facts.put("time steps", result.steps());
        facts.put("log-likelihood estimate log p̂(y)", String.format(Locale.ROOT, "%.4f", result.logLikelihood()));
        if (kalman != null) {
            facts.put("exact log-likelihood (Kalman)", String.format(Locale.ROOT, "%.4f", kalman.logLikelihood()));
        }
        facts.put("particles", config.particles());
        facts.put("blocks × block size", config.blocks() + " × " + config.options().blockSize());
        facts.put("partitions", config.partitions());
        facts.put("resampling", config.options().scheme().name().toLowerCase(Locale.ROOT) + " when ESS < "
                + config.options().essThreshold() + "·N (" + result.resamplings() + " of " + result.steps()
                + " steps)");
        facts.put("seed", config.seed());
        facts.put("seconds", String.format(Locale.ROOT, "%.1f", result.seconds()));
        HtmlReport report = new HtmlReport("sparkmc smc: " + config.model().name()).facts(facts);
        List<StepRow> rows = thin(result.rows());
        double[] t = rows.stream().mapToDouble(StepRow::time).toArray();
        double[] ess = rows.stream().mapToDouble(r -> r.summary().ess()).toArray();
        double tau = config.options().essThreshold() * config.particles();
        double first = t.length == 0 ? 0 : t[0];
        double last = t.length == 0 ? 1 : t[t.length - 1];
        report.section("Effective sample size", "<div class=\"plots\">" + Svg.chart(
                "ESS per step (dashed: resampling threshold τ·N)", 900, 240, List.of(
                        new Svg.Series(t, ess, Svg.COLOURS[0], false),
                        new Svg.Series(new double[] {first, last}, new double[] {tau, tau}, "#777", true)), "t")
                + "</div>");
        StringBuilder filtering = new StringBuilder("<p class=\"note\">Blue: filtering mean; light blue: ±2 sd"
                + (kalman != null ? "; orange dashed: the exact Kalman filter's mean and ±2 sd" : "")
                + (config.model().name().equals("local-level") ? "; grey: the observations" : "")
                + ".</p><div class=\"plots\">");
        List<String> names = config.model().stateNames();
        for (int k = 0; k < names.size(); k++) {
            filtering.append(Svg.chart("filtering mean of " + names.get(k) + " ± 2 sd", 900, 300,
                    componentSeries(config, rows, result, kalman, t, k), "t"));
        }
        filtering.append("</div>");
        report.section("Filtering distribution", filtering.toString());
        if (!config.model().name().equals("local-level")) {
            StringBuilder obs = new StringBuilder("<div class=\"plots\">");
            for (int c = 0; c < result.observationColumns().size(); c++) {
                int col = c;
                double[] y = rows.stream().mapToDouble(r -> r.observation()[col]).toArray();
                obs.append(Svg.chart(result.observationColumns().get(c), 900, 200,
                        List.of(new Svg.Series(t, y, "#888", false)), "t"));
            }
            report.section("Observations", obs.append("</div>").toString());
        }
        return report.render();
    }

    private static List<Svg.Series> componentSeries(SmcConfig config, List<StepRow> rows, SmcResult result,
            KalmanFilter.Result kalman, double[] t, int k) {
        int m = rows.size();
        double[] mean = new double[m];
        double[] lo = new double[m];
        double[] hi = new double[m];
        for (int i = 0; i < m; i++) {
            double mu = rows.get(i).summary().mean()[k];
            double sd = Math.sqrt(rows.get(i).summary().variance()[k]);
            mean[i] = mu;
            lo[i] = mu - 2 * sd;
            hi[i] = mu + 2 * sd;
        }
        List<Svg.Series> series = new ArrayList<>();
        if (config.model().name().equals("local-level")) {
            double[] y = rows.stream().mapToDouble(r -> r.observation()[0]).toArray();
            series.add(new Svg.Series(t, y, "#bbbbbb", false));
        }
        series.add(new Svg.Series(t, lo, "#9ecae1", false));
        series.add(new Svg.Series(t, hi, "#9ecae1", false));
        series.add(new Svg.Series(t, mean, Svg.COLOURS[0], false));
        if (kalman != null) {
            double[] km = new double[m];
            double[] klo = new double[m];
            double[] khi = new double[m];
            for (int i = 0; i < m; i++) {
                int s = rows.get(i).step();
                km[i] = kalman.means()[s][k];
                double sd = Math.sqrt(kalman.variance(s, k));
                klo[i] = km[i] - 2 * sd;
                khi[i] = km[i] + 2 * sd;
            }
            series.add(new Svg.Series(t, km, Svg.COLOURS[1], true));
            series.add(new Svg.Series(t, klo, Svg.COLOURS[1], true));
            series.add(new Svg.Series(t, khi, Svg.COLOURS[1], true));
        }
        return series;
    }

    /** Every row, or every k-th (and the last) so that at most {@value #MAX_POINTS} remain. */
    static List<StepRow> thin(List<StepRow> rows) {
        if (rows.size() <= MAX_POINTS) {
            return rows;
        }
        int stride = (rows.size() + MAX_POINTS - 1) / MAX_POINTS;
        List<StepRow> out = new ArrayList<>();
        for (int i = 0; i < rows.size(); i += stride) {
            out.add(rows.get(i));
        }
        if ((rows.size() - 1) % stride != 0) {
            out.add(rows.get(rows.size() - 1));
        }
        return out;
    }
}
