package org.sparkmc.spark.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.diagnostics.FullParameterSummary;
import org.sparkmc.core.diagnostics.ParameterSummary;

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
     * Chains that never left the start they share: every quantity passes alone as a constant, and lp__ fails them as a
     * whole (the chains job called such a run converged). Without lp__ (diagnose of chosen columns) constants pass.
     */
    @Test
    void drawsInWhichNothingMovedFailAtLpWhenLpIsThere() {
        double[][] start = {{0.5, 0.5, 0.5, 0.5}, {0.5, 0.5, 0.5, 0.5}};
        double[][] lp = {{-3, -3, -3, -3}, {-3, -3, -3, -3}};
        List<ParameterSummary> stuck = List.of(ParameterSummary.of("beta", start), ParameterSummary.of("lp__", lp));
        assertEquals(java.util.Map.of("lp__", List.of(Thresholds.NONE_MOVED)), DEFAULTS.failing(stuck));
        assertFalse(DEFAULTS.allPass(stuck));
        assertTrue(DEFAULTS.allPass(List.of(ParameterSummary.of("beta", start))));
        double[][] moved = {{-3, -2.9, -3.1, -3}, {-3.05, -3, -2.95, -3}};
        assertFalse(Thresholds.noneMoved(List.of(ParameterSummary.of("beta", start),
                ParameterSummary.of("lp__", moved))));
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
