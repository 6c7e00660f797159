package org.sparkmc.core.variate;

import java.util.Objects;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.AhrensDieterMarsagliaTsangGammaSampler;
import org.apache.commons.rng.sampling.distribution.NormalizedGaussianSampler;
import org.apache.commons.rng.sampling.distribution.SharedStateContinuousSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;

/**
 * Gamma(α, scale θ) draws by Marsaglia &amp; Tsang (2000), "A simple method for generating gamma variables": with
 * d = α − 1/3 and c = 1/√(9d), draw Z ~ N(0, 1) and V = (1 + cZ)³; accept dV when V &gt; 0 and
 * ln U &lt; Z²/2 + d − dV + d ln V (a squeeze U &lt; 1 − 0.0331 Z⁴ skips the logarithms most of the time).
 * The acceptance rate exceeds 0.95 for every α ≥ 1. For α &lt; 1, Gamma(α + 1)·U^{1/α}.
 *
 * <p>The named reference, written from the paper; production code should call {@link #production}, Commons
 * RNG's {@link AhrensDieterMarsagliaTsangGammaSampler} (Marsaglia–Tsang for α ≥ 1, Ahrens–Dieter for α &lt; 1).
 */
public final class MarsagliaTsangGammaSampler implements SharedStateContinuousSampler {
    private final UniformRandomProvider rng;
    private final NormalizedGaussianSampler normal;
    private final double shape;
    private final double scale;
    private final double d;
    private final double c;
    private final boolean boost;

    private MarsagliaTsangGammaSampler(UniformRandomProvider rng, double shape, double scale) {
        this.rng = rng;
        this.normal = ZigguratSampler.NormalizedGaussian.of(rng);
        this.shape = shape;
        this.scale = scale;
        this.boost = shape < 1;
        this.d = (boost ? shape + 1 : shape) - 1.0 / 3;
        this.c = 1 / Math.sqrt(9 * d);
    }

    /**
     * @param shape α &gt; 0
     * @param scale θ &gt; 0
     */
    public static MarsagliaTsangGammaSampler of(UniformRandomProvider rng, double shape, double scale) {
        Objects.requireNonNull(rng, "rng");
        checkParameters(shape, scale);
        return new MarsagliaTsangGammaSampler(rng, shape, scale);
    }

    /** The production gamma sampler for the same parameters: Commons RNG's. */
    public static SharedStateContinuousSampler production(UniformRandomProvider rng, double shape, double scale) {
        checkParameters(shape, scale);
        return AhrensDieterMarsagliaTsangGammaSampler.of(rng, shape, scale);
    }

    private static void checkParameters(double shape, double scale) {
        if (!(shape > 0) || Double.isInfinite(shape)) {
            throw new IllegalArgumentException("gamma shape must be positive and finite, is " + shape);
        }
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw new IllegalArgumentException("gamma scale must be positive and finite, is " + scale);
        }
    }

    @Override
    public double sample() {
        double x;
        while (true) {
            double z = normal.sample();
            double v = 1 + c * z;
            if (v <= 0) {
                continue;
            }
            v = v * v * v;
            double u = InverseCdfSampler.openUniform(rng);
            double z2 = z * z;
            if (u < 1 - 0.0331 * z2 * z2 || Math.log(u) < 0.5 * z2 + d * (1 - v + Math.log(v))) {
                x = d * v;
                break;
            }
        }
        if (boost) {
            x *= Math.pow(InverseCdfSampler.openUniform(rng), 1 / shape);
        }
        return x * scale;
    }

    @Override
    public MarsagliaTsangGammaSampler withUniformRandomProvider(UniformRandomProvider other) {
        return of(other, shape, scale);
    }
}
