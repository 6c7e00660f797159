package com.example;

import java.util.ArrayList;
import java.util.List;
import org.sparkmc.core.model.ModelParameters;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.Rng;

/**
 * The error variance of each of K instruments, a constrained (positive) parameter sampled on the log scale.
 *
 * <p>Row k of the matrix {@code y} holds instrument k's deviations from a reference: y[k][i] ~ N(mu, sigma2[k])
 * with mu known, and sigma2[k] ~ InverseGamma(a, b). The sampler moves u[k] = log sigma2[k] on the whole real line,
 * so the log density is that of u: the log density of sigma2 at exp(u) plus log |d sigma2 / du| = u (the log
 * Jacobian). The posterior is known in closed form, InverseGamma(a + n/2, b + sum_i (y[k][i] - mu)^2 / 2), which
 * is what the test suite checks the draws against.
 */
public final class GroupScales implements Target {
    private final double[] sumOfSquares;
    private final int[] counts;
    private final double a;
    private final double b;

    public GroupScales(ModelParameters p) {
        double[][] y = p.getMatrix("y"); // Stan's matrix[K, n]: a list of rows
        double mu = p.getDouble("mu", 0);
        a = p.getDouble("a", 2);
        b = p.getDouble("b", 1);
        sumOfSquares = new double[y.length];
        counts = new int[y.length];
        for (int k = 0; k < y.length; k++) {
            for (double v : y[k]) {
                sumOfSquares[k] += (v - mu) * (v - mu);
            }
            counts[k] = y[k].length;
        }
    }

    @Override
    public int dimension() {
        return sumOfSquares.length;
    }

    /** log p(u | y) up to a constant, u[k] = log sigma2[k]. */
    @Override
    public double logDensity(double[] u) {
        double lp = 0;
        for (int k = 0; k < u.length; k++) {
            double precision = Math.exp(-u[k]); // 1 / sigma2
            lp += -(a + 1) * u[k] - b * precision;                        // InverseGamma(a, b) prior at sigma2
            lp += -0.5 * counts[k] * u[k] - 0.5 * sumOfSquares[k] * precision; // the normal likelihood
            lp += u[k];                                                   // log Jacobian of sigma2 = exp(u)
        }
        return lp;
    }

    /** One column per reported quantity, named as Stan names vector elements: sigma2[1], ..., sigma[1], .... */
    @Override
    public List<String> parameterNames() {
        List<String> names = new ArrayList<>();
        for (String name : List.of("sigma2", "sigma")) {
            for (int k = 1; k <= dimension(); k++) {
                names.add(name + "[" + k + "]");
            }
        }
        return names;
    }

    /** Back to the constrained scale: sigma2 = exp(u), and the derived sigma = exp(u / 2). */
    @Override
    public double[] parameters(double[] u) {
        double[] out = new double[2 * u.length];
        for (int k = 0; k < u.length; k++) {
            out[k] = Math.exp(u[k]);
            out[u.length + k] = Math.exp(u[k] / 2);
        }
        return out;
    }

    /**
     * Each chain starts near the data's own answer, the log of the instrument's mean squared deviation, dispersed
     * by a uniform step on (-1, 1) drawn from the chain's own random stream (so starts are reproducible).
     */
    @Override
    public double[] initialPosition(Rng rng) {
        double[] u = new double[dimension()];
        for (int k = 0; k < u.length; k++) {
            double guess = sumOfSquares[k] > 0 ? sumOfSquares[k] / counts[k] : b;
            u[k] = Math.log(guess) + 2 * rng.uniform() - 1;
        }
        return u;
    }
}
