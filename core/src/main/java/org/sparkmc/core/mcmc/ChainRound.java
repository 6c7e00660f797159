package org.sparkmc.core.mcmc;

import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.random.Rng;

/**
 * Runs chains in rounds: a round is a fixed number of iterations of one chain from one random stream keyed by
 * (chain, round). Both the Spark job and a plain single-JVM loop call this, so both give the same draws.
 */
public final class ChainRound {
    /** Stream purpose for a chain's starting point. */
    public static final String INIT_STREAM = "chain-init";
    /** Stream purpose for a chain's round. */
    public static final String ROUND_STREAM = "chain-round";
    private static final int MAX_INIT_TRIES = 100;
    /** Recorded after the target's parameters: the log density at each draw, as Stan names it. */
    public static final String LOG_DENSITY = "lp__";
    /** Recorded last: whether the draw's proposal was accepted (1) or not (0), as CmdStan names it. */
    public static final String ACCEPT_STAT = "accept_stat__";

    private ChainRound() {
    }

    /**
     * A chain's starting state: a dispersed initial point with finite log density (up to 100 tries, as Stan).
     */
    public static ChainState start(long chain, Target target, Kernel kernel, RandomStreams streams) {
        Rng rng = streams.rng(INIT_STREAM, chain);
        for (int attempt = 0; attempt < MAX_INIT_TRIES; attempt++) {
            double[] x = target.initialPosition(rng);
            double lp = target.logDensity(x);
            if (Double.isFinite(lp)) {
                checkReported(target, x);
                return new ChainState(chain, x, lp, kernel.initialTuning(target.dimension()));
            }
        }
        throw new InvalidInputException("chain " + chain + ": no starting point with a finite log density in "
                + MAX_INIT_TRIES + " tries; check the model's support and initialPosition");
    }

    /** The names of the recorded rows of a round's draws: the target's parameters, then lp__ and accept_stat__. */
    /**
     * Refuses a target whose reported values and names disagree at {@code x}: as many values as names, no name
     * twice, none of the recorded columns' own names (a user target got a 150-line index error, or silently dropped
     * values, or Spark's "fields should have distinct names").
     *
     * @throws InvalidInputException saying which
     */
    static void checkReported(Target target, double[] x) {
        java.util.List<String> names = target.parameterNames();
        int values = target.parameters(x).length;
        String what = "target " + target.getClass().getName();
        if (values != names.size()) {
            throw new InvalidInputException(what + " reports " + values + " values (parameters(position)) but names "
                    + names.size() + " (parameterNames()); the two must have the same length and order");
        }
        java.util.Set<String> seen = new java.util.HashSet<>(java.util.List.of(LOG_DENSITY, ACCEPT_STAT, "chain",
                "draw"));
        for (String name : names) {
            if (!seen.add(name)) {
                throw new InvalidInputException(what + " names parameter '" + name + "' twice, or uses a name the "
                        + "draws already have (" + LOG_DENSITY + ", " + ACCEPT_STAT + ", chain, draw)");
            }
        }
    }

    public static java.util.List<String> recordedNames(Target target) {
        java.util.List<String> names = new java.util.ArrayList<>(target.parameterNames());
        names.add(LOG_DENSITY);
        names.add(ACCEPT_STAT);
        return names;
    }

    /**
     * Advances a copy of {@code state} by {@code iterations} steps.
     *
     * @param record whether to keep the draws (sampling rounds) or not (warm-up rounds); recorded draws are
     *               indexed [row][iteration] with the rows of {@link #recordedNames}
     */
    public static RoundResult run(Target target, Kernel kernel, ChainState state, int round, int iterations,
            boolean warmup, boolean record, RandomStreams streams) {
        ChainState next = state.copy();
        Rng rng = streams.rng(ROUND_STREAM, state.chain(), round);
        int width = target.parameterNames().size();
        double[][] draws = new double[width + 2][record ? iterations : 0];
        long accepted = 0;
        for (int i = 0; i < iterations; i++) {
            boolean moved = kernel.step(target, next, rng, warmup);
            if (moved) {
                accepted++;
            }
            next.countIteration(warmup);
            if (record) {
                double[] p = target.parameters(next.position());
                for (int j = 0; j < width; j++) {
                    draws[j][i] = p[j];
                }
                draws[width][i] = next.logDensity();
                draws[width + 1][i] = moved ? 1 : 0;
            }
        }
        return new RoundResult(next, round, draws, accepted, iterations);
    }
}
