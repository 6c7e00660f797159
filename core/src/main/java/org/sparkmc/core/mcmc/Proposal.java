package org.sparkmc.core.mcmc;

import java.io.Serializable;
import org.sparkmc.core.random.Rng;

/**
 * A Metropolis–Hastings proposal q(x' | x). Following BEAST2's operator contract, it writes the proposed point
 * and returns the log Hastings ratio log q(x | x') − log q(x' | x) (zero for a symmetric proposal), so the
 * kernel never needs to know the proposal's density.
 */
public interface Proposal extends Serializable {

    /**
     * @param from  the current point (not modified)
     * @param to    receives the proposed point
     * @param scale the kernel's current (adapted) scale
     * @return log q(from | to) − log q(to | from)
     */
    double propose(double[] from, double[] to, double scale, Rng rng);
}
