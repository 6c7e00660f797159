package org.sparkmc.core.variate;

import java.util.Objects;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.SharedStateContinuousSampler;
import org.apache.commons.statistics.distribution.GammaDistribution;

/**
 * Gamma(α, scale θ) draws by the lectures' scheme: a sum of exponentials for integer α, rejection from a
 * Gamma with integer shape otherwise.
 *
 * <p><b>Integer α = k.</b> The sum of k independent Exp(1) draws is Gamma(k, 1): x = −ln(U₁⋯U_k) (the
 * product is renormalised so it cannot underflow).
 *
 * <p><b>Non-integer α &gt; 1.</b> With k = ⌊α⌋ the proposal is q_b = Gamma(k, rate b), drawn as a sum of k
 * exponentials divided by b. For the target p(x) = x^{α−1}e^{−x}/Γ(α) (rate 1),
 * <pre>
 *   p(x)/q_b(x) = Γ(k) / (Γ(α) b^k) · x^{α−k} e^{−(1−b)x},
 * </pre>
 * bounded only for b &lt; 1, with its maximum at x = (α−k)/(1−b), so the smallest envelope is
 * M(b) = Γ(k)/(Γ(α) b^k) · ((α−k)/(e(1−b)))^{α−k}. Setting d ln M/db = −k/b + (α−k)/(1−b) = 0 gives the
 * <b>optimal rate b* = k/α</b> (the proposal's mean k/b* equals the target's mean α), the maximum at x = α, and
 * <pre>
 *   M* = Γ(k) α^α e^{−(α−k)} / (Γ(α) k^k),       acceptance rate 1/M*
 * </pre>
 * (e.g. α = 2.5: M* ≈ 1.1272, acceptance ≈ 0.8871; α = 1.5: M* ≈ 1.2573). The acceptance is lowest just
 * below the next integer: M* → (1 + 1/k)^{k+1}/e as α → k + 1, which is 4/e ≈ 1.47 for k = 1 and tends to 1 as
 * k grows. A proposal x is accepted when ln U ≤ ln(p(x)/(M* q(x))) = (α−k)(ln(x/α) + 1 − x/α).
 *
 * <p><b>α &lt; 1</b> (not in the lectures): Stuart's (1962) boost, G·U^{1/α} with G ~ Gamma(α + 1).
 *
 * <p>The named reference method; production code uses Commons RNG's {@code AhrensDieterMarsagliaTsangGammaSampler}.
 * Draws are scaled by θ at the end. A draw costs O(α) uniforms (the sum of ⌊α⌋ exponentials), so this scheme
 * suits small shapes only.
 */
public final class GammaRejectionSampler implements SharedStateContinuousSampler {
    private final UniformRandomProvider rng;
    private final double shape;
    private final double scale;
    /** Shape of the rejection target: α, or α + 1 when boosting α &lt; 1. */
    private final double target;
    private final int k;
    private final boolean integer;
    private final boolean boost;
    private long proposals;
    private long accepted;

    private GammaRejectionSampler(UniformRandomProvider rng, double shape, double scale) {
        this.rng = rng;
        this.shape = shape;
        this.scale = scale;
        this.boost = shape < 1;
        this.target = boost ? shape + 1 : shape;
        this.k = (int) Math.floor(target);
        this.integer = k == target;
    }

    /**
     * @param shape α &gt; 0
     * @param scale θ &gt; 0 (the mean is αθ), as in Commons RNG's gamma samplers
     */
    public static GammaRejectionSampler of(UniformRandomProvider rng, double shape, double scale) {
        Objects.requireNonNull(rng, "rng");
        if (!(shape > 0) || Double.isInfinite(shape)) {
            throw new IllegalArgumentException("gamma shape must be positive and finite, is " + shape);
        }
        if (shape >= Integer.MAX_VALUE) {
            throw new IllegalArgumentException("gamma shape too large for a sum of exponentials: " + shape);
        }
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw new IllegalArgumentException("gamma scale must be positive and finite, is " + scale);
        }
        return new GammaRejectionSampler(rng, shape, scale);
    }

    /** The optimal proposal rate b* = ⌊α⌋/α for a non-integer α &gt; 1. */
    public static double optimalRate(double shape) {
        requireRejectionShape(shape);
        return Math.floor(shape) / shape;
    }

    /** The smallest envelope constant M* = Γ(k) α^α e^{−(α−k)} / (Γ(α) k^k), k = ⌊α⌋, for non-integer α &gt; 1. */
    public static double envelope(double shape) {
        requireRejectionShape(shape);
        double k = Math.floor(shape);
        // M* = p(α)/q_{b*}(α): the ratio's maximum is at x = α (Commons Statistics evaluates Γ for us).
        return GammaDistribution.of(shape, 1).density(shape) / GammaDistribution.of(k, shape / k).density(shape);
    }

    private static void requireRejectionShape(double shape) {
        if (!(shape > 1) || shape == Math.floor(shape) || Double.isInfinite(shape)) {
            throw new IllegalArgumentException("the rejection step needs a non-integer shape > 1, is " + shape);
        }
    }

    @Override
    public double sample() {
        double x;
        if (integer) {
            x = sumOfExponentials(k);
        } else {
            double excess = target - k;
            double proposalScale = target / k; // 1/b*
            while (true) {
                x = sumOfExponentials(k) * proposalScale;
                proposals++;
                double r = x / target;
                if (Math.log(InverseCdfSampler.openUniform(rng)) <= excess * (Math.log(r) + 1 - r)) {
                    accepted++;
                    break;
                }
            }
        }
        if (boost) {
            x *= Math.pow(InverseCdfSampler.openUniform(rng), 1 / shape);
        }
        return x * scale;
    }

    /** −ln(U₁⋯U_n): Gamma(n, 1). */
    private double sumOfExponentials(int n) {
        double product = 1;
        double logs = 0;
        for (int i = 0; i < n; i++) {
            product *= InverseCdfSampler.openUniform(rng);
            if (product < 0x1.0p-900) {
                logs += Math.log(product);
                product = 1;
            }
        }
        return -(logs + Math.log(product));
    }

    /** The fraction of proposals accepted so far by the rejection step (NaN before any, or for integer α). */
    public double acceptanceRate() {
        return proposals == 0 ? Double.NaN : (double) accepted / proposals;
    }

    public double shape() {
        return shape;
    }

    public double scale() {
        return scale;
    }

    @Override
    public GammaRejectionSampler withUniformRandomProvider(UniformRandomProvider other) {
        return of(other, shape, scale);
    }
}
