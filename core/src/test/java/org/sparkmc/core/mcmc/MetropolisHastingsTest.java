package org.sparkmc.core.mcmc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.DoubleUnaryOperator;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.model.BimodalMixture;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.random.Rng;
import org.sparkmc.core.testing.ChiSquare;

/**
 * Metropolis–Hastings against exact distributions.
 *
 * <p>Goodness of fit follows Commons RNG's pattern: 50 repetitions of a chi-square test at the 1% level on 20
 * equiprobable bins of 2,000 thinned draws (thinning 20, so the draws are nearly independent), failing only if
 * more than 3 repetitions fail: about 0.16% false alarms per check of a correct kernel, so about 0.3% for the
 * Student-t test, which checks both marginals.
 */
class MetropolisHastingsTest {
    private static final int REPETITIONS = 50;
    private static final int DRAWS = 2000;
    private static final int THIN = 20;

    /** 1,000 burn-in steps (these kernels do not adapt), then {@link RunChains#failedRepetitions}. */
    private static int failedRepetitions(Target target, Kernel<?> kernel, DoubleUnaryOperator cdf, long seed) {
        return RunChains.failedRepetitions(target, kernel, 0, cdf, REPETITIONS, 1000, DRAWS, THIN, seed);
    }

    @Test
    void randomWalkWithTheLecturesProposalSamplesTheBimodalMixture() {
        NormalDistribution a = NormalDistribution.of(0, Math.sqrt(2.5));
        NormalDistribution b = NormalDistribution.of(10, Math.sqrt(2.5));
        int failed = failedRepetitions(new BimodalMixture(5), MetropolisHastings.randomWalk(10, false),
                x -> 0.3 * a.cumulativeProbability(x) + 0.7 * b.cumulativeProbability(x), 11);
        assertTrue(failed <= 3, failed + " of " + REPETITIONS + " repetitions failed");
    }

    @Test
    void independenceProposalNeedsItsHastingsCorrection() {
        Target target = new NormalTarget(1, 2);
        IndependenceProposal proposal = IndependenceProposal.gaussian(new double[] {0}, new double[] {3});
        NormalDistribution exact = NormalDistribution.of(1, 2);
        Kernel<?> correct = new MetropolisHastings(proposal, 1, false, Double.NaN);
        assertTrue(failedRepetitions(target, correct, exact::cumulativeProbability, 12) <= 3);

        // Without the correction the chain targets p·q instead of p: the same test must catch it.
        Proposal uncorrected = (from, to, scale, rng) -> {
            proposal.propose(from, to, scale, rng);
            return 0;
        };
        Kernel<?> broken = new MetropolisHastings(uncorrected, 1, false, Double.NaN);
        assertTrue(failedRepetitions(target, broken, exact::cumulativeProbability, 12) > 3);
    }

    /**
     * A Student-t independence proposal (ν = 5) with a full scale matrix that is neither centred on nor shaped like
     * the target (a bivariate normal with sds 1 and 2 and correlation 0.8): both marginals pass the goodness-of-fit
     * test above, and the same proposal without its Hastings ratio fails it.
     */
    @Test
    void studentTIndependenceProposalWithAFullScaleMatrixSamplesACorrelatedNormal() {
        Target target = new CorrelatedNormal(1, 2, 0.8);
        // scale matrix [[1.44, 1.2], [1.2, 4]]: correlation 0.5 instead of 0.8, centre (0.3, −0.5)
        double[] l = {1.2, 0, 1.0, Math.sqrt(4 - 1.0)};
        IndependenceProposal proposal = IndependenceProposal.studentT(new double[] {0.3, -0.5}, l, 5);
        Kernel<?> correct = new MetropolisHastings(proposal, 1, false, Double.NaN);
        NormalDistribution first = NormalDistribution.of(0, 1);
        NormalDistribution second = NormalDistribution.of(0, 2);
        assertTrue(RunChains.failedRepetitions(target, correct, 0, first::cumulativeProbability, REPETITIONS, 1000,
                DRAWS, THIN, 31) <= 3);
        assertTrue(RunChains.failedRepetitions(target, correct, 1, second::cumulativeProbability, REPETITIONS, 1000,
                DRAWS, THIN, 32) <= 3);

        Proposal uncorrected = (from, to, scale, rng) -> {
            proposal.propose(from, to, scale, rng);
            return 0;
        };
        Kernel<?> broken = new MetropolisHastings(uncorrected, 1, false, Double.NaN);
        assertTrue(RunChains.failedRepetitions(target, broken, 0, first::cumulativeProbability, REPETITIONS, 1000,
                DRAWS, THIN, 31) > 3);
    }

    /**
     * Simulation-based calibration (Talts et al. 2018) on θ ~ N(0,1), y_1..5 ~ N(θ,1): 1,000 replications, each
     * ranking the true θ among 99 thinned posterior draws (warm-up 300 with adaptation, thinning 10); the 100
     * possible ranks in 10 bins must be uniform by chi-square at the 0.05% level for each of the two correct kernels,
     * so the test fails a correct build at most 0.1% of the time for fresh seeds. A kernel without its Hastings
     * correction fails the same test at the same level.
     */
    @Test
    void simulationBasedCalibration() {
        double alpha = 1e-3 / 2;
        double walk = sbcPValue(MetropolisHastings.randomWalk(1, true), 21);
        assertTrue(walk > alpha, "random walk: p = " + walk);
        IndependenceProposal proposal = IndependenceProposal.gaussian(new double[] {0}, new double[] {1.5});
        double independence = sbcPValue(new MetropolisHastings(proposal, 1, false, Double.NaN), 22);
        assertTrue(independence > alpha, "independence: p = " + independence);
        // Uncorrected, a N(0, 0.5²) proposal makes the chain target p·q (posterior precision 6 + 4 instead of 6).
        IndependenceProposal narrow = IndependenceProposal.gaussian(new double[] {0}, new double[] {0.5});
        Proposal uncorrected = (from, to, scale, rng) -> {
            narrow.propose(from, to, scale, rng);
            return 0;
        };
        double broken = sbcPValue(new MetropolisHastings(uncorrected, 1, false, Double.NaN), 22);
        assertTrue(broken < alpha, "the broken kernel passed SBC, p = " + broken);
    }

    /**
     * A NaN or infinite centre, an infinite or NaN scale or a non-finite entry of the factor is refused, naming the
     * argument and its index: such a proposal never moves the chain (every Hastings ratio is NaN).
     */
    @Test
    void independenceProposalRefusesNonFiniteArguments() {
        double inf = Double.POSITIVE_INFINITY;
        double nan = Double.NaN;
        assertMessage("mean[1]", () -> IndependenceProposal.gaussian(new double[] {0, nan}, new double[] {1, 1}));
        assertMessage("mean[0]", () -> IndependenceProposal.gaussian(new double[] {-inf}, new double[] {1}));
        assertMessage("sd[0]", () -> IndependenceProposal.gaussian(new double[] {0}, new double[] {inf}));
        assertMessage("sd[1]", () -> IndependenceProposal.gaussian(new double[] {0, 0}, new double[] {1, Double.NaN}));
        assertMessage("mean[0]", () -> IndependenceProposal.studentT(new double[] {Double.NaN}, new double[] {1}, 5));
        assertMessage("cholesky[0]", () -> IndependenceProposal.studentT(new double[] {0}, new double[] {inf}, 5));
        assertMessage("cholesky[2]", () -> IndependenceProposal.studentT(new double[] {0, 0},
            new double[] {1, 0, Double.NaN, 1}, 5));
    }

    private static void assertMessage(String part, org.junit.jupiter.api.function.Executable call) {
        String message = assertThrows(IllegalArgumentException.class, call).getMessage();
        assertTrue(message.contains(part), message);
    }

    private static double sbcPValue(Kernel<?> kernel, long seed) {
        RandomStreams streams = new RandomStreams(seed);
        long[] bins = new long[10];
        for (int rep = 0; rep < 1000; rep++) {
            Rng simulate = streams.rng("simulate", rep);
            double theta = simulate.normal();
            double[] y = new double[5];
            for (int i = 0; i < y.length; i++) {
                y[i] = theta + simulate.normal();
            }
            Target posterior = new ConjugateNormalMean(y);
            ChainState state = ChainRound.start(rep, posterior, kernel, streams);
            state = ChainRound.run(posterior, kernel, state, 1, 300, true, false, streams).state();
            double[] draws = ChainRound.run(posterior, kernel, state, 2, 990, false, true, streams).draws()[0];
            int rank = 0;
            for (int i = 9; i < draws.length; i += 10) {
                if (draws[i] < theta) {
                    rank++;
                }
            }
            bins[rank / 10]++;
        }
        return ChiSquare.pValue(bins);
    }

    @Test
    void adaptationReachesTheTargetAcceptanceAndFreezesAfterWarmup() {
        Target target = new NormalTarget(0, 1);
        Kernel<?> kernel = MetropolisHastings.randomWalk(0.01, true);
        RandomStreams streams = new RandomStreams(3);
        ChainState state = ChainRound.start(1, target, kernel, streams);
        state = ChainRound.run(target, kernel, state, 1, 5000, true, false, streams).state();
        double adapted = MetropolisHastings.scale(state);
        assertNotEquals(0.01, adapted);
        RoundResult sampling = ChainRound.run(target, kernel, state, 2, 20000, false, true, streams);
        assertEquals(adapted, MetropolisHastings.scale(sampling.state()), 0.0, "frozen after warm-up");
        double acceptance = (double) sampling.accepted() / sampling.proposed();
        // 0.44 ± 0.05: the Robbins–Monro scale fluctuates at the end of warm-up; the binomial sd is 0.004.
        assertEquals(0.44, acceptance, 0.05);
        assertEquals(5000, sampling.state().warmupIterations());
        assertEquals(20000, sampling.state().samplingIterations());
    }

    @Test
    void aRoundIsAPureFunctionOfStateSeedChainAndRound() {
        Target target = new BimodalMixture(5);
        Kernel<?> kernel = MetropolisHastings.randomWalk(10, false);
        RandomStreams streams = new RandomStreams(9);
        ChainState start = ChainRound.start(4, target, kernel, streams);
        RoundResult a = ChainRound.run(target, kernel, start, 5, 100, false, true, streams);
        RoundResult b = ChainRound.run(target, kernel, start.copy(kernel), 5, 100, false, true, new RandomStreams(9));
        assertArrayEquals(a.draws()[0], b.draws()[0]);
        assertEquals(a.state(), b.state());
        RoundResult otherRound = ChainRound.run(target, kernel, start, 6, 100, false, true, streams);
        assertNotEquals(a.draws()[0][99], otherRound.draws()[0][99]);
    }
}
