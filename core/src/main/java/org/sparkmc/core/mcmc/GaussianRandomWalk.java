package org.sparkmc.core.mcmc;

import org.sparkmc.core.random.Rng;

/**
 * The symmetric random-walk proposal x' = x + s·z with z ~ N(0, I): the Hastings ratio is 1 (log 0). With s = 10
 * it is the lectures' N(x, 100) proposal.
 */
public final class GaussianRandomWalk implements Proposal {
    private static final long serialVersionUID = 1L;

    @Override
    public double propose(double[] from, double[] to, double scale, Rng rng) {
        for (int i = 0; i < from.length; i++) {
            to[i] = from[i] + scale * rng.normal();
        }
        return 0;
    }
}
