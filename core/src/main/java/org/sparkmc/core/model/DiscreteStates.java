package org.sparkmc.core.model;

/**
 * A target whose coordinates, or some of them, take a few values only, such as an Ising field's spins or a Gaussian
 * mixture's component labels: a kernel that proposes continuous moves for them (random walks, slice sampling, NUTS)
 * lands where the density is 0 and never moves them, so such kernels are refused for it and its own (Gibbs) kernels
 * are named instead.
 */
public interface DiscreteStates extends Target {

    /** The values a discrete coordinate takes, for messages ("-1 or +1", "component labels 0 to 3"). */
    String values();

    /** The kernels that sample it, for messages ("colour-gibbs or gibbs"). */
    String kernels();
}
