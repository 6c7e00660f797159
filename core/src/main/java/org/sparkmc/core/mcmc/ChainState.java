package org.sparkmc.core.mcmc;

import java.io.Serializable;
import java.util.Arrays;
import java.util.Objects;

/**
 * The complete state of one Markov chain between rounds: its position and log density, its kernel's typed state
 * (adapted during warm-up, frozen after, see {@link Kernel}), and its counters. Random streams are not part of the
 * state: each round draws from a stream keyed by (chain, round), so the state plus the root seed reproduces
 * everything.
 */
public final class ChainState implements Serializable {
    private static final long serialVersionUID = 2L;
    private long chain;
    private double[] position;
    private double logDensity;
    private Object kernelState;
    private long warmupIterations;
    private long samplingIterations;

    /** For serialization frameworks only. */
    public ChainState() {
    }

    /** @param kernelState the state {@link Kernel#initialState} made for this chain's kernel */
    public ChainState(long chain, double[] position, double logDensity, Object kernelState) {
        this.chain = chain;
        this.position = position;
        this.logDensity = logDensity;
        this.kernelState = kernelState;
    }

    /** A chain's state as saved in a checkpoint, counters included. */
    public static ChainState restore(long chain, double[] position, double logDensity, Object kernelState,
            long warmupIterations, long samplingIterations) {
        ChainState s = new ChainState(chain, position, logDensity, kernelState);
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

    /** The kernel's state, of the kernel's state type; read it typed with {@link Kernel#stateOf}. */
    public Object kernelState() {
        return kernelState;
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

    /** Counts a finished iteration (callers that step a kernel themselves, as {@link ChainRound} does). */
    public void countIteration(boolean warmup) {
        if (warmup) {
            warmupIterations++;
        } else {
            samplingIterations++;
        }
    }

    /** A deep copy: the position and, through the kernel's codec, the kernel state. */
    public ChainState copy(Kernel<?> kernel) {
        Object state = kernel.codec().decode(kernel.encodeState(this), position.length);
        return restore(chain, position.clone(), logDensity, state, warmupIterations, samplingIterations);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChainState s && chain == s.chain && Arrays.equals(position, s.position)
                && Double.compare(logDensity, s.logDensity) == 0 && Objects.equals(kernelState, s.kernelState)
                && warmupIterations == s.warmupIterations && samplingIterations == s.samplingIterations;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(chain) * 31 + Arrays.hashCode(position);
    }

    @Override
    public String toString() {
        return "ChainState[chain=" + chain + ", position=" + Arrays.toString(position) + ", logDensity="
                + logDensity + ", kernelState=" + kernelState + "]";
    }
}
