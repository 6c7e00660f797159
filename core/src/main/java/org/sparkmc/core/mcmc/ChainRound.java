package org.sparkmc.core.mcmc;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
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
    /**
     * Recorded after lp__: the step's acceptance statistic ({@link Transition#acceptStat()}), as CmdStan names it;
     * the kernel's own statistics ({@link Kernel#statNames()}) follow it.
     */
    public static final String ACCEPT_STAT = "accept_stat__";

    private ChainRound() {
    }

    /**
     * A chain's starting state: a dispersed initial point with finite log density (up to 100 tries, as Stan).
     */
    public static ChainState start(long chain, Target target, Kernel<?> kernel, RandomStreams streams) {
        Rng rng = streams.rng(INIT_STREAM, chain);
        for (int attempt = 0; attempt < MAX_INIT_TRIES; attempt++) {
            double[] x = target.initialPosition(rng);
            double lp = target.logDensity(x);
            if (Double.isFinite(lp)) {
                checkReported(target, kernel, x);
                return new ChainState(chain, x, lp, kernel.initialState(target.dimension()));
            }
        }
        throw new InvalidInputException("chain " + chain + ": no starting point with a finite log density in "
                + MAX_INIT_TRIES + " tries; check the model's support and initialPosition");
    }

    /**
     * Refuses a target whose reported values and names disagree at {@code x}: as many values as names, no name
     * twice, none of the recorded columns' own names (a user target got a 150-line index error, or silently dropped
     * values, or Spark's "fields should have distinct names").
     *
     * @throws InvalidInputException saying which
     */
    static void checkReported(Target target, Kernel<?> kernel, double[] x) {
        List<String> names = target.parameterNames();
        int values = target.parameters(x).length;
        String what = "target " + target.getClass().getName();
        if (values != names.size()) {
            throw new InvalidInputException(what + " reports " + values + " values (parameters(position)) but names "
                    + names.size() + " (parameterNames()); the two must have the same length and order");
        }
        List<String> reserved = new ArrayList<>(List.of(LOG_DENSITY, ACCEPT_STAT,
                "chain", "draw"));
        reserved.addAll(kernel.statNames());
        Set<String> seen = new HashSet<>(reserved);
        for (String name : names) {
            if (!seen.add(name)) {
                throw new InvalidInputException(what + " names parameter '" + name + "' twice, or uses a name the "
                        + "draws already have " + reserved);
            }
        }
    }

    /**
     * The names of the recorded rows of a round's draws: the target's parameters, lp__, accept_stat__, then the
     * kernel's per-step statistics.
     */
    public static List<String> recordedNames(Target target, Kernel<?> kernel) {
        List<String> names = new ArrayList<>(target.parameterNames());
        names.add(LOG_DENSITY);
        names.add(ACCEPT_STAT);
        names.addAll(kernel.statNames());
        return names;
    }

    /**
     * Advances a copy of {@code state} by {@code iterations} steps.
     *
     * @param record whether to keep the draws (sampling rounds) or not (warm-up rounds); recorded draws are
     *               indexed [row][iteration] with the rows of {@link #recordedNames}
     */
    public static <S> RoundResult run(Target target, Kernel<S> kernel, ChainState state, int round, int iterations,
            boolean warmup, boolean record, RandomStreams streams) {
        ChainState next = state.copy(kernel);
        S kernelState = kernel.stateOf(next);
        Rng rng = streams.rng(ROUND_STREAM, state.chain(), round);
        int width = target.parameterNames().size();
        int stats = kernel.statNames().size();
        double[][] draws = new double[width + 2 + stats][record ? iterations : 0];
        long accepted = 0;
        for (int i = 0; i < iterations; i++) {
            Transition t = kernel.step(target, next, kernelState, rng, warmup);
            if (t.moved()) {
                accepted++;
            }
            next.countIteration(warmup);
            if (record) {
                double[] p = target.parameters(next.position());
                for (int j = 0; j < width; j++) {
                    draws[j][i] = p[j];
                }
                draws[width][i] = next.logDensity();
                draws[width + 1][i] = t.acceptStat();
                for (int j = 0; j < stats; j++) {
                    draws[width + 2 + j][i] = t.stats()[j];
                }
            }
        }
        return new RoundResult(next, round, draws, accepted, iterations);
    }
}
