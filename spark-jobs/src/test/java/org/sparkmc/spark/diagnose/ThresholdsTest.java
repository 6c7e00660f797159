package org.sparkmc.spark.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.diagnostics.FullParameterSummary;

/**
 * The one convergence verdict on summaries of real draws, where posterior's NA decides: these cases are exact (no
 * sampling error: constant, stuck or too-short draws), bar the indicator: 4 chains of 5,000 independent draws, whose
 * bulk ESS is about 20,000 and R-hat about 1.0001, so a fresh seed would fail ESS > 10,000 or R-hat < 1.01 far less
 * often than once in 10^6 (the seed is fixed).
 */
class ThresholdsTest {
    private static final Thresholds DEFAULTS = new Thresholds(1.01, 400);

    @Test
    void aQuantityConstantInEveryDrawPasses() {
        double[][] draws = {{7, 7, 7, 7, 7, 7}, {7, 7, 7, 7, 7, 7}};
        FullParameterSummary s = FullParameterSummary.of("k", draws);
        assertTrue(Double.isNaN(s.rhat()) && Thresholds.constant(s));
        assertEquals(List.of(), DEFAULTS.failures(s));
    }

    @Test
    void chainsStuckAtValuesOfTheirOwnFail() {
        double[][] draws = {{1, 1, 1, 1, 1, 1}, {2, 2, 2, 2, 2, 2}};
        FullParameterSummary s = FullParameterSummary.of("b", draws);
        assertTrue(Double.isNaN(s.rhat()) && !Thresholds.constant(s), "posterior's max(Inf, NA) is NA");
        assertTrue(DEFAULTS.failures(s).get(0).startsWith("R-hat undefined"), DEFAULTS.failures(s).toString());
    }

    @Test
    void chainsTooShortToSplitFail() {
        double[][] draws = {{0.1, 0.2, 0.3}, {0.15, 0.25, 0.35}};
        FullParameterSummary s = FullParameterSummary.of("a", draws);
        List<String> why = DEFAULTS.failures(s);
        assertTrue(!why.isEmpty() && why.get(0).startsWith("R-hat undefined"), why.toString());
    }

    /**
     * A common 0/1 indicator: its 5% and 95% quantiles are both 1, its maximum, so its tail ESS is NA, and it still
     * passes.
     */
    @Test
    void anUndefinedTailEssAloneDoesNotFail() {
        SplittableRandom random = new SplittableRandom(17);
        double[][] draws = new double[4][5000];
        for (double[] chain : draws) {
            for (int i = 0; i < chain.length; i++) {
                chain[i] = random.nextDouble() < 0.97 ? 1 : 0;
            }
        }
        FullParameterSummary s = FullParameterSummary.of("common", draws);
        assertTrue(Double.isNaN(s.essTail()) && s.essBulk() > 10_000 && s.rhat() < 1.01, s.toString());
        assertEquals(List.of(), DEFAULTS.failures(s));
    }
}
