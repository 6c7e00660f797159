package org.sparkmc.core.rjmcmc;

import org.apache.commons.numbers.gamma.LogGamma;

/** Normalised log densities the reversible-jump examples need (every constant kept: model dimensions change). */
final class LogDensities {
    static final double LOG_2PI = Math.log(2 * Math.PI);

    private LogDensities() {
    }

    /** log N(x; mean, variance). */
    static double normal(double x, double mean, double variance) {
        double r = x - mean;
        return -0.5 * (LOG_2PI + Math.log(variance) + r * r / variance);
    }

    static double logGamma(double x) {
        return LogGamma.value(x);
    }

    /** log(Σ exp(v)) of the first n values. */
    static double logSumExp(double[] v, int n) {
        double max = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            max = Math.max(max, v[i]);
        }
        if (max == Double.NEGATIVE_INFINITY) {
            return max;
        }
        double s = 0;
        for (int i = 0; i < n; i++) {
            s += Math.exp(v[i] - max);
        }
        return max + Math.log(s);
    }
}
