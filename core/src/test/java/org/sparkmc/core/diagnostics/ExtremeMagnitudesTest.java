package org.sparkmc.core.diagnostics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Summaries of draws far from 1 in magnitude: draws times 2^k must summarise as the draws do, locations, spreads and
 * MCSEs times 2^k and R-hat and ESS the same. A power of two scales exactly, so the answer is exact here; their
 * squares overflowed (sd, MCSE and basic R-hat NaN near 1e155) or underflowed (sd 0 near 1e-300). Deterministic.
 */
class ExtremeMagnitudesTest {
    private static double[][] draws() {
        SplittableRandom random = new SplittableRandom(11);
        double[][] d = new double[4][200];
        for (double[] chain : d) {
            double x = 0;
            for (int i = 0; i < chain.length; i++) {
                x = 0.5 * x + random.nextDouble() - 0.5;
                chain[i] = 3 + x;
            }
        }
        return d;
    }

    @Test
    void hugeDrawsSummariseAsTheirScaledCopies() {
        double[][] plain = draws();
        for (int k : new int[] {520, 660, 1000}) {
            FullParameterSummary s = FullParameterSummary.of("x", Draws.scaled(plain, k));
            FullParameterSummary expected = FullParameterSummary.of("x", plain).rescaled(k,
                    FullParameterSummary.of("x", plain));
            assertEquals(expected, s, "2^" + k);
            assertTrue(Double.isFinite(s.sd()) && Double.isFinite(s.rhatBasic()) && Double.isFinite(s.mcseSd()));
            ParameterSummary b = ParameterSummary.of("x", Draws.scaled(plain, k));
            assertEquals(expected.brief(), b, "brief 2^" + k);
        }
    }

    /**
     * Tiny draws: the spreads are the scaled copies'; the rank-based R-hat and ESS are too, and the basic ones are NA,
     * as posterior's range test (below 2^-52) calls the draws themselves constant.
     */
    @Test
    void tinyDrawsKeepTheirSpreadAndPosteriorsConstantVerdict() {
        double[][] plain = draws();
        double[][] tiny = Draws.scaled(plain, -1000);
        FullParameterSummary s = FullParameterSummary.of("x", tiny);
        FullParameterSummary p = FullParameterSummary.of("x", plain);
        assertEquals(Math.scalb(p.sd(), -1000), s.sd());
        assertEquals(Math.scalb(p.q95(), -1000), s.q95());
        assertEquals(p.rhat(), s.rhat(), "ranks do not change with scale");
        assertEquals(p.essBulk(), s.essBulk());
        assertTrue(Double.isNaN(s.rhatBasic()) && Double.isNaN(s.essMean()) && Double.isNaN(s.mcseMean()),
                "posterior's range test on the draws themselves says constant: " + s);
        assertTrue(ParameterSummary.of("x", tiny).sd() > 0);
    }

    /** Draws within 2^±200 are summarised as given: no scaling, so results stay bit for bit what they were. */
    @Test
    void ordinaryMagnitudesAreNotScaled() {
        assertEquals(0, Draws.rescaling(Draws.scaled(draws(), 190)));
        assertEquals(0, Draws.rescaling(Draws.scaled(draws(), -190)));
        assertEquals(0, Draws.rescaling(new double[][] {{0, 0}, {0, 0}}));
        assertEquals(-202, Draws.rescaling(new double[][] {{Math.scalb(1.5, 202), Double.POSITIVE_INFINITY}}));
    }

    /**
     * The one-statistic methods scale as the summaries do: for the same huge draws (1e80 and 1e160, whose fourth and
     * second powers overflow) they give the summary's values, ESS and R-hat those of the draws at ordinary scale and
     * the sd and MCSEs those scaled back, exactly; for tiny draws the summary's values too.
     */
    @Test
    void oneStatisticMethodsAgreeWithTheSummary() {
        double[][] plain = draws();
        for (int k : new int[] {266, 532, -1000}) {
            double[][] d = Draws.scaled(plain, k);
            FullParameterSummary s = FullParameterSummary.of("x", d);
            String at = "2^" + k;
            assertEquals(s.mean(), PooledStatistics.mean(d), at);
            assertEquals(s.sd(), PooledStatistics.sd(d), at);
            assertEquals(s.essBasic(), EffectiveSampleSize.basic(d, true), at);
            assertEquals(s.essMean(), EffectiveSampleSize.mean(d), at);
            assertEquals(s.essSd(), EffectiveSampleSize.sd(d), at);
            assertEquals(s.rhatBasic(), Rhat.basic(d, true), at);
            assertEquals(s.mcseMean(), MonteCarloStandardError.mean(d), at);
            assertEquals(s.mcseSd(), MonteCarloStandardError.sd(d), at);
            if (k > 0) {
                FullParameterSummary p = FullParameterSummary.of("x", plain);
                assertEquals(p.essSd(), EffectiveSampleSize.sd(d), at);
                assertEquals(p.rhatBasic(), Rhat.basic(d, true), at);
                assertEquals(EffectiveSampleSize.basic(plain, false), EffectiveSampleSize.basic(d, false), at);
                assertEquals(Rhat.basic(plain, false), Rhat.basic(d, false), at);
                assertEquals(EffectiveSampleSize.sdAbsoluteDeviation(plain), EffectiveSampleSize.sdAbsoluteDeviation(d),
                        at);
                assertEquals(Math.scalb(p.mcseSd(), k), MonteCarloStandardError.sd(d), at);
                assertEquals(Math.scalb(p.sd(), k), PooledStatistics.sd(d), at);
            }
        }
    }

    /**
     * An autocorrelation that is NaN (variances that overflowed) gives an ESS of NaN, as non-finite draws do, not
     * τ̂ = 2 and so MN/2.
     */
    @Test
    void aNaNAutocorrelationGivesNaN() {
        double[][] d = Draws.scaled(draws(), 532); // squared deviations near 1e320: infinite
        assertTrue(Double.isNaN(GeyerEss.ess(Draws.split(d))), "ESS " + GeyerEss.ess(Draws.split(d)));
    }
}
