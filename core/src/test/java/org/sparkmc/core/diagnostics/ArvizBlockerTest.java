package org.sparkmc.core.diagnostics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * ArviZ's {@code blocker} fixture (2 CmdStan chains × 1000 draws, 48 variables) against
 * {@code reference_posterior.csv}, R posterior's values, one test per (variable, column), to {@value #REL_TOL}
 * relative (ArviZ itself asserts 1e-8).
 *
 * <p>Column meanings, established by matching: {@code rhat_rank} = {@code rhat}; {@code rhat_raw} =
 * {@code rhat_basic(split = FALSE)}; {@code ess_raw} = {@code ess_basic(split = FALSE)}; {@code ess_sd} is the
 * squared-deviation definition of posterior ≥ 1.7 ({@link EffectiveSampleSize#sd}); {@code mcse_sd} is the
 * Kenney–Keeping MCSE. The {@code mcse_median} and {@code mcse_quantileNN} values look rounded to the draws' printed
 * precision because posterior's {@code mcse_quantile} is half the difference of two order statistics of the draws.
 */
class ArvizBlockerTest {
    static final double REL_TOL = 1e-10;

    private static final Map<String, ToDoubleFunction<double[][]>> COLUMNS = new LinkedHashMap<>();

    static {
        COLUMNS.put("rhat_rank", Rhat::rhat);
        COLUMNS.put("rhat_raw", x -> Rhat.basic(x, false));
        COLUMNS.put("ess_bulk", EffectiveSampleSize::bulk);
        COLUMNS.put("ess_tail", EffectiveSampleSize::tail);
        COLUMNS.put("ess_mean", EffectiveSampleSize::mean);
        COLUMNS.put("ess_sd", EffectiveSampleSize::sd);
        COLUMNS.put("ess_median", EffectiveSampleSize::median);
        COLUMNS.put("ess_raw", x -> EffectiveSampleSize.basic(x, false));
        COLUMNS.put("ess_quantile01", x -> EffectiveSampleSize.quantile(x, 0.01));
        COLUMNS.put("ess_quantile10", x -> EffectiveSampleSize.quantile(x, 0.10));
        COLUMNS.put("ess_quantile30", x -> EffectiveSampleSize.quantile(x, 0.30));
        COLUMNS.put("mcse_mean", MonteCarloStandardError::mean);
        COLUMNS.put("mcse_sd", MonteCarloStandardError::sd);
        COLUMNS.put("mcse_median", MonteCarloStandardError::median);
        COLUMNS.put("mcse_quantile01", x -> MonteCarloStandardError.quantile(x, 0.01));
        COLUMNS.put("mcse_quantile10", x -> MonteCarloStandardError.quantile(x, 0.10));
        COLUMNS.put("mcse_quantile30", x -> MonteCarloStandardError.quantile(x, 0.30));
    }

    private static List<Map<String, double[]>> chains;
    private static String[] referenceHeader;
    private static Map<String, String[]> reference;

    private static synchronized void load() {
        if (reference != null) {
            return;
        }
        try {
            Path dir = SharedData.diagnostics().resolve("arviz_blocker");
            chains = List.of(SharedData.readCmdStanCsv(dir.resolve("blocker.1.csv")),
                    SharedData.readCmdStanCsv(dir.resolve("blocker.2.csv")));
            List<String> lines = Files.readAllLines(dir.resolve("reference_posterior.csv"));
            referenceHeader = unquote(lines.get(0).split(","));
            Map<String, String[]> rows = new LinkedHashMap<>();
            for (String line : lines.subList(1, lines.size())) {
                if (!line.isBlank()) {
                    String[] f = unquote(line.split(","));
                    rows.put(f[0], f);
                }
            }
            reference = rows;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String[] unquote(String[] fields) {
        for (int i = 0; i < fields.length; i++) {
            fields[i] = fields[i].trim().replace("\"", "");
        }
        return fields;
    }

    static Stream<Arguments> cells() {
        load();
        List<Arguments> out = new ArrayList<>();
        for (String variable : reference.keySet()) {
            for (int j = 1; j < referenceHeader.length; j++) {
                out.add(Arguments.of(variable, referenceHeader[j]));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cells")
    void matchesPosterior(String variable, String column) {
        ToDoubleFunction<double[][]> statistic = COLUMNS.get(column);
        assertTrue(statistic != null, "reference column " + column + " has no statistic mapped");
        int j = List.of(referenceHeader).indexOf(column);
        double expected = Double.parseDouble(reference.get(variable)[j]);
        double actual = statistic.applyAsDouble(SharedData.variable(chains, variable));
        SharedData.assertRelativelyClose(variable + " " + column, expected, actual, REL_TOL);
    }

    @Test
    void fixtureShape() {
        load();
        assertEquals(2, chains.size());
        assertEquals(48, reference.size(), "variables in reference_posterior.csv");
        for (Map<String, double[]> chain : chains) {
            assertEquals(1000, chain.get("d").length, "draws per chain");
        }
    }
}
