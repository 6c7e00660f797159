package org.sparkmc.core.mcmc;

import org.sparkmc.core.random.Rng;

/**
 * The independence proposal x' ~ N(m, diag(s·sd)²), whatever the current x. It is asymmetric, so it returns
 * the Hastings ratio log q(x) − log q(x'); without it the chain would target p·q instead of p.
 */
public final class GaussianIndependence implements Proposal {
    private static final long serialVersionUID = 1L;

    private final double[] mean;
    private final double[] sd;

    public GaussianIndependence(double[] mean, double[] sd) {
        if (mean.length != sd.length) {
            throw new IllegalArgumentException("mean and sd lengths differ: " + mean.length + " vs " + sd.length);
        }
        for (double s : sd) {
            if (!(s > 0)) {
                throw new IllegalArgumentException("proposal sd must be > 0, is " + s);
            }
        }
        this.mean = mean.clone();
        this.sd = sd.clone();
    }

    @Override
    public double propose(double[] from, double[] to, double scale, Rng rng) {
        for (int i = 0; i < from.length; i++) {
            to[i] = mean[i] + scale * sd[i] * rng.normal();
        }
        return logQ(from, scale) - logQ(to, scale);
    }

    private double logQ(double[] x, double scale) {
        double sum = 0;
        for (int i = 0; i < x.length; i++) {
            double z = (x[i] - mean[i]) / (scale * sd[i]);
            sum -= 0.5 * z * z;
        }
        return sum;
    }
}
