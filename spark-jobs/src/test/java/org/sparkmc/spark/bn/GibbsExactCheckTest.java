package org.sparkmc.spark.bn;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.diagnostics.FullParameterSummary;

/**
 * The Gibbs estimate's check against the exact probability, on indicator draws made here: independent draws of the
 * exact probability pass (fixed seed; a false-failure rate under 1e-5 each, see {@link GibbsExactCheck}), draws of
 * another probability fail, and a state never visited passes only where that is likely.
 */
class GibbsExactCheckTest {
    private static final int CHAINS = 4;
    private static final int DRAWS = 10_000;
    private static final long N = (long) CHAINS * DRAWS;

    /** 4 × 10,000 independent 0/1 draws of probability p. */
    private static FullParameterSummary indicator(double p, long seed) {
        UniformRandomProvider rng = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
        double[][] draws = new double[CHAINS][DRAWS];
        for (double[] chain : draws) {
            for (int t = 0; t < DRAWS; t++) {
                chain[t] = rng.nextDouble() < p ? 1 : 0;
            }
        }
        return FullParameterSummary.of("X=s", draws);
    }

    @Test
    void drawsOfTheExactProbabilityPassAndOthersFail() {
        for (double p : new double[] {0.3, 0.02, 0.0005}) {
            assertNull(GibbsExactCheck.failure(indicator(p, 11), p, N, false), "p " + p);
        }
        String off = GibbsExactCheck.failure(indicator(0.33, 12), 0.3, N, false);
        assertNotNull(off, "0.33 against 0.3: 13 SEs");
        assertTrue(off.contains("SE from the exact 0.3000 (the SE √(p(1 − p)/ESS) at the exact p; the chains move "
                + "too slowly"), off);
        String reducible = GibbsExactCheck.failure(indicator(0.33, 12), 0.3, N, true);
        assertTrue(reducible.contains("a table with zero entries can make Gibbs sampling reducible"), reducible);
    }

    /**
     * Never visited: at p = 10^-4 that happens in 4 × 10,000 draws with probability e^-4 (it failed as "the same in
     * every draw"), at p = 0.05 with 1e-891; an exact 0 or 1 always passes.
     */
    @Test
    void aStateNeverVisitedFailsOnlyWhereThatIsUnlikely() {
        FullParameterSummary never = FullParameterSummary.of("X=s", new double[CHAINS][DRAWS]);
        assertNull(GibbsExactCheck.failure(never, 1e-4, N, false));
        assertNull(GibbsExactCheck.failure(never, 0, N, false));
        String unlikely = GibbsExactCheck.failure(never, 0.05, N, true);
        assertNotNull(unlikely);
        assertTrue(unlikely.startsWith("the same in every draw of every chain (a state never visited, or never "
                + "left), which 40,000 draws would show with probability 10^-891 at the exact 0.05 (the chains may not "
                + "reach every state"), unlikely);
        double[][] ones = new double[CHAINS][DRAWS];
        for (double[] chain : ones) {
            java.util.Arrays.fill(chain, 1);
        }
        FullParameterSummary always = FullParameterSummary.of("X=s", ones);
        assertNull(GibbsExactCheck.failure(always, 1, N, false));
        assertNull(GibbsExactCheck.failure(always, 1 - 1e-5, N, false));
        assertNotNull(GibbsExactCheck.failure(always, 0.999, N, false));
    }
}
