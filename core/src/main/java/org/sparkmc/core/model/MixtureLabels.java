package org.sparkmc.core.model;

/**
 * A Gaussian mixture sampled through its component labels z_i ({@link MixtureSpec}): discrete states that only its
 * full conditionals move (a continuous move of a label lands between labels, where the density is 0).
 */
public interface MixtureLabels extends DiscreteStates {

    /** The mixture's data and prior. */
    MixtureSpec spec();

    @Override
    default String values() {
        return "component labels 0 to " + (spec().components() - 1);
    }

    /** Its full conditionals, which draw every label from its categorical conditional. */
    @Override
    default String kernels() {
        return "gibbs or gibbs-random";
    }
}
