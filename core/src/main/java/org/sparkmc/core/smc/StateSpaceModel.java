package org.sparkmc.core.smc;

import java.io.Serializable;
import org.sparkmc.core.random.Rng;

/**
 * A state-space (hidden Markov) model: x_0 ~ μ, x_n | x_{n−1} ~ f_n, y_n | x_n ~ g_n, with d-dimensional
 * states. Every method works on a contiguous block of particles [from, to) of an N×d row-major array (particle i
 * occupies {@code states[i·d .. i·d + d)}), so one call does a block's work without per-particle dispatch.
 * Per-particle outputs go to {@code out[i − from]}. A model travels to Spark executors by serialization, so it
 * keeps its parameters in serializable fields and holds no mutable state: calls may run concurrently.
 *
 * <p>The bootstrap filter needs the three samplers and the observation density; a guided filter also needs
 * {@link #logInitialDensity} and {@link #logTransitionDensity}.
 */
public interface StateSpaceModel extends Serializable {

    /** d, the state dimension. */
    int stateDimension();

    /** The observation dimension. */
    int observationDimension();

    /** Draws x_0 ~ μ for particles [from, to). */
    void sampleInitial(double[] states, int from, int to, Rng rng);

    /** Replaces x_{n−1} by a draw x_n ~ f_n(· | x_{n−1}) for particles [from, to), in place (n ≥ 1). */
    void sampleTransition(int step, double[] states, int from, int to, Rng rng);

    /** {@code out[i − from] = log g_n(y | x_i)} for particles [from, to); y has no NaN. */
    void logObservationDensity(int step, double[] y, double[] states, int from, int to, double[] out);

    /** {@code out[i − from] = log μ(x_i)}; needed by guided filters only. */
    default void logInitialDensity(double[] states, int from, int to, double[] out) {
        throw new UnsupportedOperationException(getClass().getSimpleName()
                + " has no initial density; a guided filter needs one");
    }

    /**
     * {@code out[i − from] = log f_n(x_i | x'_i)} where x'_i is the previous state of particle i, stored
     * block-locally at {@code previous[(i − from)·d ..]}; needed by guided filters only.
     */
    default void logTransitionDensity(int step, double[] previous, double[] states, int from, int to,
            double[] out) {
        throw new UnsupportedOperationException(getClass().getSimpleName()
                + " has no transition density; a guided filter needs one");
    }
}
