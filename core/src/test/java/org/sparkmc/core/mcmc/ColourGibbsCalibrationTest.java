package org.sparkmc.core.mcmc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.model.IsingDenoising;
import org.sparkmc.core.random.Rng;

/**
 * Simulation-based calibration of colour Gibbs ({@link SimulationBasedCalibrationTest#sbc}: ranks of the truth among
 * 99 thinned draws, 10 bins, chi-square per quantity, Bonferroni over quantities; a test fails below p = 0.001, so a
 * correct kernel fails at most 0.1% of the time) on Ising denoising of a 3×3 grid: spins drawn exactly from the
 * Ising prior p(x) ∝ exp(J Σ_{i~j} x_i x_j), J = 0.5, by enumerating its 512 states, then y_i = x_i + N(0, σ²),
 * σ = 2. The reported quantities (magnetisation, energy, agreement) take few values, so the ranks break ties at
 * random. Measured over 40 seeds with 1,000 replications: one Bonferroni p below 0.05, none below 0.01. The
 * kernel's broken variant, which updates all sites at once from the old state, fails the same test (p ≤ 3e-51 over
 * 5 seeds). Fixed seeds.
 */
class ColourGibbsCalibrationTest {
    private static final double ALPHA = 1e-3;
    private static final int SIDE = 3;
    private static final double J = 0.5;
    private static final double SIGMA = 2;
    /** The prior's cumulative probabilities over the states (state s: spin i is +1 iff bit i of s is set). */
    private static final double[] PRIOR_CDF = priorCdf();

    private static double[] priorCdf() {
        int n = SIDE * SIDE;
        IsingDenoising noData = IsingDenoising.of(SIDE, SIDE, J, SIGMA, new double[n], null, false);
        double[] cdf = new double[1 << n];
        double sum = 0;
        for (int s = 0; s < cdf.length; s++) {
            sum += Math.exp(noData.logDensity(ColourGibbsTest.state(s, n)));
            cdf[s] = sum;
        }
        for (int s = 0; s < cdf.length; s++) {
            cdf[s] /= sum;
        }
        return cdf;
    }

    /** x from the Ising prior, y = x + noise; the truth is the posterior's reported quantities at x. */
    static SimulationBasedCalibrationTest.Replication ising(Rng rng) {
        int n = SIDE * SIDE;
        int s = Arrays.binarySearch(PRIOR_CDF, rng.uniform());
        double[] x = ColourGibbsTest.state(Math.min(s < 0 ? -s - 1 : s + 1, PRIOR_CDF.length - 1), n);
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            y[i] = x[i] + SIGMA * rng.normal();
        }
        IsingDenoising posterior = IsingDenoising.of(SIDE, SIDE, J, SIGMA, y, null, false);
        return new SimulationBasedCalibrationTest.Replication(posterior.parameters(x), posterior);
    }

    @Test
    void colourGibbsIsCalibratedOnIsingDenoising() {
        double p = SimulationBasedCalibrationTest.sbc(ColourGibbsCalibrationTest::ising, t -> ColourGibbs.of(1), 1000,
                20, 5, 501);
        assertTrue(p > ALPHA, "Bonferroni p = " + p);
    }

    /** Independent colours (the broken variant's stationary law) make the energy's ranks plainly non-uniform. */
    @Test
    void updatingAllSitesAtOnceFailsTheSameTest() {
        double p = SimulationBasedCalibrationTest.sbc(ColourGibbsCalibrationTest::ising,
                t -> ColourGibbs.broken(ColourGibbs.Variant.ALL_AT_ONCE), 1000, 20, 5, 501);
        assertTrue(p < ALPHA, "the broken kernel passed SBC, p = " + p);
    }

    /**
     * 4,000 replications thinned by 10 (tagged heavy: the default build excludes it; run with
     * {@code mvn -B verify -Pheavy}). Measured over 10 seeds: no Bonferroni p below 0.05.
     */
    @Tag("heavy")
    @Test
    void heavyCalibration() {
        double p = SimulationBasedCalibrationTest.sbc(ColourGibbsCalibrationTest::ising, t -> ColourGibbs.of(1), 4000,
                20, 10, 502);
        assertTrue(p > ALPHA, "Bonferroni p = " + p);
    }
}
