package org.sparkmc.core.diagnostics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every posterior 1.4.0 value in {@code shared/data/diagnostics/expected_values.json} (4 cases × 4 chains × 1000
 * draws), one test per (case, statistic), to {@value #REL_TOL} relative. {@code posterior_ess_sd_HEAD_sqdev} is
 * posterior ≥ 1.7's {@code ess_sd} ({@link EffectiveSampleSize#sd}); {@code posterior_ess_sd_v1.4.0_absdev} is
 * 1.4's ({@link EffectiveSampleSize#sdAbsoluteDeviation}). {@code posterior_mcse_sd} is 1.4's Kenney–Keeping
 * {@code mcse_sd}. The coda_* and mcmc_initseq_* entries are other packages' estimators and are not compared.
 */
class PosteriorVectorsTest {
    static final double REL_TOL = 1e-10;

    private static final Map<String, ToDoubleFunction<double[][]>> STATISTICS = new LinkedHashMap<>();

    static {
        STATISTICS.put("mean", PooledStatistics::mean);
        STATISTICS.put("sd", PooledStatistics::sd);
        STATISTICS.put("quantile2_q5", x -> PooledStatistics.quantile(x, 0.05));
        STATISTICS.put("quantile2_q95", x -> PooledStatistics.quantile(x, 0.95));
        STATISTICS.put("posterior_rhat", Rhat::rhat);
        STATISTICS.put("posterior_rhat_bulk_component", Rhat::bulk);
        STATISTICS.put("posterior_rhat_tail_component", Rhat::tail);
        STATISTICS.put("posterior_rhat_basic_split", x -> Rhat.basic(x, true));
        STATISTICS.put("posterior_rhat_basic_nosplit", x -> Rhat.basic(x, false));
        STATISTICS.put("posterior_ess_bulk", EffectiveSampleSize::bulk);
        STATISTICS.put("posterior_ess_tail", EffectiveSampleSize::tail);
        STATISTICS.put("posterior_ess_quantile_q5", x -> EffectiveSampleSize.quantile(x, 0.05));
        STATISTICS.put("posterior_ess_quantile_q95", x -> EffectiveSampleSize.quantile(x, 0.95));
        STATISTICS.put("posterior_ess_median", EffectiveSampleSize::median);
        STATISTICS.put("posterior_ess_basic_split", x -> EffectiveSampleSize.basic(x, true));
        STATISTICS.put("posterior_ess_basic_nosplit", x -> EffectiveSampleSize.basic(x, false));
        STATISTICS.put("posterior_ess_mean", EffectiveSampleSize::mean);
        STATISTICS.put("posterior_ess_sd_v1.4.0_absdev", EffectiveSampleSize::sdAbsoluteDeviation);
        STATISTICS.put("posterior_ess_sd_HEAD_sqdev", EffectiveSampleSize::sd);
        STATISTICS.put("posterior_mcse_mean", MonteCarloStandardError::mean);
        STATISTICS.put("posterior_mcse_sd", MonteCarloStandardError::sd);
        STATISTICS.put("posterior_mcse_median", MonteCarloStandardError::median);
        STATISTICS.put("posterior_mcse_quantile_q5", x -> MonteCarloStandardError.quantile(x, 0.05));
        STATISTICS.put("posterior_mcse_quantile_q95", x -> MonteCarloStandardError.quantile(x, 0.95));
    }

    /** Summary record fields and the reference key each must equal. */
    private static final Map<String, String> FULL_SUMMARY_KEYS = new LinkedHashMap<>();
    private static final Map<String, String> SUMMARY_KEYS = new LinkedHashMap<>();

    static {
        FULL_SUMMARY_KEYS.put("mean", "mean");
        FULL_SUMMARY_KEYS.put("sd", "sd");
        FULL_SUMMARY_KEYS.put("q5", "quantile2_q5");
        FULL_SUMMARY_KEYS.put("q95", "quantile2_q95");
        FULL_SUMMARY_KEYS.put("rhat", "posterior_rhat");
        FULL_SUMMARY_KEYS.put("rhatBasic", "posterior_rhat_basic_split");
        FULL_SUMMARY_KEYS.put("essBulk", "posterior_ess_bulk");
        FULL_SUMMARY_KEYS.put("essTail", "posterior_ess_tail");
        FULL_SUMMARY_KEYS.put("essBasic", "posterior_ess_basic_split");
        FULL_SUMMARY_KEYS.put("essMean", "posterior_ess_mean");
        FULL_SUMMARY_KEYS.put("essSd", "posterior_ess_sd_HEAD_sqdev");
        FULL_SUMMARY_KEYS.put("essQ5", "posterior_ess_quantile_q5");
        FULL_SUMMARY_KEYS.put("essQ95", "posterior_ess_quantile_q95");
        FULL_SUMMARY_KEYS.put("essMedian", "posterior_ess_median");
        FULL_SUMMARY_KEYS.put("mcseMean", "posterior_mcse_mean");
        FULL_SUMMARY_KEYS.put("mcseSd", "posterior_mcse_sd");
        FULL_SUMMARY_KEYS.put("mcseQ5", "posterior_mcse_quantile_q5");
        FULL_SUMMARY_KEYS.put("mcseQ95", "posterior_mcse_quantile_q95");
        FULL_SUMMARY_KEYS.put("mcseMedian", "posterior_mcse_median");
        SUMMARY_KEYS.put("mean", "mean");
        SUMMARY_KEYS.put("sd", "sd");
        SUMMARY_KEYS.put("q5", "quantile2_q5");
        SUMMARY_KEYS.put("q95", "quantile2_q95");
        SUMMARY_KEYS.put("rhat", "posterior_rhat");
        SUMMARY_KEYS.put("essBulk", "posterior_ess_bulk");
        SUMMARY_KEYS.put("essTail", "posterior_ess_tail");
        SUMMARY_KEYS.put("mcseMean", "posterior_mcse_mean");
    }

    private static JsonNode cases;
    private static final Map<String, double[][]> DRAWS = new HashMap<>();

    static synchronized JsonNode cases() {
        if (cases == null) {
            try {
                cases = new ObjectMapper().readTree(SharedData.diagnostics().resolve("expected_values.json").toFile())
                        .get("cases");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return cases;
    }

    static synchronized double[][] draws(String caseName) {
        return DRAWS.computeIfAbsent(caseName, n -> {
            try {
                double[][] x = SharedData.readLongCsv(SharedData.diagnostics().resolve(n + ".csv"));
                JsonNode c = cases().get(n);
                assertEquals(c.get("n_chains").asInt(), x.length, n + ": chains");
                assertEquals(c.get("n_draws_per_chain").asInt(), x[0].length, n + ": draws per chain");
                return x;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    static List<String> caseNames() {
        List<String> names = new ArrayList<>();
        cases().fieldNames().forEachRemaining(names::add);
        return names;
    }

    static Stream<Arguments> statistics() {
        List<Arguments> out = new ArrayList<>();
        for (String c : caseNames()) {
            for (String key : STATISTICS.keySet()) {
                out.add(Arguments.of(c, key));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("statistics")
    void matchesPosterior(String caseName, String key) {
        JsonNode expected = cases().get(caseName).get(key);
        assertTrue(expected != null && expected.isNumber(), caseName + " has no numeric " + key);
        double actual = STATISTICS.get(key).applyAsDouble(draws(caseName));
        SharedData.assertRelativelyClose(caseName + " " + key, expected.asDouble(), actual, REL_TOL);
    }

    /** Guards against a new reference key being silently skipped. */
    @Test
    void everyPosteriorKeyIsCompared() {
        for (String c : caseNames()) {
            Iterator<String> keys = cases().get(c).fieldNames();
            while (keys.hasNext()) {
                String key = keys.next();
                boolean skipped = key.startsWith("coda_") || key.startsWith("mcmc_initseq_")
                        || key.startsWith("trace_") || key.startsWith("n_");
                assertTrue(skipped || STATISTICS.containsKey(key), c + ": key " + key + " is not compared");
            }
        }
    }

    static Stream<Arguments> summaryFields() {
        List<Arguments> out = new ArrayList<>();
        for (String c : caseNames()) {
            for (String field : FULL_SUMMARY_KEYS.keySet()) {
                out.add(Arguments.of(c, "full", field));
            }
            for (String field : SUMMARY_KEYS.keySet()) {
                out.add(Arguments.of(c, "short", field));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} summary {2}")
    @MethodSource("summaryFields")
    void summaryRecordsMatchPosterior(String caseName, String kind, String field) throws Exception {
        double[][] x = draws(caseName);
        Object record = kind.equals("full") ? FullParameterSummary.of(caseName, x) : ParameterSummary.of(caseName, x);
        String key = (kind.equals("full") ? FULL_SUMMARY_KEYS : SUMMARY_KEYS).get(field);
        double actual = (double) record.getClass().getMethod(field).invoke(record);
        SharedData.assertRelativelyClose(caseName + " " + kind + " summary " + field,
                cases().get(caseName).get(key).asDouble(), actual, REL_TOL);
    }

    static Stream<Arguments> traces() {
        List<Arguments> out = new ArrayList<>();
        for (String c : caseNames()) {
            out.add(Arguments.of(c, "trace_ess_bulk"));
            out.add(Arguments.of(c, "trace_ess_basic_split"));
        }
        return out.stream();
    }

    /** The intermediates of posterior's .ess (W, var⁺, truncation lag, τ̂, ρ̂ after the monotone step). */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("traces")
    void essIntermediatesMatchPosterior(String caseName, String traceKey) {
        double[][] x = draws(caseName);
        double[][] chains = traceKey.equals("trace_ess_bulk")
                ? PooledDraws.of(x).rankNormalizedSplit() : Draws.split(x);
        GeyerEss est = GeyerEss.estimate(chains);
        JsonNode t = cases().get(caseName).get(traceKey);
        String at = caseName + " " + traceKey + " ";
        assertEquals(t.get("n_chains").asInt(), est.chains(), at + "n_chains");
        assertEquals(t.get("n_per_chain").asInt(), est.iterations(), at + "n_per_chain");
        assertEquals(t.get("max_t_lag").asInt(), est.maxLag(), at + "max_t_lag");
        SharedData.assertRelativelyClose(at + "mean_var_W", t.get("mean_var_W").asDouble(), est.meanVariance(),
                REL_TOL);
        SharedData.assertRelativelyClose(at + "var_plus", t.get("var_plus").asDouble(), est.varPlus(), REL_TOL);
        SharedData.assertRelativelyClose(at + "tau_hat_uncapped", t.get("tau_hat_uncapped").asDouble(),
                est.tauUncapped(), REL_TOL);
        SharedData.assertRelativelyClose(at + "tau_bound", t.get("tau_bound").asDouble(), est.tauBound(), REL_TOL);
        SharedData.assertRelativelyClose(at + "ess", t.get("ess").asDouble(), est.ess(), REL_TOL);
        JsonNode rho = t.get("rho_hat_after_monotone_first12");
        for (int lag = 0; lag < rho.size(); lag++) {
            double expected = rho.get(lag).asDouble();
            assertEquals(expected, est.rho()[lag], 1e-12, at + "rho lag " + lag);
        }
    }
}
