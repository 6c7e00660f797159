package org.sparkmc.core.mcmc;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleUnaryOperator;
import org.sparkmc.core.diagnostics.EffectiveSampleSize;
import org.sparkmc.core.diagnostics.MonteCarloStandardError;
import org.sparkmc.core.diagnostics.PooledStatistics;
import org.sparkmc.core.diagnostics.Rhat;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.random.Rng;
import org.sparkmc.core.testing.ChiSquare;

/**
 * Test helpers: run a few chains in rounds as the chains job does (ChainRound: one warm-up round, then one sampling
 * round), and the repeated chi-square pattern. Public for the other samplers' tests (rjmcmc).
 */
public final class RunChains {
    private RunChains() {
    }

    /** Draws [parameter][chain][iteration] plus the chains' final states. */
    public record Result(double[][][] draws, List<ChainState> states, double acceptance) {
        public double mean(int p) {
            return PooledStatistics.mean(draws[p]);
        }

        public double mcse(int p) {
            return MonteCarloStandardError.mean(draws[p]);
        }

        public double rhat(int p) {
            return Rhat.rhat(draws[p]);
        }
    }

    public static Result run(Target target, Kernel<?> kernel, int chains, int warmup, int draws, long seed) {
        RandomStreams streams = new RandomStreams(seed);
        int width = target.parameterNames().size();
        double[][][] out = new double[width][chains][];
        List<ChainState> states = new ArrayList<>();
        long accepted = 0;
        for (int c = 0; c < chains; c++) {
            ChainState s = ChainRound.start(c + 1, target, kernel, streams);
            if (warmup > 0) {
                s = ChainRound.run(target, kernel, s, 1, warmup, true, false, streams).state();
            }
            RoundResult r = ChainRound.run(target, kernel, s, 2, draws, false, true, streams);
            accepted += r.accepted();
            for (int p = 0; p < width; p++) {
                out[p][c] = r.draws()[p];
            }
            states.add(r.state());
        }
        return new Result(out, states, (double) accepted / ((long) chains * draws));
    }

    /**
     * Commons RNG's pattern: {@code reps} repetitions of a chi-square test at 1% on 20 equiprobable bins of
     * {@code draws} draws of coordinate {@code coordinate}, thinned by {@code thin} after {@code warmup}
     * (adapting) warm-up iterations; returns how many repetitions failed. The thinned draws are still a chain, so
     * each statistic is scaled by the draws' ESS / n when that is below 1 ({@link ChiSquare}), and a repetition whose
     * ESS is under a tenth of its draws fails outright; with 50 repetitions, more than 3 failures then happen with
     * probability at most ≈ 0.2% for a correct kernel.
     */
    public static int failedRepetitions(Target target, Kernel<?> kernel, int coordinate,
            DoubleUnaryOperator cdf, int reps, int warmup, int draws, int thin, long seed) {
        RandomStreams streams = new RandomStreams(seed);
        int failed = 0;
        for (int rep = 0; rep < reps; rep++) {
            ChainState state = ChainRound.start(rep, target, kernel, streams);
            Rng rng = streams.rng("test", rep);
            for (int i = 0; i < warmup; i++) {
                kernel.advance(target, state, rng, true);
                state.countIteration(true);
            }
            double[] x = new double[draws];
            for (int i = 0; i < draws; i++) {
                for (int t = 0; t < thin; t++) {
                    kernel.advance(target, state, rng, false);
                }
                x[i] = state.position()[coordinate];
            }
            // A repetition too correlated to test (ESS under a tenth of its draws; NaN for constant draws) fails:
            // a correct kernel's thinning keeps its draws near-independent (ESS / n was at least 0.32 in every
            // repetition of this package's tests, broken kernels included), and a nearly stuck kernel must not pass
            // by the scaling discounting its own lopsided histogram.
            double ess = EffectiveSampleSize.basic(new double[][] {x}, false);
            if (!(ess >= draws / 10.0) || ChiSquare.pValue(x, cdf, 20, Math.min(1, ess / draws)) < 0.01) {
                failed++;
            }
        }
        return failed;
    }
}
