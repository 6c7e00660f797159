package org.sparkmc.core.mcmc;

import java.util.Arrays;

/**
 * What one step of a {@link Kernel} did: whether the chain moved, the acceptance statistic Stan records as
 * {@code accept_stat__} (Metropolis–Hastings: min(1, acceptance ratio); Gibbs: 1; NUTS: the mean acceptance
 * probability over the trajectory), the kernel's per-step statistics in the order of {@link Kernel#statNames()},
 * and the outcomes of labelled sub-moves (a reversible-jump sweep's moves, {@code 2·label + accepted}, label being
 * the index among the kernel's move labels) for observers that count them; empty for other kernels.
 */
public record Transition(boolean moved, double acceptStat, double[] stats, int[] moves) {
    private static final double[] NO_STATS = new double[0];
    private static final int[] NO_MOVES = new int[0];
    /** A moved step with statistic 1 and nothing else to report (Gibbs updates). */
    public static final Transition GIBBS = new Transition(true, 1, NO_STATS, NO_MOVES);

    /** A step without per-step statistics. */
    public static Transition of(boolean moved, double acceptStat) {
        return new Transition(moved, acceptStat, NO_STATS, NO_MOVES);
    }

    /** A step with per-step statistics. */
    public static Transition of(boolean moved, double acceptStat, double[] stats) {
        return new Transition(moved, acceptStat, stats, NO_MOVES);
    }

    /** A Metropolis–Hastings step: accept statistic min(1, exp(log ratio)) (0 for a NaN ratio). */
    public static Transition metropolis(boolean moved, double logAccept) {
        return of(moved, Double.isNaN(logAccept) ? 0 : Math.min(1, Math.exp(logAccept)));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Transition t && moved == t.moved && Double.compare(acceptStat, t.acceptStat) == 0
                && Arrays.equals(stats, t.stats) && Arrays.equals(moves, t.moves);
    }

    @Override
    public int hashCode() {
        return Boolean.hashCode(moved) * 31 + Double.hashCode(acceptStat) * 17 + Arrays.hashCode(stats);
    }

    @Override
    public String toString() {
        return "Transition[moved=" + moved + ", acceptStat=" + acceptStat + ", stats=" + Arrays.toString(stats)
                + ", moves=" + Arrays.toString(moves) + "]";
    }
}
