package org.sparkmc.core.smc;

import java.io.Serializable;
import org.sparkmc.core.random.Rng;

/**
 * A proposal q_n(x_n | x_{n−1}, y_n) that looks at the current observation, for the guided particle filter
 * (Doucet &amp; Johansen 2009, §4.1): particles move by q and are weighted by f·g/q. Block-wise like
 * {@link StateSpaceModel}; it writes the states it draws and their log proposal densities.
 */
public interface GuidedProposal extends Serializable {

    /** Draws x_0 ~ q_0(· | y) into particles [from, to) and writes {@code logDensity[i − from] = log q_0(x_i | y)}. */
    void sampleInitial(double[] y, double[] states, int from, int to, Rng rng, double[] logDensity);

    /**
     * Draws x_n ~ q_n(· | x'_i, y) into particles [from, to), x'_i being stored block-locally at
     * {@code previous[(i − from)·d ..]}, and writes {@code logDensity[i − from] = log q_n(x_i | x'_i, y)}.
     */
    void sample(int step, double[] y, double[] previous, double[] states, int from, int to, Rng rng,
            double[] logDensity);
}
