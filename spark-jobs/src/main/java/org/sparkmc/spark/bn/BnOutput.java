package org.sparkmc.spark.bn;

import static org.sparkmc.spark.diagnose.SummaryFiles.csvField;
import static org.sparkmc.spark.diagnose.SummaryFiles.csvNumber;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sparkmc.spark.diagnose.SummaryFiles;
import org.sparkmc.spark.io.AtomicOutput;

/**
 * Writes a {@code bn} run into an {@link AtomicOutput} (the caller commits): {@code summary.json} (run facts, and
 * per query variable and state the probability, standard error, ESS, exact value and, for Gibbs, R-hat),
 * {@code summary.csv} (one row per query variable and state) and {@code report.html}.
 */
public final class BnOutput {
    /** The columns of summary.csv. */
    public static final List<String> CSV_COLUMNS = List.of("variable", "state", "probability", "se", "ess", "rhat",
            "exact");

    private BnOutput() {
    }

    public static void write(AtomicOutput out, BnConfig config, BnResult result) {
        out.writeText("summary.json", summaryJson(config, result));
        out.writeText("summary.csv", summaryCsv(result));
        out.writeText("report.html", BnReport.render(config, result));
    }

    static String summaryJson(BnConfig config, BnResult result) {
        Map<String, Object> top = new LinkedHashMap<>();
        top.put("job", "bn");
        top.put("network", config.networkPath());
        top.put("network_name", config.net().name());
        top.put("method", config.method().option());
        top.put("evidence", config.evidenceText());
        top.put("samples", result.samples());
        top.put("ess", SummaryFiles.finite(result.ess()));
        top.put("seconds", result.seconds());
        top.put("seed", config.seed());
        top.put("partitions", result.partitions());
        if (config.method().weighted()) {
            top.put("block_size", config.blockSize());
        }
        if (config.method() == BnMethod.GIBBS) {
            top.put("chains", config.chains());
            top.put("warmup_per_chain", config.warmup());
            top.put("draws_per_chain", config.draws());
            top.put("max_rhat", config.maxRhat());
            top.put("min_ess", config.minEss());
            top.put("converged", result.converged());
        }
        Map<String, Object> pe = new LinkedHashMap<>();
        pe.put("estimate", SummaryFiles.finite(result.evidenceProbability()));
        pe.put("se", SummaryFiles.finite(result.evidenceProbabilitySe()));
        pe.put("exact", SummaryFiles.finite(result.exactEvidenceProbability()));
        top.put("evidence_probability", pe);
        top.put("exact_computed", result.queries().get(0).exact() != null);
        List<Map<String, Object>> queries = new ArrayList<>();
        for (QueryResult q : result.queries()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("variable", q.variable());
            List<Map<String, Object>> states = new ArrayList<>();
            for (int s = 0; s < q.states().length; s++) {
                Map<String, Object> st = new LinkedHashMap<>();
                st.put("state", q.states()[s]);
                st.put("probability", q.probabilities()[s]);
                st.put("se", SummaryFiles.finite(q.standardErrors()[s]));
                st.put("ess", SummaryFiles.finite(q.ess()[s]));
                if (q.rhat() != null) {
                    st.put("rhat", SummaryFiles.finite(q.rhat()[s]));
                }
                if (q.exact() != null) {
                    st.put("exact", q.exact()[s]);
                }
                states.add(st);
            }
            m.put("states", states);
            queries.add(m);
        }
        top.put("queries", queries);
        if (!result.indicators().isEmpty()) {
            top.put("indicators", SummaryFiles.json(result.indicators()));
        }
        List<Map<String, Object>> history = new ArrayList<>();
        for (BnResult.Step step : result.history()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("step", step.step());
            m.put(config.method() == BnMethod.GIBBS ? "draws_per_chain" : "samples", step.samples());
            if (config.method() == BnMethod.GIBBS) {
                m.put("max_rhat", SummaryFiles.summaryJson(step.maxRhat()));
            }
            m.put("min_ess", SummaryFiles.finite(step.minEss()));
            m.put("seconds", step.seconds());
            history.add(m);
        }
        top.put("history", history);
        return SummaryFiles.render(top);
    }

    static String summaryCsv(BnResult result) {
        StringBuilder csv = new StringBuilder(String.join(",", CSV_COLUMNS)).append('\n');
        for (QueryResult q : result.queries()) {
            for (int s = 0; s < q.states().length; s++) {
                csv.append(csvField(q.variable())).append(',').append(csvField(q.states()[s]));
                csv.append(',').append(csvNumber(q.probabilities()[s]));
                csv.append(',').append(csvNumber(q.standardErrors()[s]));
                csv.append(',').append(csvNumber(q.ess()[s]));
                csv.append(',').append(csvNumber(q.rhat() == null ? Double.NaN : q.rhat()[s]));
                csv.append(',').append(csvNumber(q.exact() == null ? Double.NaN : q.exact()[s]));
                csv.append('\n');
            }
        }
        return csv.toString();
    }

}
