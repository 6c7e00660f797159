package org.sparkmc.core.mcmc;

import java.util.Arrays;

/**
 * What one round of one chain produced: the chain's new state, its recorded draws indexed
 * [parameter][iteration] (empty in warm-up), and how many of its proposals were accepted.
 */
public final class RoundResult {
    private ChainState state;
    private int round;
    private double[][] draws;
    private long accepted;
    private long proposed;

    /** For serialization frameworks only. */
    public RoundResult() {
    }

    public RoundResult(ChainState state, int round, double[][] draws, long accepted, long proposed) {
        this.state = state;
        this.round = round;
        this.draws = draws;
        this.accepted = accepted;
        this.proposed = proposed;
    }

    public ChainState state() {
        return state;
    }

    public long chain() {
        return state.chain();
    }

    public int round() {
        return round;
    }

    public double[][] draws() {
        return draws;
    }

    /** This result with only the first {@code rows} rows of its draws (the same arrays, not copies). */
    public RoundResult withDrawRows(int rows) {
        return new RoundResult(state, round, Arrays.copyOf(draws, Math.min(rows, draws.length)), accepted,
                proposed);
    }

    public long accepted() {
        return accepted;
    }

    public long proposed() {
        return proposed;
    }
}
