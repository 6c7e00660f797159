package org.sparkmc.core.mcmc;

import org.sparkmc.core.model.Target;

/** N(mean, sd²) in one dimension, for kernel tests. */
record NormalTarget(double mean, double sd) implements Target {
    @Override
    public int dimension() {
        return 1;
    }

    @Override
    public double logDensity(double[] x) {
        double z = (x[0] - mean) / sd;
        return -0.5 * z * z;
    }
}
