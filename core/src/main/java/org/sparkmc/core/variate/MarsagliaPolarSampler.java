package org.sparkmc.core.variate;

import java.util.Objects;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.NormalizedGaussianSampler;

/**
 * Standard normal draws by Marsaglia's polar method (Marsaglia &amp; Bray 1964): draw (V₁, V₂) uniformly on the
 * square [−1, 1]², reject unless 0 &lt; S = V₁² + V₂² &lt; 1 (acceptance π/4), then V₁·√(−2 ln S / S) and
 * V₂·√(−2 ln S / S) are two independent N(0, 1) draws — Box–Muller without the trigonometric functions. The
 * second draw is kept for the next call.
 *
 * <p>The named reference method; for production use Commons RNG's {@code ZigguratSampler.NormalizedGaussian}.
 * Not thread-safe (it caches a draw).
 */
public final class MarsagliaPolarSampler implements NormalizedGaussianSampler {
    private final UniformRandomProvider rng;
    private double next;
    private boolean hasNext;

    private MarsagliaPolarSampler(UniformRandomProvider rng) {
        this.rng = rng;
    }

    public static MarsagliaPolarSampler of(UniformRandomProvider rng) {
        return new MarsagliaPolarSampler(Objects.requireNonNull(rng, "rng"));
    }

    @Override
    public double sample() {
        if (hasNext) {
            hasNext = false;
            return next;
        }
        double v1;
        double v2;
        double s;
        do {
            v1 = 2 * rng.nextDouble() - 1;
            v2 = 2 * rng.nextDouble() - 1;
            s = v1 * v1 + v2 * v2;
        } while (s >= 1 || s == 0);
        double factor = Math.sqrt(-2 * Math.log(s) / s);
        next = v2 * factor;
        hasNext = true;
        return v1 * factor;
    }
}
