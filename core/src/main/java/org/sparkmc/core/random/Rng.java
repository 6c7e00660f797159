package org.sparkmc.core.random;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.NormalizedGaussianSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * One random stream with the two draws every kernel needs: uniforms from the generator and standard normals
 * from Commons RNG's Ziggurat sampler (McFarland 2016) over the same generator.
 */
public final class Rng {
    private final UniformRandomProvider provider;
    private final NormalizedGaussianSampler normal;

    public Rng(UniformRandomProvider provider) {
        this.provider = provider;
        this.normal = ZigguratSampler.NormalizedGaussian.of(provider);
    }

    public UniformRandomProvider provider() {
        return provider;
    }

    /** A uniform draw in [0, 1). */
    public double uniform() {
        return provider.nextDouble();
    }

    /** A standard normal draw. */
    public double normal() {
        return normal.sample();
    }
}
