package org.sparkmc.core.rjmcmc;

import org.sparkmc.core.random.Rng;

/**
 * Richardson &amp; Green's (1997, §3.3) split of one normal component (w, μ, σ²) with u = (u₁, u₂, u₃) ∈ (0,1)³ into
 * two, matching the zeroth, first and second moments:
 * w₁ = w u₁, w₂ = w (1 − u₁); μ₁ = μ − u₂ σ √(w₂/w₁), μ₂ = μ + u₂ σ √(w₁/w₂);
 * σ²₁ = u₃ (1 − u₂²) σ² w/w₁, σ²₂ = (1 − u₃)(1 − u₂²) σ² w/w₂. Its inverse is the merge
 * w = w₁ + w₂, wμ = w₁μ₁ + w₂μ₂, w(μ² + σ²) = w₁(μ₁² + σ²₁) + w₂(μ₂² + σ²₂), and
 * |det ∂(w₁, μ₁, σ²₁, w₂, μ₂, σ²₂)/∂(w, μ, σ², u₁, u₂, u₃)| = w |μ₁ − μ₂| σ²₁ σ²₂ / (u₂ (1 − u₂²) u₃ (1 − u₃) σ²).
 * Layout: x = (w, μ, σ²), u = (u₁, u₂, u₃); x' = (w₁, μ₁, σ²₁, w₂, μ₂, σ²₂), no u'.
 */
record SplitBijection() implements Bijection {

    @Override
    public String name() {
        return "mixture split (w, μ, σ², u₁, u₂, u₃) → two components";
    }

    @Override
    public int xDimension() {
        return 3;
    }

    @Override
    public int uDimension() {
        return 3;
    }

    @Override
    public int xPrimeDimension() {
        return 6;
    }

    @Override
    public int uPrimeDimension() {
        return 0;
    }

    @Override
    public double[] forward(double[] a) {
        double w = a[0];
        double mu = a[1];
        double v = a[2];
        double u1 = a[3];
        double u2 = a[4];
        double u3 = a[5];
        double w1 = w * u1;
        double w2 = w * (1 - u1);
        double s = Math.sqrt(v);
        double shrink = 1 - u2 * u2;
        return new double[] {w1, mu - u2 * s * Math.sqrt(w2 / w1), u3 * shrink * v * w / w1,
            w2, mu + u2 * s * Math.sqrt(w1 / w2), (1 - u3) * shrink * v * w / w2};
    }

    @Override
    public double[] inverse(double[] b) {
        double w1 = b[0];
        double mu1 = b[1];
        double v1 = b[2];
        double w2 = b[3];
        double mu2 = b[4];
        double v2 = b[5];
        double w = w1 + w2;
        double mu = (w1 * mu1 + w2 * mu2) / w;
        double d = mu2 - mu1;
        double v = (w1 * v1 + w2 * v2) / w + w1 * w2 * d * d / (w * w);
        double u1 = w1 / w;
        double u2 = (mu2 - mu) / (Math.sqrt(v) * Math.sqrt(w1 / w2));
        double u3 = v1 * w1 / (w * (1 - u2 * u2) * v);
        return new double[] {w, mu, v, u1, u2, u3};
    }

    @Override
    public double logAbsDetJacobian(double[] a) {
        double[] b = forward(a);
        double u2 = a[4];
        double u3 = a[5];
        return Math.log(a[0]) + Math.log(Math.abs(b[1] - b[4])) + Math.log(b[2]) + Math.log(b[5]) - Math.log(u2)
                - Math.log1p(-u2 * u2) - Math.log(u3) - Math.log1p(-u3) - Math.log(a[2]);
    }

    @Override
    public double[] randomDomainPoint(Rng rng) {
        return new double[] {0.05 + 0.9 * rng.uniform(), 3 * rng.normal(), 0.2 + 3.8 * rng.uniform(),
            0.05 + 0.9 * rng.uniform(), 0.05 + 0.9 * rng.uniform(), 0.05 + 0.9 * rng.uniform()};
    }
}
