package org.sparkmc.core.mcmc;

import java.util.Arrays;

/**
 * The complete state of one Markov chain between rounds: its position and log density, its kernel's tuning
 * (adapted during warm-up, frozen after), and its counters. Random streams are not part of the state: each
 * round draws from a stream keyed by (chain, round), so the state plus the root seed reproduces everything.
 */
public final class ChainState {
    private long chain;
    private double[] position;
    private double logDensity;
    private double[] tuning;
    private long warmupIterations;
    private long samplingIterations;

    /** For serialization frameworks only. */
    public ChainState() {
    }

    public ChainState(long chain, double[] position, double logDensity, double[] tuning) {
        this.chain = chain;
        this.position = position;
        this.logDensity = logDensity;
        this.tuning = tuning;
    }

    /** A chain's state as saved in a checkpoint, counters included. */
    public static ChainState restore(long chain, double[] position, double logDensity, double[] tuning,
            long warmupIterations, long samplingIterations) {
        ChainState s = new ChainState(chain, position, logDensity, tuning);
        s.warmupIterations = warmupIterations;
        s.samplingIterations = samplingIterations;
        return s;
    }

    public long chain() {
        return chain;
    }

    /** The current position; kernels update it in place. */
    public double[] position() {
        return position;
    }

    public double logDensity() {
        return logDensity;
    }

    /** The kernel's tunable state (e.g. log proposal scale); owned by the kernel. */
    public double[] tuning() {
        return tuning;
    }

    public long warmupIterations() {
        return warmupIterations;
    }

    public long samplingIterations() {
        return samplingIterations;
    }

    /** Moves the chain to a new position of the same dimension with its log density. */
    public void moveTo(double[] newPosition, double newLogDensity) {
        if (newPosition.length != position.length) {
            throw new IllegalArgumentException("moveTo keeps the dimension (" + position.length + "), got "
                    + newPosition.length + "; use jumpTo for dimension-changing moves");
        }
        System.arraycopy(newPosition, 0, position, 0, position.length);
        logDensity = newLogDensity;
    }

    /** Moves the chain to a position of possibly another dimension (reversible-jump moves); takes ownership. */
    public void jumpTo(double[] newPosition, double newLogDensity) {
        position = newPosition;
        logDensity = newLogDensity;
    }

    void countIteration(boolean warmup) {
        if (warmup) {
            warmupIterations++;
        } else {
            samplingIterations++;
        }
    }

    /**
     * A view of this chain for one part of a composite kernel: the same position array, log density and counters,
     * with that part's own tuning array. The composite copies the part's moves back with {@link #jumpTo}.
     */
    ChainState withTuning(double[] partTuning) {
        ChainState view = new ChainState(chain, position, logDensity, partTuning);
        view.warmupIterations = warmupIterations;
        view.samplingIterations = samplingIterations;
        return view;
    }

    public ChainState copy() {
        ChainState c = new ChainState(chain, position.clone(), logDensity, tuning.clone());
        c.warmupIterations = warmupIterations;
        c.samplingIterations = samplingIterations;
        return c;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChainState s && chain == s.chain && Arrays.equals(position, s.position)
                && Double.compare(logDensity, s.logDensity) == 0 && Arrays.equals(tuning, s.tuning)
                && warmupIterations == s.warmupIterations && samplingIterations == s.samplingIterations;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(chain) * 31 + Arrays.hashCode(position);
    }

    @Override
    public String toString() {
        return "ChainState[chain=" + chain + ", position=" + Arrays.toString(position) + ", logDensity="
                + logDensity + ", tuning=" + Arrays.toString(tuning) + "]";
    }
}
