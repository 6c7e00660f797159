package org.sparkmc.core.smc.models;

import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.random.Rng;
import org.sparkmc.core.smc.StateSpaceModel;

/**
 * The stochastic-volatility model (Kim, Shephard &amp; Chib 1998; Doucet &amp; Johansen 2009, example 4):
 * x_0 ~ N(0, σ²/(1 − φ²)) (the stationary law), x_n = φ x_{n−1} + σ v_n, y_n = β exp(x_n/2) e_n, with v_n, e_n
 * independent standard normals. Non-linear: no closed-form filter, so particle filters are checked against a
 * very large particle run.
 */
public final class StochasticVolatilityModel implements StateSpaceModel {
    private static final long serialVersionUID = 1L;
    private static final double HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI);

    private final double phi;
    private final double sigma;
    private final double beta;
    private final double stationarySd;
    private final double logBeta;
    private final double halfInvBeta2;

    /** Requires |φ| &lt; 1, σ &gt; 0, β &gt; 0. */
    public StochasticVolatilityModel(double phi, double sigma, double beta) {
        if (!(Math.abs(phi) < 1)) {
            throw new InvalidInputException("stochastic volatility: |phi| must be < 1 for a stationary start, is "
                    + phi);
        }
        if (!(sigma > 0) || !(beta > 0) || Double.isInfinite(sigma) || Double.isInfinite(beta)) {
            throw new InvalidInputException("stochastic volatility: sigma and beta must be positive and finite, are "
                    + sigma + " and " + beta);
        }
        this.phi = phi;
        this.sigma = sigma;
        this.beta = beta;
        this.stationarySd = sigma / Math.sqrt(1 - phi * phi);
        this.logBeta = Math.log(beta);
        this.halfInvBeta2 = 0.5 / (beta * beta);
    }

    @Override
    public int stateDimension() {
        return 1;
    }

    @Override
    public int observationDimension() {
        return 1;
    }

    @Override
    public void sampleInitial(double[] states, int from, int to, Rng rng) {
        for (int i = from; i < to; i++) {
            states[i] = stationarySd * rng.normal();
        }
    }

    @Override
    public void sampleTransition(int step, double[] states, int from, int to, Rng rng) {
        for (int i = from; i < to; i++) {
            states[i] = phi * states[i] + sigma * rng.normal();
        }
    }

    @Override
    public void logObservationDensity(int step, double[] y, double[] states, int from, int to, double[] out) {
        double y2 = y[0] * y[0];
        for (int i = from; i < to; i++) {
            double x = states[i];
            out[i - from] = -HALF_LOG_2PI - logBeta - 0.5 * x - halfInvBeta2 * y2 * Math.exp(-x);
        }
    }

    /** Simulates (x_n, y_n) for n = 0..T−1: returns {states, observations}. */
    public double[][] simulate(int steps, Rng rng) {
        double[] x = new double[steps];
        double[] y = new double[steps];
        double state = stationarySd * rng.normal();
        for (int n = 0; n < steps; n++) {
            if (n > 0) {
                state = phi * state + sigma * rng.normal();
            }
            x[n] = state;
            y[n] = beta * Math.exp(state / 2) * rng.normal();
        }
        return new double[][] {x, y};
    }
}
