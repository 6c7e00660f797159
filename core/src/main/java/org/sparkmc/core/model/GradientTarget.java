package org.sparkmc.core.model;

/**
 * A target that computes the gradient of its log density, for gradient-based kernels such as NUTS
 * ({@code org.sparkmc.core.mcmc.Nuts}). The gradient is of the same log density {@link #logDensity} returns, on the
 * same unconstrained position (Jacobian terms included). A user's {@code class:} target implements this interface
 * to be sampled by NUTS; the built-in models that NUTS serves implement it with analytic gradients.
 */
public interface GradientTarget extends Target {

    /**
     * Fills {@code gradient} with ∇ log p(x) and returns log p(x), equal to {@link #logDensity}{@code (x)}; where
     * the density is zero it returns −∞ (or NaN) and the gradient's contents are unspecified.
     *
     * @param gradient receives the gradient (length {@link #dimension()})
     */
    double logDensityGradient(double[] position, double[] gradient);
}
