package org.sparkmc.core.model;

import org.sparkmc.core.random.Rng;

/**
 * A target whose position splits into blocks that can each be drawn exactly from its full conditional
 * p(x_b | x_−b) — what a Gibbs sampler (Geman &amp; Geman 1984; Gelfand &amp; Smith 1990) needs. Blocks may be single
 * coordinates or groups updated jointly (blocked Gibbs). {@link #logDensity} must be the joint the conditionals come
 * from, so Gibbs updates compose with Metropolis–Hastings kernels on the same target.
 */
public interface FullConditionals extends Target {

    /** Number of blocks. */
    int blockCount();

    /** Replaces block {@code block} of {@code position} in place by a draw from its full conditional. */
    void sampleBlock(int block, double[] position, Rng rng);

    /**
     * One systematic-scan sweep: every block in order 0, 1, …. Implementations may override it with a faster
     * equivalent (e.g. keeping sufficient statistics up to date across the sweep); it must draw from the same
     * sequence of conditionals.
     */
    default void sweep(double[] position, Rng rng) {
        for (int b = 0; b < blockCount(); b++) {
            sampleBlock(b, position, rng);
        }
    }
}
