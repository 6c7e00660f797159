package org.sparkmc.core.rjmcmc;

import java.util.List;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.model.ModelParameters;
import org.sparkmc.core.random.Rng;
import org.sparkmc.core.smc.LogWeights;

/**
 * The lectures' "one Gaussian mean or two" (Teh): with σ² known, model 1 says y_i ~ N(θ₀, σ²), model 2 says
 * y_i ~ ½ N(θ₁, σ²) + ½ N(θ₂, σ²); a priori every θ ~ N(μ₀, ν) independently and p(m = 2) = π₂.
 *
 * <p>Position: {@code [1, θ₀]} or {@code [2, θ₁, θ₂]}. Sweep: a random walk on the θs, then a jump between the
 * models by one of two reversible pairs ({@link Jump}):
 * <ul>
 * <li>split/merge: θ₁ = θ₀ − δ, θ₂ = θ₀ + δ with δ ~ N(0, v), and back θ₀ = (θ₁ + θ₂)/2, δ = (θ₂ − θ₁)/2.
 * The Jacobian of (θ₀, δ) ↦ (θ₁, θ₂) is [[1, −1], [1, 1]], |det| = 2 (the merge's is 1/2), so the split is accepted
 * with min(1, π(2, θ₁, θ₂)/π(1, θ₀) · 2/N(δ; 0, v));</li>
 * <li>birth/death: θ₁ = θ₀, θ₂ = u with u ~ N(μ₀, ν_b) (by default the prior), |det| = 1, and back θ₀ = θ₁.</li>
 * </ul>
 * Reported: {@code m}, {@code two} (1 under model 2: its mean is p(m = 2 | y)) and the label-invariant mixture
 * mean {@code mean} (θ₀, or (θ₁ + θ₂)/2). {@link #exactModelProbabilities} integrates both marginal likelihoods by
 * quadrature (1-d and 2-d).
 */
public final class TwoMeans implements TransDimensionalTarget {
    private static final long serialVersionUID = 1L;

    /** The two reversible pairs between the models. */
    public enum Jump {
        SPLIT_MERGE, BIRTH_DEATH
    }

    private final double[] y;
    private final double sigma2;
    private final double priorMean;
    private final double priorVar;
    private final double logPriorTwo;
    private final double logPriorOne;
    private final List<Move> sweep;

    /**
     * @param auxVar v (split) or ν_b (birth): the variance of the auxiliary variable's normal proposal
     */
    public TwoMeans(double[] y, double sigma, double priorMean, double priorVar, double priorTwo, Jump jump,
            double auxVar, double walkScale) {
        if (y.length == 0) {
            throw new InvalidInputException("two_means: y is empty");
        }
        Checks.positive("two_means", "sigma", sigma);
        Checks.positive("two_means", "prior_var", priorVar);
        Checks.positive("two_means", "aux_var", auxVar);
        Checks.positive("two_means", "walk_scale", walkScale);
        Checks.finite("two_means", "prior_mean", priorMean);
        for (int i = 0; i < y.length; i++) {
            Checks.finite("two_means", "y[" + (i + 1) + "]", y[i]);
        }
        if (!(priorTwo > 0 && priorTwo < 1)) {
            throw new InvalidInputException("two_means: prior_two must be in (0, 1), is " + priorTwo);
        }
        this.y = y.clone();
        this.sigma2 = sigma * sigma;
        this.priorMean = priorMean;
        this.priorVar = priorVar;
        this.logPriorTwo = Math.log(priorTwo);
        this.logPriorOne = Math.log1p(-priorTwo);
        Bijection map = jump == Jump.SPLIT_MERGE ? new SplitMeans(auxVar) : new BirthMean(priorMean, auxVar);
        double auxMean = jump == Jump.SPLIT_MERGE ? 0 : priorMean;
        this.sweep = List.of(new RandomWalkMove("walk", walkScale),
                new PairJump(jump == Jump.SPLIT_MERGE ? "split" : "birth",
                        jump == Jump.SPLIT_MERGE ? "merge" : "death", map, auxMean, auxVar));
    }

    /**
     * From a job's model parameters: {@code y}, {@code sigma}, and optionally {@code prior_mean} (0),
     * {@code prior_var} (ν, 4), {@code prior_two} (0.5), {@code jump} ({@code split_merge} or {@code birth_death}),
     * {@code aux_var} (1 for the split's v, ν for the birth), {@code walk_scale} (0.5).
     */
    public TwoMeans(ModelParameters p) {
        this(p.getDoubleArray("y"), p.getDoubleAbove("sigma", 0), p.getDouble("prior_mean", 0),
                p.getDoubleAbove("prior_var", 4, 0), p.getDouble("prior_two", 0.5), jump(p), p.getDoubleAbove("aux_var",
                        jump(p) == Jump.SPLIT_MERGE ? 1 : p.getDoubleAbove("prior_var", 4, 0), 0),
                p.getDoubleAbove("walk_scale", 0.5, 0));
    }

    private static Jump jump(ModelParameters p) {
        String s = p.has("jump") ? p.getString("jump") : "split_merge";
        return switch (s) {
            case "split_merge" -> Jump.SPLIT_MERGE;
            case "birth_death" -> Jump.BIRTH_DEATH;
            default -> throw new InvalidInputException(p.where("jump") + ": jump must be split_merge or birth_death, "
                    + "is '" + s + "'");
        };
    }


    @Override
    public int dimension() {
        return 3;
    }

    @Override
    public List<Move> sweep() {
        return sweep;
    }

    @Override
    public double logDensity(double[] x) {
        int m = (int) x[0];
        if (x[0] != m || m < 1 || m > 2 || x.length != m + 1) {
            return Double.NEGATIVE_INFINITY;
        }
        double lp = m == 1 ? logPriorOne : logPriorTwo;
        for (int j = 1; j <= m; j++) {
            lp += LogDensities.normal(x[j], priorMean, priorVar);
        }
        return lp + logLikelihood(x, m);
    }

    private double logLikelihood(double[] x, int m) {
        double sum = 0;
        double c = -0.5 * (LogDensities.LOG_2PI + Math.log(sigma2));
        for (double yi : y) {
            if (m == 1) {
                double r = yi - x[1];
                sum += c - 0.5 * r * r / sigma2;
            } else {
                double r1 = yi - x[1];
                double r2 = yi - x[2];
                double a = -0.5 * r1 * r1 / sigma2;
                double b = -0.5 * r2 * r2 / sigma2;
                double max = Math.max(a, b);
                sum += c + max + Math.log(0.5 * (Math.exp(a - max) + Math.exp(b - max)));
            }
        }
        return sum;
    }

    @Override
    public List<String> parameterNames() {
        return List.of("m", "two", "mean");
    }

    @Override
    public double[] parameters(double[] x) {
        boolean two = x[0] == 2;
        return new double[] {x[0], two ? 1 : 0, two ? 0.5 * (x[1] + x[2]) : x[1]};
    }

    @Override
    public double[] initialPosition(Rng rng) {
        double mean = 0;
        for (double v : y) {
            mean += v / y.length;
        }
        return rng.uniform() < 0.5 ? new double[] {1, mean + rng.normal()}
                : new double[] {2, mean - 1 + rng.normal(), mean + 1 + rng.normal()};
    }

    /**
     * Exact p(m | y) by Simpson's rule on a grid of {@code points} (odd) per axis over the prior mean ± 12 prior sds
     * widened to cover the data: the 1-d integral of model 1 and the 2-d integral of model 2, in log space.
     *
     * @return {p(m = 1 | y), p(m = 2 | y)}
     */
    public double[] exactModelProbabilities(int points) {
        if (points < 3 || points % 2 == 0) {
            throw new IllegalArgumentException("points must be odd and ≥ 3, is " + points);
        }
        double sd = Math.sqrt(priorVar);
        double lo = priorMean - 12 * sd;
        double hi = priorMean + 12 * sd;
        for (double v : y) {
            lo = Math.min(lo, v - 12 * Math.sqrt(sigma2));
            hi = Math.max(hi, v + 12 * Math.sqrt(sigma2));
        }
        double h = (hi - lo) / (points - 1);
        double[] grid = new double[points];
        double[] logWeight = new double[points];
        for (int i = 0; i < points; i++) {
            grid[i] = lo + i * h;
            double w = (i == 0 || i == points - 1) ? 1 : (i % 2 == 1 ? 4 : 2);
            logWeight[i] = Math.log(w * h / 3);
        }
        // log N(y_i; θ, σ²) for every grid θ, and the prior.
        double[][] logLik = new double[points][y.length];
        double[] logPrior = new double[points];
        for (int a = 0; a < points; a++) {
            logPrior[a] = LogDensities.normal(grid[a], priorMean, priorVar);
            for (int i = 0; i < y.length; i++) {
                logLik[a][i] = LogDensities.normal(y[i], grid[a], sigma2);
            }
        }
        double[] terms = new double[points];
        for (int a = 0; a < points; a++) {
            double s = 0;
            for (int i = 0; i < y.length; i++) {
                s += logLik[a][i];
            }
            terms[a] = logWeight[a] + logPrior[a] + s;
        }
        double logZ1 = LogWeights.logSumExp(terms, points);
        double[] inner = new double[points];
        double[] outer = new double[points];
        for (int a = 0; a < points; a++) {
            for (int b = 0; b < points; b++) {
                double s = 0;
                for (int i = 0; i < y.length; i++) {
                    double u = logLik[a][i];
                    double v = logLik[b][i];
                    double max = Math.max(u, v);
                    s += max + Math.log(0.5 * (Math.exp(u - max) + Math.exp(v - max)));
                }
                inner[b] = logWeight[b] + logPrior[b] + s;
            }
            outer[a] = logWeight[a] + logPrior[a] + LogWeights.logSumExp(inner, points);
        }
        double logZ2 = LogWeights.logSumExp(outer, points);
        double l1 = logPriorOne + logZ1;
        double l2 = logPriorTwo + logZ2;
        double max = Math.max(l1, l2);
        double p2 = Math.exp(l2 - max) / (Math.exp(l1 - max) + Math.exp(l2 - max));
        return new double[] {1 - p2, p2};
    }

    /**
     * A jump between model 1 ({@code [1, θ₀]}) and model 2 ({@code [2, θ₁, θ₂]}) through a bijection
     * (θ₀, u) ↦ (θ₁, θ₂) with u ~ N(auxMean, auxVar). With two models the move choice is deterministic (up from 1,
     * down from 2), so log j(m|m')/j(m'|m) = 0.
     */
    static final class PairJump extends MetropolisMove {
        private static final long serialVersionUID = 1L;
        private final String up;
        private final String down;
        private final Bijection map;
        private final double auxMean;
        private final double auxVar;

        PairJump(String up, String down, Bijection map, double auxMean, double auxVar) {
            this.up = up;
            this.down = down;
            this.map = map;
            this.auxMean = auxMean;
            this.auxVar = auxVar;
        }

        @Override
        public List<String> labels() {
            return List.of(up, down);
        }

        @Override
        public List<Bijection> bijections() {
            return List.of(map);
        }

        @Override
        public Proposed propose(double[] from, Rng rng) {
            if (from[0] == 1) {
                double[] xu = {from[1], auxMean + Math.sqrt(auxVar) * rng.normal()};
                double[] t = map.forward(xu);
                return new Proposed(0, new double[] {2, t[0], t[1]}, 0,
                        -LogDensities.normal(xu[1], auxMean, auxVar), map.logAbsDetJacobian(xu));
            }
            double[] xu = map.inverse(new double[] {from[1], from[2]});
            return new Proposed(1, new double[] {1, xu[0]}, 0, LogDensities.normal(xu[1], auxMean, auxVar),
                    -map.logAbsDetJacobian(xu));
        }
    }

    /** The split (θ₀, δ) ↦ (θ₀ − δ, θ₀ + δ); |det J| = 2. */
    record SplitMeans(double splitVar) implements Bijection {
        @Override
        public String name() {
            return "two means: split θ₁,₂ = θ₀ ∓ δ";
        }

        @Override
        public int xDimension() {
            return 1;
        }

        @Override
        public int uDimension() {
            return 1;
        }

        @Override
        public int xPrimeDimension() {
            return 2;
        }

        @Override
        public int uPrimeDimension() {
            return 0;
        }

        @Override
        public double[] forward(double[] xu) {
            return new double[] {xu[0] - xu[1], xu[0] + xu[1]};
        }

        @Override
        public double[] inverse(double[] t) {
            return new double[] {0.5 * (t[0] + t[1]), 0.5 * (t[1] - t[0])};
        }

        @Override
        public double logAbsDetJacobian(double[] xu) {
            return Math.log(2);
        }

        @Override
        public double[] randomDomainPoint(Rng rng) {
            return new double[] {3 * rng.normal(), Math.sqrt(splitVar) * rng.normal()};
        }
    }

    /** The birth (θ₀, u) ↦ (θ₀, u); |det J| = 1. */
    record BirthMean(double auxMean, double auxVar) implements Bijection {
        @Override
        public String name() {
            return "two means: birth θ₁ = θ₀, θ₂ = u";
        }

        @Override
        public int xDimension() {
            return 1;
        }

        @Override
        public int uDimension() {
            return 1;
        }

        @Override
        public int xPrimeDimension() {
            return 2;
        }

        @Override
        public int uPrimeDimension() {
            return 0;
        }

        @Override
        public double[] forward(double[] xu) {
            return new double[] {xu[0], xu[1]};
        }

        @Override
        public double[] inverse(double[] t) {
            return new double[] {t[0], t[1]};
        }

        @Override
        public double logAbsDetJacobian(double[] xu) {
            return 0;
        }

        @Override
        public double[] randomDomainPoint(Rng rng) {
            return new double[] {3 * rng.normal(), auxMean + Math.sqrt(auxVar) * rng.normal()};
        }
    }
}
