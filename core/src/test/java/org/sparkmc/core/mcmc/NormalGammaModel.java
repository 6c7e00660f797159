package org.sparkmc.core.mcmc;

import java.util.List;
import org.apache.commons.rng.sampling.distribution.AhrensDieterMarsagliaTsangGammaSampler;
import org.sparkmc.core.model.FullConditionals;
import org.sparkmc.core.random.Rng;

/**
 * The semi-conjugate normal model: μ ~ N(0, 1), τ ~ Gamma(shape 2, rate 2), y_i | μ, τ ~ N(μ, 1/τ). Position
 * (μ, log τ), log density with the Jacobian log τ, reported (μ, τ). Full conditionals: μ | τ, y ~ N(τΣy/(1 + nτ),
 * 1/(1 + nτ)), τ | μ, y ~ Gamma(2 + n/2, 2 + ½Σ(y − μ)²). With {@code wrongShape} the τ conditional uses shape
 * 2 + n instead — a deliberately broken Gibbs sampler.
 */
record NormalGammaModel(double[] y, boolean wrongShape) implements FullConditionals {
    static final double SHAPE = 2;
    static final double RATE = 2;

    /** Draws (μ, τ) from the prior and n data points given them: returns {μ, τ, y_1…y_n}. */
    static double[] simulate(Rng rng, int n) {
        double mu = rng.normal();
        double tau = AhrensDieterMarsagliaTsangGammaSampler.of(rng.provider(), SHAPE, 1 / RATE).sample();
        double[] out = new double[2 + n];
        out[0] = mu;
        out[1] = tau;
        for (int i = 0; i < n; i++) {
            out[2 + i] = mu + rng.normal() / Math.sqrt(tau);
        }
        return out;
    }

    @Override
    public int dimension() {
        return 2;
    }

    @Override
    public double logDensity(double[] x) {
        double mu = x[0];
        double logTau = x[1];
        double tau = Math.exp(logTau);
        double ss = 0;
        for (double v : y) {
            ss += (v - mu) * (v - mu);
        }
        return -0.5 * mu * mu + (SHAPE - 1) * logTau - RATE * tau + 0.5 * y.length * logTau - 0.5 * tau * ss + logTau;
    }

    @Override
    public int blockCount() {
        return 2;
    }

    @Override
    public void sampleBlock(int block, double[] x, Rng rng) {
        int n = y.length;
        if (block == 0) {
            double tau = Math.exp(x[1]);
            double sum = 0;
            for (double v : y) {
                sum += v;
            }
            double precision = 1 + n * tau;
            x[0] = tau * sum / precision + rng.normal() / Math.sqrt(precision);
        } else {
            double ss = 0;
            for (double v : y) {
                ss += (v - x[0]) * (v - x[0]);
            }
            double shape = SHAPE + (wrongShape ? n : n / 2.0);
            double rate = RATE + 0.5 * ss;
            x[1] = Math.log(AhrensDieterMarsagliaTsangGammaSampler.of(rng.provider(), shape, 1 / rate).sample());
        }
    }

    @Override
    public List<String> parameterNames() {
        return List.of("mu", "tau");
    }

    @Override
    public double[] parameters(double[] x) {
        return new double[] {x[0], Math.exp(x[1])};
    }
}
