package org.sparkmc.core.variate;

import java.util.Objects;
import java.util.function.DoubleUnaryOperator;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;

/**
 * Inversion (the inverse-CDF method): if U ~ U(0, 1) then F⁻¹(U) has CDF F (Devroye 1986, §II.2).
 *
 * <p>Generic over the quantile function F⁻¹, which is called with u in the open interval (0, 1) so that
 * quantiles with infinite tails stay finite. The worked example is the exponential distribution with rate λ:
 * F(x) = 1 − e^{−λx}, so F⁻¹(u) = −ln(1 − u)/λ; since 1 − U ~ U, {@link #exponential} uses −ln(U)/λ.
 * For production exponentials prefer Commons RNG's {@code ZigguratSampler.Exponential}.
 */
public final class InverseCdfSampler implements ContinuousSampler {
    private final UniformRandomProvider rng;
    private final DoubleUnaryOperator quantile;

    private InverseCdfSampler(UniformRandomProvider rng, DoubleUnaryOperator quantile) {
        this.rng = rng;
        this.quantile = quantile;
    }

    /**
     * @param quantile the inverse CDF, defined on (0, 1)
     */
    public static InverseCdfSampler of(UniformRandomProvider rng, DoubleUnaryOperator quantile) {
        Objects.requireNonNull(rng, "rng");
        Objects.requireNonNull(quantile, "quantile");
        return new InverseCdfSampler(rng, quantile);
    }

    /** The exponential distribution with the given rate λ &gt; 0 by inversion: x = −ln(U)/λ. */
    public static InverseCdfSampler exponential(UniformRandomProvider rng, double rate) {
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("exponential rate must be positive and finite, is " + rate);
        }
        double scale = 1 / rate;
        // u in (0, 1): -ln(u) is finite. (The quantile -ln(1-u)/λ with 1-u ~ U.)
        return of(rng, u -> -Math.log(u) * scale);
    }

    @Override
    public double sample() {
        return quantile.applyAsDouble(openUniform(rng));
    }

    /** A uniform draw in the open interval (0, 1), as a multiple of 2⁻⁵³. */
    static double openUniform(UniformRandomProvider rng) {
        long bits;
        do {
            bits = rng.nextLong() >>> 11;
        } while (bits == 0);
        return bits * 0x1.0p-53;
    }
}
