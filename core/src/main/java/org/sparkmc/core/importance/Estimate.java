package org.sparkmc.core.importance;

/** A Monte Carlo estimate with its Monte Carlo standard error. */
public record Estimate(double value, double mcse) {
}
