package org.sparkmc.core.mcmc;

import java.io.Serializable;

/**
 * Writes a chain's kernel (or observer) state as numbers for a checkpoint and reads it back: {@code decode(encode(s),
 * d)} equals s for a state of a d-dimensional target. Checkpoints store the numbers as JSON, so a state survives a
 * restart whatever the JVM.
 *
 * @param <S> the state type
 */
public interface StateCodec<S> extends Serializable {

    /** The state as numbers. */
    double[] encode(S state);

    /** The state written by {@link #encode}, for a target of dimension {@code dimension}. */
    S decode(double[] data, int dimension);

    /** The codec of a kernel without state: nothing written, null read. */
    static <S> StateCodec<S> none() {
        return new StateCodec<>() {
            private static final long serialVersionUID = 1L;

            @Override
            public double[] encode(S state) {
                return new double[0];
            }

            @Override
            public S decode(double[] data, int dimension) {
                if (data.length != 0) {
                    throw new IllegalArgumentException("a stateless kernel's state is empty, got " + data.length
                            + " numbers");
                }
                return null;
            }
        };
    }
}
