package org.sparkmc.core.mcmc;

import org.sparkmc.core.model.FullConditionals;
import org.sparkmc.core.model.GradientTarget;
import org.sparkmc.core.random.Rng;

/**
 * A bivariate normal with means 0, sds (s1, s2) and correlation ρ, with its full conditionals
 * x1 | x2 ~ N(ρ s1/s2 x2, s1²(1 − ρ²)) and vice versa, and its gradient, for kernel tests.
 */
record CorrelatedNormal(double s1, double s2, double rho) implements FullConditionals, GradientTarget {
    @Override
    public int dimension() {
        return 2;
    }

    @Override
    public double logDensity(double[] x) {
        double a = x[0] / s1;
        double b = x[1] / s2;
        return -0.5 * (a * a - 2 * rho * a * b + b * b) / (1 - rho * rho);
    }

    @Override
    public double logDensityGradient(double[] x, double[] g) {
        double a = x[0] / s1;
        double b = x[1] / s2;
        double c = 1 - rho * rho;
        g[0] = -(a - rho * b) / (c * s1);
        g[1] = -(b - rho * a) / (c * s2);
        return logDensity(x);
    }

    @Override
    public int blockCount() {
        return 2;
    }

    @Override
    public void sampleBlock(int block, double[] x, Rng rng) {
        double sd = Math.sqrt(1 - rho * rho);
        if (block == 0) {
            x[0] = rho * s1 / s2 * x[1] + s1 * sd * rng.normal();
        } else {
            x[1] = rho * s2 / s1 * x[0] + s2 * sd * rng.normal();
        }
    }
}
