package org.sparkmc.core.model;

/**
 * A target whose coordinates take a few values only, such as an Ising field's spins: a kernel that proposes continuous
 * moves (random walks, slice sampling, NUTS) lands where its density is 0 and never moves, so such kernels are refused
 * for it and its own (Gibbs) kernels are named instead.
 */
public interface DiscreteStates extends Target {

    /** The values a coordinate takes, for messages ("-1 or +1"). */
    String values();

    /** The kernels that sample it, for messages ("colour-gibbs or gibbs"). */
    String kernels();
}
