package org.sparkmc.core.mcmc;

import org.apache.commons.rng.sampling.distribution.AhrensDieterMarsagliaTsangGammaSampler;
import org.sparkmc.core.model.Matrices;
import org.sparkmc.core.random.Rng;

/**
 * The independence proposal x' = m + s·L·z/√w, whatever the current x: z ~ N(0, I) and w ~ χ²_ν/ν, so x' is
 * multivariate Student-t with ν degrees of freedom, centre m and scale matrix s²·LLᵀ; with ν = ∞ (w = 1) it is the
 * Gaussian N(m, s²·LLᵀ). It is asymmetric, so it returns the Hastings ratio log q(x) − log q(x'); without it the chain
 * would target p·q instead of p.
 *
 * <p>Finite ν gives the proposal heavier tails than any target with Gaussian or lighter tails, which keeps the
 * independence sampler uniformly ergodic there (Mengersen &amp; Tweedie 1996) and lets a chain started far out,
 * as overdispersed starting points are, leave at once.
 */
public final class IndependenceProposal implements Proposal {
    private static final long serialVersionUID = 1L;

    private final double[] mean;
    private final double[] cholesky;
    private final int d;
    private final double nu;

    private IndependenceProposal(double[] mean, double[] cholesky, double nu) {
        this.mean = mean.clone();
        this.cholesky = cholesky.clone();
        this.d = mean.length;
        this.nu = nu;
        if (cholesky.length != d * d) {
            throw new IllegalArgumentException("the scale matrix's factor must be " + d + "×" + d + ", has "
                    + cholesky.length + " entries");
        }
        if (!(nu > 0)) {
            throw new IllegalArgumentException("degrees of freedom must be > 0 (∞ for a Gaussian), are " + nu);
        }
        for (int i = 0; i < d; i++) {
            if (!Double.isFinite(mean[i])) {
                throw new IllegalArgumentException("the centre must be finite, mean[" + i + "] is " + mean[i]);
            }
        }
        for (int k = 0; k < cholesky.length; k++) {
            if (!Double.isFinite(cholesky[k])) {
                throw new IllegalArgumentException("the scale matrix's factor must be finite, cholesky[" + k + "] is "
                        + cholesky[k]);
            }
        }
        for (int i = 0; i < d; i++) {
            if (!(cholesky[i * d + i] > 0)) {
                throw new IllegalArgumentException("the scale matrix's factor needs a positive diagonal, has "
                        + cholesky[i * d + i] + " at " + i + " (cholesky[" + (i * d + i) + "])");
            }
        }
    }

    /**
     * The Gaussian N(m, diag(sd²)).
     *
     * @throws IllegalArgumentException if the lengths differ, a mean is not finite or an sd not positive and finite
     */
    public static IndependenceProposal gaussian(double[] mean, double[] sd) {
        if (mean.length != sd.length) {
            throw new IllegalArgumentException("mean and sd lengths differ: " + mean.length + " vs " + sd.length);
        }
        int d = sd.length;
        double[] l = new double[d * d];
        for (int i = 0; i < d; i++) {
            if (!(sd[i] > 0 && sd[i] < Double.POSITIVE_INFINITY)) {
                throw new IllegalArgumentException("sd[" + i + "] must be positive and finite, is " + sd[i]);
            }
            l[i * d + i] = sd[i];
        }
        return new IndependenceProposal(mean, l, Double.POSITIVE_INFINITY);
    }

    /**
     * Student-t with ν degrees of freedom (∞: Gaussian), centre m and scale matrix LLᵀ.
     *
     * @param cholesky L, the lower Cholesky factor of the scale matrix, row-major d × d
     * @throws IllegalArgumentException if a centre or an entry of L is not finite, L's diagonal not positive or
     *     ν not &gt; 0
     */
    public static IndependenceProposal studentT(double[] mean, double[] cholesky, double nu) {
        return new IndependenceProposal(mean, cholesky, nu);
    }

    @Override
    public double propose(double[] from, double[] to, double scale, Rng rng) {
        double[] step = MultivariateNormalRandomWalk.correlatedNormal(cholesky, d, from.length, rng);
        double stretch = scale;
        if (nu != Double.POSITIVE_INFINITY) {
            stretch /= Math.sqrt(AhrensDieterMarsagliaTsangGammaSampler.of(rng.provider(), nu / 2, 2 / nu).sample());
        }
        for (int i = 0; i < d; i++) {
            to[i] = mean[i] + stretch * step[i];
        }
        return logQ(from, scale) - logQ(to, scale);
    }

    /** log q(x) up to a constant: −½r² (Gaussian) or −(ν + d)/2 · log(1 + r²/ν), r² = |L⁻¹(x − m)|²/s². */
    private double logQ(double[] x, double scale) {
        double r2 = Matrices.mahalanobis(cholesky, d, x, mean) / (scale * scale);
        return nu == Double.POSITIVE_INFINITY ? -0.5 * r2 : -0.5 * (nu + d) * Math.log1p(r2 / nu);
    }
}
