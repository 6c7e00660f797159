package org.sparkmc.core.diagnostics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Stan's {@code bern} fixture (4 CmdStan chains × 1000 draws) against the table in its {@code EXPECTED.md}. Each
 * value must agree within the tighter of two bounds: the tolerance the table states (relative), and half a unit
 * in the last printed digit of the expected value (the most its rounding allows).
 */
class StanBernTest {
    private static List<Map<String, double[]>> chains;

    private static synchronized List<Map<String, double[]>> chains() {
        if (chains == null) {
            try {
                Path dir = SharedData.diagnostics().resolve("stan_bern");
                List<Map<String, double[]>> files = new ArrayList<>();
                for (int i = 1; i <= 4; i++) {
                    files.add(SharedData.readCmdStanCsv(dir.resolve("bern" + i + ".csv")));
                }
                chains = files;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return chains;
    }

    /** Maps the table's quantity label to the statistic; fails on a label it does not know. */
    private static ToDoubleFunction<double[][]> statistic(String label) {
        if (label.startsWith("rhat =")) {
            return Rhat::rhat;
        } else if (label.startsWith("ess_bulk")) {
            return EffectiveSampleSize::bulk;
        } else if (label.startsWith("ess_tail")) {
            return EffectiveSampleSize::tail;
        } else if (label.startsWith("rhat_basic on split")) {
            return x -> Rhat.basic(x, true);
        } else if (label.startsWith("ess_basic, chains NOT split")) {
            return x -> EffectiveSampleSize.basic(x, false);
        } else if (label.startsWith("mcse_mean")) {
            return MonteCarloStandardError::mean;
        }
        throw new AssertionError("EXPECTED.md row not understood: " + label);
    }

    static Stream<Arguments> rows() throws IOException {
        List<String> lines = Files.readAllLines(SharedData.diagnostics().resolve("stan_bern/EXPECTED.md"));
        List<Arguments> out = new ArrayList<>();
        String[] columns = null;
        for (String line : lines) {
            if (!line.startsWith("|") || line.startsWith("|---")) {
                continue;
            }
            String[] f = line.substring(1, line.lastIndexOf('|')).split("\\|");
            for (int i = 0; i < f.length; i++) {
                f[i] = f[i].trim();
            }
            if (columns == null) {
                columns = f; // quantity | lp__ | theta | tolerance
                continue;
            }
            for (int j = 1; j < columns.length - 1; j++) {
                out.add(Arguments.of(f[0], columns[j], f[j], Double.parseDouble(f[columns.length - 1])));
            }
        }
        assertEquals(12, out.size(), "6 quantities × 2 variables in EXPECTED.md");
        return out.stream();
    }

    @ParameterizedTest(name = "{1}: {0}")
    @MethodSource("rows")
    void matchesExpected(String quantity, String variable, String printed, double statedTolerance) {
        double expected = Double.parseDouble(printed);
        double actual = statistic(quantity).applyAsDouble(SharedData.variable(chains(), variable));
        double halfLastDigit = 0.5 * Math.pow(10, -new BigDecimal(printed).scale());
        double diff = Math.abs(actual - expected);
        assertTrue(diff <= halfLastDigit * (1 + 1e-9),
                String.format("%s %s: expected %s, got %.15g; differs by %.3g, more than the printed precision %.1g",
                        variable, quantity, printed, actual, diff, halfLastDigit));
        SharedData.assertRelativelyClose(variable + " " + quantity, expected, actual, statedTolerance);
    }
}
