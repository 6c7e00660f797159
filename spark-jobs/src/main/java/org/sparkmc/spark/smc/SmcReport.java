package org.sparkmc.spark.smc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.sparkmc.core.smc.models.KalmanFilter;
import org.sparkmc.spark.report.Chart;
import org.sparkmc.spark.report.HtmlReport;
import org.sparkmc.spark.report.Svg;

/**
 * The {@code smc} job's report.html: run facts, the ESS over time against the resampling threshold, and per state
 * component the filtering mean with a shaded ±2 sd band — over the observations for the local-level model, and under
 * the exact Kalman filter's mean and ±2 sd (dashed) for linear-Gaussian models. Long series are thinned to at most
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
        long last = config.particles() - (long) (config.blocks() - 1) * config.options().blockSize();
        facts.put("blocks × block size", config.blocks() == 1 || last == config.options().blockSize()
                ? config.blocks() + " × " + config.options().blockSize()
                : (config.blocks() - 1) + " × " + config.options().blockSize() + " + 1 × " + last);
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
        report.section("Effective sample size", "<div class=\"plots\">"
                + new Chart("ESS per step", 900, 240).xLabel("t").yFromZero().line(t, ess, Svg.COLOURS[0], "ESS")
                        .level(tau, "#777", "resampling threshold τ·N").svg()
                + "</div>");
        StringBuilder filtering = new StringBuilder("<div class=\"plots\">");
        List<String> names = config.model().stateNames();
        for (int k = 0; k < names.size(); k++) {
            filtering.append(componentChart(config, rows, kalman, t, k, names.get(k)));
        }
        filtering.append("</div>");
        report.section("Filtering distribution", filtering.toString());
        if (!config.model().name().equals("local-level")) {
            StringBuilder obs = new StringBuilder("<div class=\"plots\">");
            for (int c = 0; c < result.observationColumns().size(); c++) {
                int col = c;
                double[] y = rows.stream().mapToDouble(r -> r.observation()[col]).toArray();
                obs.append(new Chart(result.observationColumns().get(c), 900, 200).xLabel("t")
                        .line(t, y, "#888", null).svg());
            }
            report.section("Observations", obs.append("</div>").toString());
        }
        return report.render();
    }

    /**
     * One state component's filtering mean with its ±2 sd band and, when known, the exact Kalman filter's. Drawn so
     * that all stay visible where they coincide: the particle band shaded and translucent, the particle mean solid,
     * then the Kalman band edges and mean dashed on top, so the solid line shows through their gaps.
     */
    static String componentChart(SmcConfig config, List<StepRow> rows, KalmanFilter.Result kalman, double[] t,
            int k, String name) {
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
        Chart chart = new Chart("filtering mean of " + name + " ± 2 sd", 900, 300).xLabel("t");
        if (config.model().name().equals("local-level")) {
            chart.line(t, rows.stream().mapToDouble(r -> r.observation()[0]).toArray(), "#bbbbbb", "observations");
        }
        chart.band(t, lo, hi, Svg.COLOURS[0], "particle ±2 sd").line(t, mean, Svg.COLOURS[0], "particle mean");
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
            chart.dashed(t, klo, Svg.COLOURS[5], "Kalman ±2 sd").dashed(t, khi, Svg.COLOURS[5], null)
                    .dashed(t, km, Svg.COLOURS[1], "Kalman mean");
        }
        return chart.svg();
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
