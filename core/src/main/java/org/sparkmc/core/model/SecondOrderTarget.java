package org.sparkmc.core.model;

/**
 * A target that can compute its log density's gradient and negative Hessian itself, in one pass, for the Newton
 * steps of {@link NumericalLaplace}; where it cannot, finite differences of {@link #logDensity} take over.
 */
public interface SecondOrderTarget extends Target {

    /**
     * Fills g = ∇ log p(x) and h = −∇² log p(x) (row-major d × d) and returns true, or returns false, leaving both
     * untouched, when this target has no closed form for them.
     */
    boolean derivatives(double[] x, double[] g, double[] h);
}
