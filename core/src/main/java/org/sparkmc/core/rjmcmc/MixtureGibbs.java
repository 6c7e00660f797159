package org.sparkmc.core.rjmcmc;

import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.AhrensDieterMarsagliaTsangGammaSampler;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.Categorical;
import org.sparkmc.core.random.Rng;

/**
 * The fixed-k Gibbs updates of Richardson &amp; Green (1997, §3.2) for {@link NormalMixture}, each a {@link Move}
 * drawing from a full conditional (n_j observations allocated to component j):
 * <ul>
 * <li>{@link Weights}: w ~ Dirichlet(δ + n_1, …, δ + n_k);</li>
 * <li>{@link Means}: μ_j ~ N((σ_j⁻² Σ_{z_i=j} y_i + κξ)/(σ_j⁻² n_j + κ), 1/(σ_j⁻² n_j + κ)) for all j at once,
 * rejected as a whole if the order μ_1 &lt; … &lt; μ_k is not kept (an independence Metropolis–Hastings step whose
 * acceptance ratio is exactly that indicator);</li>
 * <li>{@link Variances}: σ_j⁻² ~ Gamma(α + n_j/2, β + ½ Σ_{z_i=j} (y_i − μ_j)²);</li>
 * <li>{@link Allocations}: P(z_i = j) ∝ w_j/σ_j · exp(−(y_i − μ_j)²/(2σ²_j));</li>
 * <li>{@link Beta}: β ~ Gamma(g + kα, h + Σ_j σ_j⁻²).</li>
 * </ul>
 */
final class MixtureGibbs {
    private MixtureGibbs() {
    }

    /** Common plumbing: decode, update, re-encode, recompute the log density. */
    abstract static class Update implements Move {
        private static final long serialVersionUID = 1L;
        final NormalMixture model;
        private final String label;

        Update(NormalMixture model, String label) {
            this.model = model;
            this.label = label;
        }

        @Override
        public List<String> labels() {
            return List.of(label);
        }

        /** Updates {@code s} in place; returns false if the update was rejected (state unchanged). */
        abstract boolean update(MixtureState s, Rng rng);

        @Override
        public int apply(Target target, ChainState state, Rng rng) {
            MixtureState s = MixtureState.decode(state.position(), model.n());
            if (!update(s, rng)) {
                return Move.outcome(0, false);
            }
            double[] x = s.encode();
            state.jumpTo(x, target.logDensity(x));
            return Move.outcome(0, true);
        }
    }

    static final class Weights extends Update {
        private static final long serialVersionUID = 1L;

        Weights(NormalMixture model) {
            super(model, "weights");
        }

        @Override
        boolean update(MixtureState s, Rng rng) {
            s.w = dirichlet(rng.provider(), s.k, model.prior().delta(), s.counts());
            return true;
        }
    }

    static final class Means extends Update {
        private static final long serialVersionUID = 1L;

        Means(NormalMixture model) {
            super(model, "means");
        }

        @Override
        boolean update(MixtureState s, Rng rng) {
            double[] sum = new double[s.k];
            int[] count = new int[s.k];
            for (int i = 0; i < s.z.length; i++) {
                sum[s.z[i]] += model.y(i);
                count[s.z[i]]++;
            }
            MixturePrior p = model.prior();
            double[] mu = new double[s.k];
            for (int j = 0; j < s.k; j++) {
                double precision = count[j] / s.var[j] + p.kappa();
                double mean = (sum[j] / s.var[j] + p.kappa() * p.xi()) / precision;
                mu[j] = mean + rng.normal() / Math.sqrt(precision);
                if (j > 0 && !(mu[j] > mu[j - 1])) {
                    return false;
                }
            }
            s.mu = mu;
            return true;
        }
    }

    static final class Variances extends Update {
        private static final long serialVersionUID = 1L;

        Variances(NormalMixture model) {
            super(model, "variances");
        }

        @Override
        boolean update(MixtureState s, Rng rng) {
            double[] ss = new double[s.k];
            int[] count = new int[s.k];
            for (int i = 0; i < s.z.length; i++) {
                double r = model.y(i) - s.mu[s.z[i]];
                ss[s.z[i]] += r * r;
                count[s.z[i]]++;
            }
            UniformRandomProvider r = rng.provider();
            for (int j = 0; j < s.k; j++) {
                double shape = model.prior().alpha() + 0.5 * count[j];
                double rate = s.beta + 0.5 * ss[j];
                s.var[j] = 1 / AhrensDieterMarsagliaTsangGammaSampler.of(r, shape, 1 / rate).sample();
            }
            return true;
        }
    }

    static final class Allocations extends Update {
        private static final long serialVersionUID = 1L;

        Allocations(NormalMixture model) {
            super(model, "allocations");
        }

        @Override
        boolean update(MixtureState s, Rng rng) {
            drawAllocations(model, s, rng);
            return true;
        }
    }

    static final class Beta extends Update {
        private static final long serialVersionUID = 1L;

        Beta(NormalMixture model) {
            super(model, "beta");
        }

        @Override
        boolean update(MixtureState s, Rng rng) {
            MixturePrior p = model.prior();
            double rate = p.h();
            for (double v : s.var) {
                rate += 1 / v;
            }
            s.beta = AhrensDieterMarsagliaTsangGammaSampler.of(rng.provider(), p.g() + s.k * p.alpha(), 1 / rate)
                    .sample();
            return true;
        }
    }

    /** z_i from P(z_i = j) ∝ w_j N(y_i; μ_j, σ²_j), for every i. */
    static void drawAllocations(NormalMixture model, MixtureState s, Rng rng) {
        double[] p = new double[s.k];
        double[] logScale = new double[s.k];
        for (int j = 0; j < s.k; j++) {
            logScale[j] = Math.log(s.w[j]) - 0.5 * Math.log(s.var[j]);
        }
        for (int i = 0; i < s.z.length; i++) {
            double max = Double.NEGATIVE_INFINITY;
            for (int j = 0; j < s.k; j++) {
                double r = model.y(i) - s.mu[j];
                p[j] = logScale[j] - 0.5 * r * r / s.var[j];
                max = Math.max(max, p[j]);
            }
            for (int j = 0; j < s.k; j++) {
                p[j] = Math.exp(p[j] - max);
            }
            s.z[i] = Categorical.draw(p, s.k, rng.uniform());
        }
    }

    /** Dirichlet(δ + counts) by normalised Gamma draws. */
    static double[] dirichlet(UniformRandomProvider r, int k, double delta, int[] counts) {
        double[] w = new double[k];
        double sum = 0;
        for (int j = 0; j < k; j++) {
            w[j] = AhrensDieterMarsagliaTsangGammaSampler.of(r, delta + counts[j], 1).sample();
            sum += w[j];
        }
        for (int j = 0; j < k; j++) {
            w[j] /= sum;
        }
        return w;
    }
}
