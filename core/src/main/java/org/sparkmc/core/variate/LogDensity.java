package org.sparkmc.core.variate;

/** A log density, normalised or not, of a real variable: ln p̃(x), −∞ outside the support. */
@FunctionalInterface
public interface LogDensity {
    double value(double x);
}
