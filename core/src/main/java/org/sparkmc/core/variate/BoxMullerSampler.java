package org.sparkmc.core.variate;

import java.util.Objects;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.NormalizedGaussianSampler;

/**
 * Standard normal draws by the Box–Muller transform (Box &amp; Muller 1958): for independent U₁, U₂ ~ U(0, 1),
 * R = √(−2 ln U₁) and Θ = 2πU₂ give two independent N(0, 1) draws R cos Θ and R sin Θ. The second draw is
 * kept for the next call.
 *
 * <p>The named reference method; for production use Commons RNG's {@code ZigguratSampler.NormalizedGaussian}.
 * Not thread-safe (it caches a draw).
 */
public final class BoxMullerSampler implements NormalizedGaussianSampler {
    private final UniformRandomProvider rng;
    private double next;
    private boolean hasNext;

    private BoxMullerSampler(UniformRandomProvider rng) {
        this.rng = rng;
    }

    public static BoxMullerSampler of(UniformRandomProvider rng) {
        return new BoxMullerSampler(Objects.requireNonNull(rng, "rng"));
    }

    @Override
    public double sample() {
        if (hasNext) {
            hasNext = false;
            return next;
        }
        double r = Math.sqrt(-2 * Math.log(InverseCdfSampler.openUniform(rng)));
        double theta = 2 * Math.PI * rng.nextDouble();
        next = r * Math.sin(theta);
        hasNext = true;
        return r * Math.cos(theta);
    }
}
