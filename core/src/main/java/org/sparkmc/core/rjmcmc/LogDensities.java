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
}
