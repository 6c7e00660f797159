package org.sparkmc.core.mcmc;

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

    public long accepted() {
        return accepted;
    }

    public long proposed() {
        return proposed;
    }
}
