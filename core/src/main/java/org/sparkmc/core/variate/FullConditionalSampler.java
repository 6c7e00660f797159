package org.sparkmc.core.variate;

import org.apache.commons.rng.UniformRandomProvider;

/**
 * Draws once from a one-dimensional full conditional given by its (unnormalised) log density, as a Gibbs
 * sampler needs at every coordinate update. Implementations: {@link AdaptiveRejectionSampler#TANGENT} (the log
 * density must be a {@link DifferentiableLogDensity}) and {@link AdaptiveRejectionSampler#SECANT}.
 */
@FunctionalInterface
public interface FullConditionalSampler {
    /**
     * @param logDensity the full conditional's log density, up to a constant
     * @param lower the support's lower end (may be −∞)
     * @param upper the support's upper end (may be +∞)
     * @param initialAbscissae starting points inside the support (see the implementation for how many)
     */
    double sample(UniformRandomProvider rng, LogDensity logDensity, double lower, double upper,
        double... initialAbscissae);
}
