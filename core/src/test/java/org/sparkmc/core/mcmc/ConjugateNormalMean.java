package org.sparkmc.core.mcmc;

import org.sparkmc.core.model.Target;

/**
 * θ ~ N(0, 1), y_i | θ ~ N(θ, 1): the posterior is N(Σy/(n+1), 1/(n+1)). Used for simulation-based calibration.
 */
record ConjugateNormalMean(double[] y) implements Target {
    @Override
    public int dimension() {
        return 1;
    }

    @Override
    public double logDensity(double[] x) {
        double theta = x[0];
        double lp = -0.5 * theta * theta;
        for (double yi : y) {
            lp -= 0.5 * (yi - theta) * (yi - theta);
        }
        return lp;
    }
}
