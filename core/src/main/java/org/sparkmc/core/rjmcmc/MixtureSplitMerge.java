package org.sparkmc.core.rjmcmc;

import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ChengBetaSampler;
import org.sparkmc.core.random.Rng;

/**
 * Richardson &amp; Green's (1997, §3.3) split/merge move for {@link NormalMixture}. From k, split with probability
 * b_k: pick j uniformly, draw u₁, u₂ ~ Beta(2, 2), u₃ ~ Beta(1, 1), apply {@link SplitBijection}, reject unless the
 * two new means are adjacent (no other μ between them), and reallocate the observations of j to j₁ or j₂ with
 * probabilities ∝ w N(y; μ, σ²) (P_alloc their product). Otherwise merge a uniformly chosen adjacent pair (j, j+1)
 * by the inverse map.
 *
 * <p>Correction of the split: log j = log d_{k+1} − log b_k (the 1/k choices of j and of the pair cancel),
 * log q = −log[g₂₂(u₁) g₂₂(u₂) g₁₁(u₃)] − log P_alloc, plus log |det J| of {@link SplitBijection}. The target ratio
 * supplies the rest of R&amp;G's acceptance ratio (their (k+1) is the k! of the ordered means). The merge uses the
 * exact reciprocal.
 */
final class MixtureSplitMerge extends MetropolisMove {
    private static final long serialVersionUID = 1L;
    private final NormalMixture model;
    private final Bijection map;

    MixtureSplitMerge(NormalMixture model) {
        this(model, new SplitBijection());
    }

    /** With another map of the same layout (tests use a deliberately wrong one). */
    MixtureSplitMerge(NormalMixture model, Bijection map) {
        this.model = model;
        this.map = map;
    }

    @Override
    public List<String> labels() {
        return List.of("split", "merge");
    }

    @Override
    public List<Bijection> bijections() {
        return List.of(map);
    }

    /** log[g₂₂(u₁) g₂₂(u₂) g₁₁(u₃)] with the Beta(2, 2) density 6u(1 − u) and the uniform Beta(1, 1). */
    static double logAuxDensity(double[] u) {
        for (double v : u) {
            if (!(v > 0 && v < 1)) {
                return Double.NEGATIVE_INFINITY;
            }
        }
        return 2 * Math.log(6) + Math.log(u[0] * (1 - u[0]) * u[1] * (1 - u[1]));
    }

    @Override
    public Proposed propose(double[] from, Rng rng) {
        JumpProbabilities jumps = model.jumps();
        int k = (int) from[0];
        if (jumps.up(k) == 0 && jumps.down(k) == 0) {
            return Proposed.impossible(0);
        }
        MixtureState s = MixtureState.decode(from, model.n());
        return jumps.chooseUp(k, rng.uniform()) ? split(s, rng) : merge(s, rng);
    }

    private Proposed split(MixtureState s, Rng rng) {
        int k = s.k;
        int j = (int) (rng.uniform() * k);
        UniformRandomProvider r = rng.provider();
        double u1 = ChengBetaSampler.of(r, 2, 2).sample();
        double u2 = ChengBetaSampler.of(r, 2, 2).sample();
        double u3 = rng.uniform();
        double[] a = {s.w[j], s.mu[j], s.var[j], u1, u2, u3};
        double[] b = map.forward(a);
        if ((j > 0 && !(b[1] > s.mu[j - 1])) || (j < k - 1 && !(b[4] < s.mu[j + 1])) || !(b[1] < b[4])) {
            return Proposed.impossible(0);
        }
        MixtureState t = new MixtureState(k + 1, s.beta, insertPair(s.w, j, b[0], b[3]), insertPair(s.mu, j, b[1], b[4]),
                insertPair(s.var, j, b[2], b[5]), new int[s.z.length]);
        double logAlloc = 0;
        for (int i = 0; i < s.z.length; i++) {
            int z = s.z[i];
            if (z < j) {
                t.z[i] = z;
            } else if (z > j) {
                t.z[i] = z + 1;
            } else {
                double p1 = componentDensity(b[0], b[1], b[2], model.y(i));
                double p2 = componentDensity(b[3], b[4], b[5], model.y(i));
                double first = p1 / (p1 + p2);
                if (rng.uniform() < first) {
                    t.z[i] = j;
                    logAlloc += Math.log(first);
                } else {
                    t.z[i] = j + 1;
                    logAlloc += Math.log1p(-first);
                }
            }
        }
        JumpProbabilities jumps = model.jumps();
        return new Proposed(0, t.encode(), Math.log(jumps.down(k + 1)) - Math.log(jumps.up(k)),
                -logAuxDensity(new double[] {u1, u2, u3}) - logAlloc, map.logAbsDetJacobian(a));
    }

    private Proposed merge(MixtureState s, Rng rng) {
        int k = s.k;
        int j = (int) (rng.uniform() * (k - 1));
        double[] b = {s.w[j], s.mu[j], s.var[j], s.w[j + 1], s.mu[j + 1], s.var[j + 1]};
        double[] a = map.inverse(b);
        MixtureState t = new MixtureState(k - 1, s.beta, mergePair(s.w, j, a[0]), mergePair(s.mu, j, a[1]),
                mergePair(s.var, j, a[2]), new int[s.z.length]);
        // The reverse split's reallocation probability of the current allocations of j and j+1.
        double logAlloc = 0;
        for (int i = 0; i < s.z.length; i++) {
            int z = s.z[i];
            if (z < j) {
                t.z[i] = z;
            } else if (z > j + 1) {
                t.z[i] = z - 1;
            } else {
                t.z[i] = j;
                double p1 = componentDensity(b[0], b[1], b[2], model.y(i));
                double p2 = componentDensity(b[3], b[4], b[5], model.y(i));
                double first = p1 / (p1 + p2);
                logAlloc += z == j ? Math.log(first) : Math.log1p(-first);
            }
        }
        JumpProbabilities jumps = model.jumps();
        double[] u = {a[3], a[4], a[5]};
        return new Proposed(1, t.encode(), Math.log(jumps.up(k - 1)) - Math.log(jumps.down(k)),
                logAuxDensity(u) + logAlloc, -map.logAbsDetJacobian(a));
    }

    private static double[] mergePair(double[] a, int j, double merged) {
        double[] out = new double[a.length - 1];
        System.arraycopy(a, 0, out, 0, j);
        out[j] = merged;
        System.arraycopy(a, j + 2, out, j + 1, a.length - j - 2);
        return out;
    }

    private static double componentDensity(double w, double mu, double v, double y) {
        double r = y - mu;
        return w * Math.exp(-0.5 * r * r / v) / Math.sqrt(v);
    }

    private static double[] insertPair(double[] a, int j, double first, double second) {
        double[] out = new double[a.length + 1];
        System.arraycopy(a, 0, out, 0, j);
        out[j] = first;
        out[j + 1] = second;
        System.arraycopy(a, j + 1, out, j + 2, a.length - j - 1);
        return out;
    }
}
