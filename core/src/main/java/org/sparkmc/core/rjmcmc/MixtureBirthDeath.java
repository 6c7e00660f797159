package org.sparkmc.core.rjmcmc;

import java.util.List;
import org.apache.commons.rng.sampling.distribution.AhrensDieterMarsagliaTsangGammaSampler;
import org.apache.commons.rng.sampling.distribution.ChengBetaSampler;
import org.sparkmc.core.random.Rng;

/**
 * Richardson &amp; Green's (1997, §3.4) birth/death of an empty component for {@link NormalMixture}. From k, birth
 * with probability b_k: w* ~ Beta(1, k), μ* ~ N(ξ, κ⁻¹), σ*⁻² ~ Gamma(α, β), the old weights rescaled by (1 − w*)
 * ({@link BirthBijection}), the new component inserted where μ* keeps the means ordered and no observation allocated
 * to it. Otherwise death of one of the k₀ empty components chosen uniformly (rejected if there is none), the other
 * weights rescaled by 1/(1 − w*).
 *
 * <p>Correction of the birth: log j = log d_{k+1} − log(k₀ + 1) − log b_k; log q = −log q(w*, μ*, σ²*); log |det J| =
 * (k − 1) log(1 − w*). The target ratio supplies R&amp;G's w*^{δ−1}(1−w*)^{n+kδ−k}/B(kδ, δ), (k + 1) and the prior
 * densities of μ*, σ²*. The death uses the exact reciprocal.
 */
final class MixtureBirthDeath extends MetropolisMove {
    private static final long serialVersionUID = 1L;

    private final NormalMixture model;

    MixtureBirthDeath(NormalMixture model) {
        this.model = model;
    }

    @Override
    public List<String> labels() {
        return List.of("birth", "death");
    }

    @Override
    public List<Bijection> bijections() {
        return List.of(new BirthBijection(1), new BirthBijection(2), new BirthBijection(5));
    }

    private double logAuxDensity(int k, double w, double mu, double v, double beta) {
        if (!(w > 0 && w < 1) || !(v > 0)) {
            return Double.NEGATIVE_INFINITY;
        }
        // Beta(1, k) density k(1 − w)^{k−1}; N(ξ, 1/κ); inverse gamma with shape α, rate β.
        MixturePrior p = model.prior();
        double r = mu - p.xi();
        return Math.log(k) + (k - 1) * Math.log1p(-w) + 0.5 * (Math.log(p.kappa()) - LogDensities.LOG_2PI)
                - 0.5 * p.kappa() * r * r + p.alpha() * Math.log(beta) - model.logGammaAlpha()
                - (p.alpha() + 1) * Math.log(v) - beta / v;
    }

    @Override
    public Proposed propose(double[] from, Rng rng) {
        JumpProbabilities jumps = model.jumps();
        int k = (int) from[0];
        if (jumps.up(k) == 0 && jumps.down(k) == 0) {
            return Proposed.impossible(0);
        }
        MixtureState s = MixtureState.decode(from, model.n());
        return jumps.chooseUp(k, rng.uniform()) ? birth(s, rng) : death(s, rng);
    }

    private Proposed birth(MixtureState s, Rng rng) {
        int k = s.k;
        MixturePrior p = model.prior();
        double wNew = ChengBetaSampler.of(rng.provider(), 1, k).sample();
        double muNew = p.xi() + rng.normal() / Math.sqrt(p.kappa());
        double varNew = 1 / AhrensDieterMarsagliaTsangGammaSampler.of(rng.provider(), p.alpha(), 1 / s.beta).sample();
        BirthBijection map = new BirthBijection(k);
        double[] a = new double[k + 2];
        System.arraycopy(s.w, 0, a, 0, k - 1);
        a[k - 1] = wNew;
        a[k] = muNew;
        a[k + 1] = varNew;
        double[] b = map.forward(a);
        double[] rescaled = new double[k];
        System.arraycopy(b, 0, rescaled, 0, k - 1);
        rescaled[k - 1] = s.w[k - 1] * (1 - wNew);
        int at = 0;
        while (at < k && s.mu[at] < muNew) {
            at++;
        }
        if (at < k && s.mu[at] == muNew) {
            return Proposed.impossible(0);
        }
        MixtureState t = new MixtureState(k + 1, s.beta, insert(rescaled, at, wNew), insert(s.mu, at, muNew),
                insert(s.var, at, varNew), new int[s.z.length]);
        for (int i = 0; i < s.z.length; i++) {
            t.z[i] = s.z[i] >= at ? s.z[i] + 1 : s.z[i];
        }
        int emptyBefore = s.emptyCount();
        JumpProbabilities jumps = model.jumps();
        return new Proposed(0, t.encode(),
                Math.log(jumps.down(k + 1)) - Math.log(emptyBefore + 1.0) - Math.log(jumps.up(k)),
                -logAuxDensity(k, wNew, muNew, varNew, s.beta), map.logAbsDetJacobian(a));
    }

    private Proposed death(MixtureState s, Rng rng) {
        int k = s.k;
        int[] counts = s.counts();
        int empty = 0;
        for (int c : counts) {
            if (c == 0) {
                empty++;
            }
        }
        if (empty == 0) {
            return Proposed.impossible(1);
        }
        int pick = (int) (rng.uniform() * empty);
        int e = -1;
        for (int j = 0; j < k; j++) {
            if (counts[j] == 0 && pick-- == 0) {
                e = j;
                break;
            }
        }
        double wDead = s.w[e];
        double[] remaining = remove(s.w, e);
        BirthBijection map = new BirthBijection(k - 1);
        double[] b = new double[k + 1];
        System.arraycopy(remaining, 0, b, 0, k - 2);
        b[k - 2] = wDead;
        b[k - 1] = s.mu[e];
        b[k] = s.var[e];
        double[] a = map.inverse(b);
        double[] w = new double[k - 1];
        System.arraycopy(a, 0, w, 0, k - 2);
        w[k - 2] = remaining[k - 2] / (1 - wDead);
        MixtureState t = new MixtureState(k - 1, s.beta, w, remove(s.mu, e), remove(s.var, e), new int[s.z.length]);
        for (int i = 0; i < s.z.length; i++) {
            t.z[i] = s.z[i] > e ? s.z[i] - 1 : s.z[i];
        }
        JumpProbabilities jumps = model.jumps();
        return new Proposed(1, t.encode(), Math.log(jumps.up(k - 1)) - Math.log(jumps.down(k)) + Math.log(empty),
                logAuxDensity(k - 1, wDead, s.mu[e], s.var[e], s.beta), -map.logAbsDetJacobian(a));
    }

    private static double[] insert(double[] a, int at, double v) {
        double[] out = new double[a.length + 1];
        System.arraycopy(a, 0, out, 0, at);
        out[at] = v;
        System.arraycopy(a, at, out, at + 1, a.length - at);
        return out;
    }

    private static double[] remove(double[] a, int at) {
        double[] out = new double[a.length - 1];
        System.arraycopy(a, 0, out, 0, at);
        System.arraycopy(a, at + 1, out, at, a.length - at - 1);
        return out;
    }
}
