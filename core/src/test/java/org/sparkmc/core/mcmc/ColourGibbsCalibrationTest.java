package org.sparkmc.core.mcmc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.function.Function;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.model.IsingDenoising;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.Rng;

/**
 * Simulation-based calibration of colour Gibbs ({@link SimulationBasedCalibrationTest#sbc}: ranks of the truth among
 * 99 thinned draws, 10 bins, chi-square per quantity, Bonferroni over quantities; a test fails below p = 0.001, so a
 * correct kernel fails at most 0.1% of the time) on Ising denoising of 9 sites: spins drawn exactly from the Ising
 * prior p(x) ∝ exp(J Σ_{i~j} x_i x_j) by enumerating its 512 states, then y_i = x_i + N(0, σ²), σ = 2. Two graphs:
 * the 3×3 grid (2 colours, J = 0.5) and the 3×3 triangular lattice (3 colours, J = 0.25). The reported quantities
 * (magnetisation, energy, and agreement or each spin) take few values, so the ranks break ties at random. Measured
 * with 1,000 replications, on the grid over 40 seeds: one Bonferroni p below 0.05, none below 0.01; on the lattice
 * over 20 seeds: one below 0.05 (0.009), none below 0.001. Each graph's broken variant fails the same test: on the
 * grid, updating all sites at once from the old state (p ≤ 3e-51 over 5 seeds); on the lattice, folding its three
 * colours into two phases, which a grid cannot tell from the kernel, with 2,000 replications (p = 6.5e-9 and 4.6e-9
 * over 2 seeds; with 1,000, 1.2e-6 to 0.035 over 5, too weak for the test; tagged heavy, as it takes a minute or
 * more: {@link ColourGibbsTest} fails it by enumeration in the default build). Fixed seeds.
 */
class ColourGibbsCalibrationTest {
    private static final double ALPHA = 1e-3;
    private static final double SIGMA = 2;
    private static final IsingPrior GRID = IsingPrior.of(9, y -> IsingDenoising.of(3, 3, 0.5, SIGMA, y, null, false));
    private static final IsingPrior TRIANGULAR = IsingPrior.of(9,
            y -> new GraphIsing(GraphIsing.triangular(3), 0.25, SIGMA, y));

    /**
     * Exact draws from an Ising prior by its cumulative probabilities over the states (state s: spin i is +1 iff bit
     * i of s is set), and the posterior given y = x + noise; with y = 0 the posterior is the prior.
     */
    private record IsingPrior(int sites, Function<double[], Target> posteriorGiven, double[] cdf) {
        static IsingPrior of(int sites, Function<double[], Target> posteriorGiven) {
            Target noData = posteriorGiven.apply(new double[sites]);
            double[] cdf = new double[1 << sites];
            double sum = 0;
            for (int s = 0; s < cdf.length; s++) {
                sum += Math.exp(noData.logDensity(ColourGibbsTest.state(s, sites)));
                cdf[s] = sum;
            }
            for (int s = 0; s < cdf.length; s++) {
                cdf[s] /= sum;
            }
            return new IsingPrior(sites, posteriorGiven, cdf);
        }

        /** x from the prior, y = x + noise; the truth is the posterior's reported quantities at x. */
        SimulationBasedCalibrationTest.Replication replicate(Rng rng) {
            int s = Arrays.binarySearch(cdf, rng.uniform());
            double[] x = ColourGibbsTest.state(Math.min(s < 0 ? -s - 1 : s + 1, cdf.length - 1), sites);
            double[] y = new double[sites];
            for (int i = 0; i < sites; i++) {
                y[i] = x[i] + SIGMA * rng.normal();
            }
            Target posterior = posteriorGiven.apply(y);
            return new SimulationBasedCalibrationTest.Replication(posterior.parameters(x), posterior);
        }
    }

    @Test
    void colourGibbsIsCalibratedOnIsingDenoising() {
        double p = SimulationBasedCalibrationTest.sbc(GRID::replicate, t -> ColourGibbs.of(1), 1000, 20, 5, 501);
        assertTrue(p > ALPHA, "Bonferroni p = " + p);
    }

    /** Independent colours (the broken variant's stationary law) make the energy's ranks plainly non-uniform. */
    @Test
    void updatingAllSitesAtOnceFailsTheSameTest() {
        double p = SimulationBasedCalibrationTest.sbc(GRID::replicate,
                t -> ColourGibbs.broken(ColourGibbs.Variant.ALL_AT_ONCE), 1000, 20, 5, 501);
        assertTrue(p < ALPHA, "the broken kernel passed SBC, p = " + p);
    }

    @Test
    void colourGibbsIsCalibratedOnAGraphNeedingThreeColours() {
        double p = SimulationBasedCalibrationTest.sbc(TRIANGULAR::replicate, t -> ColourGibbs.of(2, 2), 1000, 20, 5,
                600);
        assertTrue(p > ALPHA, "Bonferroni p = " + p);
    }

    @Tag("heavy")
    @Test
    void foldingThreeColoursIntoTwoPhasesFailsTheSameTest() {
        double p = SimulationBasedCalibrationTest.sbc(TRIANGULAR::replicate,
                t -> ColourGibbs.broken(ColourGibbs.Variant.TWO_PHASES), 2000, 20, 5, 600);
        assertTrue(p < ALPHA, "the broken kernel passed SBC, p = " + p);
    }

    /**
     * 4,000 replications thinned by 10 (tagged heavy: the default build excludes it; run with
     * {@code mvn -B verify -Pheavy}). Measured over 10 seeds: no Bonferroni p below 0.05.
     */
    @Tag("heavy")
    @Test
    void heavyCalibration() {
        double p = SimulationBasedCalibrationTest.sbc(GRID::replicate, t -> ColourGibbs.of(1), 4000, 20, 10, 502);
        assertTrue(p > ALPHA, "Bonferroni p = " + p);
    }
}
