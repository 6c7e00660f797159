package org.sparkmc.spark.diagnose;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.sparkmc.core.diagnostics.FullParameterSummary;

/**
 * {@code summary.csv} and {@code summary.json}: one row per parameter with the columns of R's
 * {@code posterior::summarise_draws} (its default summaries, then every convergence diagnostic), named as there
 * except that the first columns are {@code name, mean, sd, q5, q50, q95, rhat, ess_bulk, ess_tail, mcse_mean};
 * undefined values (posterior's NA) are {@code NA} in CSV and {@code null} in JSON, and an infinite one (posterior's
 * {@code Inf}: R-hat where each chain is stuck at a value of its own) is {@code Inf} in CSV and reports and the
 * string {@code "Inf"} in JSON, which has no number for it.
 */
public final class SummaryFiles {
    public static final List<String> COLUMNS = List.of("name", "mean", "sd", "q5", "q50", "q95", "rhat", "ess_bulk",
            "ess_tail", "mcse_mean", "mad", "rhat_basic", "ess_basic", "ess_mean", "ess_sd", "ess_median", "ess_q5",
            "ess_q95", "mcse_sd", "mcse_median", "mcse_q5", "mcse_q95");

    private SummaryFiles() {
    }

    static double[] values(FullParameterSummary s) {
        return new double[] {s.mean(), s.sd(), s.q5(), s.median(), s.q95(), s.rhat(), s.essBulk(), s.essTail(),
            s.mcseMean(), s.mad(), s.rhatBasic(), s.essBasic(), s.essMean(), s.essSd(), s.essMedian(), s.essQ5(),
            s.essQ95(), s.mcseSd(), s.mcseMedian(), s.mcseQ5(), s.mcseQ95()};
    }

    public static String csv(List<FullParameterSummary> summaries) {
        StringBuilder csv = new StringBuilder(String.join(",", COLUMNS)).append('\n');
        for (FullParameterSummary s : summaries) {
            String name = s.name();
            csv.append(csvField(name));
            for (double v : values(s)) {
                csv.append(',').append(summaryNumber(v));
            }
            csv.append('\n');
        }
        return csv.toString();
    }

    /** The parameters as JSON objects, for a job's summary.json. */
    public static List<Map<String, Object>> json(List<FullParameterSummary> summaries) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (FullParameterSummary s : summaries) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("name", s.name());
            double[] v = values(s);
            for (int i = 0; i < v.length; i++) {
                p.put(COLUMNS.get(i + 1), summaryJson(v[i]));
            }
            out.add(p);
        }
        return out;
    }

    /** Renders a summary.json document. */
    public static String render(Map<String, Object> document) {
        try {
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(document) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render summary.json", e);
        }
    }

    /**
     * A number in a CSV summary: the shortest decimal that reads back as the same double (as in the JSON summary;
     * ten significant digits hid the spread of values near 1e12), NA where undefined.
     */
    public static String csvNumber(double v) {
        return Double.isFinite(v) ? Double.toString(v) : "NA";
    }

    /**
     * A summary's number in CSV ({@link #csvNumber}), but an infinite one as posterior writes it: {@code Inf} or
     * {@code -Inf} (R and pandas read both back as infinity); NA where undefined.
     */
    public static String summaryNumber(double v) {
        return Double.isInfinite(v) ? infinity(v) : csvNumber(v);
    }

    /** A summary's number in JSON: the number; null where undefined; the string Inf or -Inf where infinite. */
    public static Object summaryJson(double v) {
        return Double.isInfinite(v) ? infinity(v) : finite(v);
    }

    /** A summary's number for people ({@link #formatted}), but Inf or -Inf where infinite, as in summary.csv. */
    public static String summaryShown(double v, String format) {
        return Double.isInfinite(v) ? infinity(v) : formatted(v, format);
    }

    private static String infinity(double v) {
        return v > 0 ? "Inf" : "-Inf";
    }

    /** A number for people (reports, progress lines) in {@code format}, or NA where undefined, as the CSVs say. */
    public static String formatted(double v, String format) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, format, v) : "NA";
    }

    /** A text field in CSV, quoted (with doubled quotes) when it holds a comma or a quote. */
    public static String csvField(String s) {
        return s.contains(",") || s.contains("\"") ? '"' + s.replace("\"", "\"\"") + '"' : s;
    }

    /** A double for JSON: null where undefined. */
    public static Object finite(double v) {
        return Double.isFinite(v) ? v : null;
    }
}
