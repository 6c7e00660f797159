package org.sparkmc.core.rjmcmc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.diagnostics.MonteCarloStandardError;
import org.sparkmc.core.diagnostics.PooledStatistics;
import org.sparkmc.core.diagnostics.Rhat;
import org.sparkmc.core.mcmc.Kernel;
import org.sparkmc.core.mcmc.RunChains;

/**
 * One Gaussian mean or two: the reversible-jump estimate of p(m = 2 | y) against the exact value, in closed form by
 * enumerating the 2¹² allocations of the points to the two means ({@link NormalMeansEvidence}, independent of the
 * model's code), with both reversible pairs (split/merge and birth/death).
 *
 * <p>Tolerance: 4 Monte Carlo standard errors (posterior's MCSE of the mean of the indicator, from 4 chains of
 * 40,000 sweeps). For a normal estimate the two-sided false-failure rate is 6·10⁻⁵; allowing for the error of the
 * estimated MCSE itself, below 10⁻³. The split with the slides' Jacobian (1 instead of 2) targets posterior odds
 * halved, p(m = 2 | y) ≈ 0.35 instead of 0.51, and fails the same test.
 */
class TwoMeansTest {
    /** Twelve points for which one mean and two are about equally probable (σ = 1, θ ~ N(0, 4), p(m=2) = 1/2). */
    static final double[] Y = {-1.5, -1.2, -0.9, -0.6, -0.4, 0.0, 0.3, 0.6, 1.0, 1.4, 1.7, 2.0};

    static TwoMeans model(TwoMeans.Jump jump) {
        return new TwoMeans(Y, 1, 0, 4, 0.5, jump, jump == TwoMeans.Jump.SPLIT_MERGE ? 1 : 4, 0.7);
    }

    /** p(m = 2 | y) for Y under the test's priors (σ = 1, θ ~ N(0, 4), p(m = 2) = 1/2), in closed form. */
    static double exactTwo() {
        return NormalMeansEvidence.posterior(Y, new double[] {Math.log(0.5), Math.log(0.5)}, 1, 0, 4)[1];
    }

    /** The model's own quadrature (which the jobs report) agrees with the closed form; the posterior is balanced. */
    @Test
    void quadratureMatchesTheClosedFormAndIsNonTrivial() {
        double[] fine = model(TwoMeans.Jump.SPLIT_MERGE).exactModelProbabilities(801);
        double[] coarse = model(TwoMeans.Jump.SPLIT_MERGE).exactModelProbabilities(401);
        assertEquals(exactTwo(), fine[1], 1e-9);
        assertEquals(exactTwo(), coarse[1], 1e-9);
        assertEquals(1, fine[0] + fine[1], 1e-12);
        assertEquals(0.5144, exactTwo(), 1e-4);
    }

    @Test
    void splitMergeReproducesTheExactModelProbability() {
        assertMatchesExact(model(TwoMeans.Jump.SPLIT_MERGE), RjmcmcKernel.ofTargetSweep().counted(), 71, true);
    }

    @Test
    void birthDeathReproducesTheExactModelProbability() {
        assertMatchesExact(model(TwoMeans.Jump.BIRTH_DEATH), RjmcmcKernel.ofTargetSweep().counted(), 72, true);
    }

    @Test
    void theSlidesJacobianFailsTheSameTest() {
        TwoMeans.SplitMeans right = new TwoMeans.SplitMeans(1);
        Bijection slides = new WrongJacobian(right, 0);
        Kernel<?> broken = RjmcmcKernel.of(List.of(new RandomWalkMove("walk", 0.7),
                new TwoMeans.PairJump("split", "merge", slides, 0, 1))).counted();
        assertMatchesExact(model(TwoMeans.Jump.SPLIT_MERGE), broken, 71, false);
    }

    private static void assertMatchesExact(TwoMeans target, Kernel<?> kernel, long seed, boolean shouldMatch) {
        double exact = exactTwo();
        RunChains.Result run = RunChains.run(target, kernel, 4, 1000, 40_000, seed);
        double[][] two = run.draws()[1];
        double estimate = PooledStatistics.mean(two);
        double mcse = MonteCarloStandardError.mean(two);
        assertTrue(mcse < 0.01, "MCSE " + mcse);
        double z = (estimate - exact) / mcse;
        System.out.printf("two means %s: p(m=2|y) RJMCMC %.4f ± %.4f (MCSE), exact %.4f, z = %.2f; %s%n",
                shouldMatch ? "" : "(broken)", estimate, mcse, exact, z,
                MoveCounter.rates(kernel, target, run.states(), false));
        if (shouldMatch) {
            assertTrue(Rhat.rhat(two) < 1.01, "R-hat " + Rhat.rhat(two));
            assertTrue(Math.abs(z) < 4, String.format("p(m=2|y): RJMCMC %.4f ± %.4f, exact %.4f (z = %.1f)", estimate,
                    mcse, exact, z));
        } else {
            assertTrue(Math.abs(z) > 4, String.format("broken kernel passed: %.4f ± %.4f vs %.4f", estimate, mcse,
                    exact));
        }
    }

    /** A bijection whose claimed log |det J| is replaced by a constant (a deliberately wrong Jacobian). */
    static final class WrongJacobian extends DelegatingBijection {
        private final double claimedLogDet;

        WrongJacobian(Bijection inner, double claimedLogDet) {
            super(inner);
            this.claimedLogDet = claimedLogDet;
        }

        @Override
        public String name() {
            return inner.name() + " with log|det J| = " + claimedLogDet;
        }

        @Override
        public double logAbsDetJacobian(double[] xu) {
            return claimedLogDet;
        }
    }

    @Test
    void refusesParametersItCannotUse() {
        TwoMeans.Jump split = TwoMeans.Jump.SPLIT_MERGE;
        assertThrows(InvalidInputException.class, () -> new TwoMeans(Y, 1, 0, 4, 0.5, split, 1, 0));
        assertThrows(InvalidInputException.class, () -> new TwoMeans(Y, 1, 0, 4, 0.5, split, 1, Double.NaN));
        assertThrows(InvalidInputException.class, () -> new TwoMeans(Y, 1, Double.NaN, 4, 0.5, split, 1, 0.7));
        assertThrows(InvalidInputException.class,
                () -> new TwoMeans(new double[] {1, Double.NaN}, 1, 0, 4, 0.5, split, 1, 0.7));
    }
}
