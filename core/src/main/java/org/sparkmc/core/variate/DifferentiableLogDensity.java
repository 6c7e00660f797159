package org.sparkmc.core.variate;

/** A log density with its derivative d ln p̃/dx, for the tangent form of adaptive rejection sampling. */
public interface DifferentiableLogDensity extends LogDensity {
    double derivative(double x);

    /** Combines a log density and its derivative given as two functions. */
    static DifferentiableLogDensity of(LogDensity value, LogDensity derivative) {
        return new DifferentiableLogDensity() {
            @Override
            public double value(double x) {
                return value.value(x);
            }

            @Override
            public double derivative(double x) {
                return derivative.value(x);
            }
        };
    }
}
