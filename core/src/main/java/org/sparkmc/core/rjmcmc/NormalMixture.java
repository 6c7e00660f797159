package org.sparkmc.core.rjmcmc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.AhrensDieterMarsagliaTsangGammaSampler;
import org.sparkmc.core.model.ModelParameters;
import org.sparkmc.core.random.Categorical;
import org.sparkmc.core.random.Rng;

/**
 * Univariate normal mixtures with an unknown number of components k (Richardson &amp; Green 1997, "On Bayesian
 * analysis of mixtures with an unknown number of components", <i>JRSS B</i> 59(4), 731–792):
 * y_i | z_i ~ N(μ_{z_i}, σ²_{z_i}), P(z_i = j) = w_j, under the hierarchical {@link MixturePrior}.
 *
 * <p>Position: {@code [k, β, w_1..w_k, μ_1..μ_k, σ²_1..σ²_k, z_1..z_n]} (length 2 + 3k + n; the z_i ∈ {0..k−1}).
 * The log density is the full joint log p(k, w, μ, σ², β, z, y) with respect to counting measure on k and z and
 * Lebesgue measure on (w_1..w_{k−1}, μ, σ², β) — all normalising constants in k kept: Γ(kδ)/Γ(δ)^k, k! for the
 * ordered means, β^α/Γ(α) per variance.
 *
 * <p>One sweep is R&amp;G's: Gibbs updates of (a) the weights, (b) the means (rejected if the order changes) and the
 * variances, (c) the allocations, (d) β; then (e) split or merge ({@link MixtureSplitMerge}) and (f) birth or death
 * of an empty component ({@link MixtureBirthDeath}).
 *
 * <p>Reported (all label-invariant): {@code k}, {@code empty} (empty components), {@code beta}, {@code loglik}
 * (Σ_i log Σ_j w_j N(y_i; μ_j, σ²_j)) and the mixture density f at the points of a fixed grid, {@code f[1]..f[G]};
 * their posterior means give the predictive density.
 */
public final class NormalMixture implements TransDimensionalTarget {
    private static final long serialVersionUID = 1L;

    private final double[] y;
    private final MixturePrior prior;
    private final double[] grid;
    private final double[] logGammaKDelta;
    private final double[] logFactorial;
    private final double logGammaDelta;
    private final double logInvGammaConstant;
    private final double logMeanPriorConstant;
    private final double logBetaPriorConstant;
    private final JumpProbabilities jumps;
    private final List<Move> sweep;

    public NormalMixture(double[] y, MixturePrior prior, double[] grid) {
        this.y = y.clone();
        this.prior = prior;
        this.grid = grid.clone();
        int kmax = prior.kmax();
        this.logGammaKDelta = new double[kmax + 2];
        this.logFactorial = new double[kmax + 2];
        for (int k = 1; k <= kmax + 1; k++) {
            logGammaKDelta[k] = LogDensities.logGamma(k * prior.delta());
            logFactorial[k] = logFactorial[k - 1] + Math.log(k);
        }
        this.logGammaDelta = LogDensities.logGamma(prior.delta());
        this.logInvGammaConstant = -LogDensities.logGamma(prior.alpha());
        this.logMeanPriorConstant = 0.5 * (Math.log(prior.kappa()) - LogDensities.LOG_2PI);
        this.logBetaPriorConstant = prior.g() * Math.log(prior.h()) - LogDensities.logGamma(prior.g());
        this.jumps = new JumpProbabilities(1, kmax);
        this.sweep = List.of(new MixtureGibbs.Weights(this), new MixtureGibbs.Means(this),
                new MixtureGibbs.Variances(this), new MixtureGibbs.Allocations(this), new MixtureGibbs.Beta(this),
                new MixtureSplitMerge(this), new MixtureBirthDeath(this));
    }

    /**
     * From a job's model parameters: {@code y} (the data; for the galaxies in 1000 km/s), optionally {@code kmax}
     * (30), prior overrides {@code xi}, {@code kappa}, {@code alpha}, {@code g}, {@code h}, {@code delta} (default:
     * {@link MixturePrior#richardsonGreen}), and the reported density grid {@code grid_min}, {@code grid_max},
     * {@code grid_points} (default: 25 points over the data range widened by 10% each side).
     */
    public NormalMixture(ModelParameters p) {
        this(p.getDoubleArray("y"), prior(p), grid(p));
    }

    private static MixturePrior prior(ModelParameters p) {
        int kmax = p.getInt("kmax", 30, 1);
        MixturePrior rg = MixturePrior.richardsonGreen(p.getDoubleArray("y"), kmax);
        return new MixturePrior(p.getDouble("xi", rg.xi()), p.getDoubleAbove("kappa", rg.kappa(), 0),
                p.getDoubleAbove("alpha", rg.alpha(), 0), p.getDoubleAbove("g", rg.g(), 0),
                p.getDoubleAbove("h", rg.h(), 0), p.getDoubleAbove("delta", rg.delta(), 0), kmax, new double[kmax]);
    }

    private static double[] grid(ModelParameters p) {
        double[] y = p.getDoubleArray("y");
        double min = Arrays.stream(y).min().orElse(0);
        double max = Arrays.stream(y).max().orElse(1);
        double pad = 0.1 * (max - min);
        int points = p.getInt("grid_points", 25, 0);
        return evenGrid(p.getDouble("grid_min", min - pad), p.getDouble("grid_max", max + pad), points);
    }

    /** {@code points} equally spaced values from {@code lo} to {@code hi}. */
    public static double[] evenGrid(double lo, double hi, int points) {
        double[] g = new double[points];
        for (int i = 0; i < points; i++) {
            g[i] = points == 1 ? lo : lo + (hi - lo) * i / (points - 1);
        }
        return g;
    }

    public MixturePrior prior() {
        return prior;
    }

    public double[] grid() {
        return grid.clone();
    }

    /** The data y (a copy), e.g. for a histogram under the predictive density. */
    public double[] data() {
        return y.clone();
    }

    int n() {
        return y.length;
    }

    double y(int i) {
        return y[i];
    }

    /** log Γ(α). */
    double logGammaAlpha() {
        return -logInvGammaConstant;
    }

    JumpProbabilities jumps() {
        return jumps;
    }

    @Override
    public int dimension() {
        return MixtureState.length(prior.kmax(), y.length);
    }

    @Override
    public List<Move> sweep() {
        return sweep;
    }

    @Override
    public double logDensity(double[] x) {
        int k = (int) x[0];
        int n = y.length;
        if (x[0] != k || k < 1 || k > prior.kmax() || x.length != MixtureState.length(k, n)) {
            return Double.NEGATIVE_INFINITY;
        }
        double beta = x[1];
        if (!(beta > 0)) {
            return Double.NEGATIVE_INFINITY;
        }
        double delta = prior.delta();
        double alpha = prior.alpha();
        double lp = prior.logPriorK(k) + logBetaPriorConstant + (prior.g() - 1) * Math.log(beta) - prior.h() * beta;
        // Weights: Dirichlet(δ,…,δ) on the simplex.
        double sum = 0;
        double logW = 0;
        for (int j = 0; j < k; j++) {
            double w = x[2 + j];
            if (!(w > 0)) {
                return Double.NEGATIVE_INFINITY;
            }
            sum += w;
            logW += Math.log(w);
        }
        if (Math.abs(sum - 1) > 1e-9) {
            return Double.NEGATIVE_INFINITY;
        }
        lp += logGammaKDelta[k] - k * logGammaDelta + (delta - 1) * logW;
        // Ordered means: k! ∏ N(μ_j; ξ, 1/κ); variances: inverse gamma.
        lp += logFactorial[k];
        double previous = Double.NEGATIVE_INFINITY;
        double logPriorVarConst = alpha * Math.log(beta) + logInvGammaConstant;
        // Per component: log w_j − ½ log(2π σ²_j), and 1/σ²_j, so the data loop needs no logarithm.
        double[] logScale = new double[k];
        double[] precision = new double[k];
        double halfLog2Pi = 0.5 * LogDensities.LOG_2PI;
        for (int j = 0; j < k; j++) {
            double mu = x[2 + k + j];
            if (!(mu > previous)) {
                return Double.NEGATIVE_INFINITY;
            }
            previous = mu;
            double r = mu - prior.xi();
            lp += logMeanPriorConstant - 0.5 * prior.kappa() * r * r;
            double v = x[2 + 2 * k + j];
            if (!(v > 0) || Double.isInfinite(v)) {
                return Double.NEGATIVE_INFINITY;
            }
            double logV = Math.log(v);
            lp += logPriorVarConst - (alpha + 1) * logV - beta / v;
            logScale[j] = Math.log(x[2 + j]) - halfLog2Pi - 0.5 * logV;
            precision[j] = 1 / v;
        }
        // Allocations and likelihood.
        int zOffset = 2 + 3 * k;
        for (int i = 0; i < n; i++) {
            double zd = x[zOffset + i];
            int z = (int) zd;
            if (zd != z || z < 0 || z >= k) {
                return Double.NEGATIVE_INFINITY;
            }
            double r = y[i] - x[2 + k + z];
            lp += logScale[z] - 0.5 * r * r * precision[z];
        }
        return lp;
    }

    @Override
    public List<String> parameterNames() {
        List<String> names = new ArrayList<>(List.of("k", "empty", "beta", "loglik"));
        for (int i = 1; i <= grid.length; i++) {
            names.add("f[" + i + "]");
        }
        return names;
    }

    @Override
    public double[] parameters(double[] x) {
        MixtureState s = MixtureState.decode(x, y.length);
        double[] out = new double[4 + grid.length];
        out[0] = s.k;
        out[1] = s.emptyCount();
        out[2] = s.beta;
        double ll = 0;
        for (double yi : y) {
            ll += Math.log(density(s, yi));
        }
        out[3] = ll;
        for (int i = 0; i < grid.length; i++) {
            out[4 + i] = density(s, grid[i]);
        }
        return out;
    }

    /** The mixture density Σ_j w_j N(t; μ_j, σ²_j) of the component parameters in a position. */
    public static double mixtureDensity(double[] position, double t) {
        int k = (int) position[0];
        return density(k, position, 2, position, 2 + k, position, 2 + 2 * k, t);
    }

    private static double density(MixtureState s, double t) {
        return density(s.k, s.w, 0, s.mu, 0, s.var, 0, t);
    }

    /** Σ_{j<k} w[wAt+j] N(t; mu[muAt+j], var[varAt+j]). */
    private static double density(int k, double[] w, int wAt, double[] mu, int muAt, double[] var, int varAt,
            double t) {
        double f = 0;
        for (int j = 0; j < k; j++) {
            double v = var[varAt + j];
            double r = t - mu[muAt + j];
            f += w[wAt + j] * Math.exp(-0.5 * r * r / v) / Math.sqrt(2 * Math.PI * v);
        }
        return f;
    }

    /**
     * A dispersed start: k uniform on 1..min(kmax, 10), β at its prior mean g/h, then weights, ordered means and
     * variances from their priors and allocations from their full conditional.
     */
    @Override
    public double[] initialPosition(Rng rng) {
        int k = 1 + (int) (rng.uniform() * Math.min(prior.kmax(), 10));
        MixtureState s = drawComponents(k, prior.g() / prior.h(), rng);
        MixtureGibbs.drawAllocations(this, s, rng);
        return s.encode();
    }

    /**
     * An exact draw from the prior of the whole state (k from p(k), β, w, ordered μ, σ², and z_i ~ w): without
     * data this is the target itself, which the prior-only tests start from.
     */
    public double[] priorDraw(Rng rng) {
        int k = Categorical.drawLog(prior.logPriorK(), rng.uniform()) + 1;
        UniformRandomProvider r = rng.provider();
        double beta = AhrensDieterMarsagliaTsangGammaSampler.of(r, prior.g(), 1 / prior.h()).sample();
        MixtureState s = drawComponents(k, beta, rng);
        for (int i = 0; i < s.z.length; i++) {
            s.z[i] = Categorical.draw(s.w, k, rng.uniform());
        }
        return s.encode();
    }

    private MixtureState drawComponents(int k, double beta, Rng rng) {
        UniformRandomProvider r = rng.provider();
        double[] w = MixtureGibbs.dirichlet(r, k, prior.delta(), new int[k]);
        double[] mu = new double[k];
        for (int j = 0; j < k; j++) {
            mu[j] = prior.xi() + rng.normal() / Math.sqrt(prior.kappa());
        }
        Arrays.sort(mu);
        double[] var = new double[k];
        for (int j = 0; j < k; j++) {
            var[j] = 1 / AhrensDieterMarsagliaTsangGammaSampler.of(r, prior.alpha(), 1 / beta).sample();
        }
        return new MixtureState(k, beta, w, mu, var, new int[y.length]);
    }
}
