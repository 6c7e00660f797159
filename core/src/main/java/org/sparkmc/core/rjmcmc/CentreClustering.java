package org.sparkmc.core.rjmcmc;

import java.util.Arrays;
import java.util.List;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.model.ModelParameters;
import org.sparkmc.core.random.Categorical;
import org.sparkmc.core.random.Rng;
import org.sparkmc.core.smc.LogWeights;

/**
 * The lectures' clustering with an unknown number of cluster centres (Xing): y_i ~ (1/K) Σ_k N(c_k, σ²) with σ²
 * known, centres c_k ~ N(m₀, τ²) independently (unordered, so no K! term), and K ~ p(K) on 1..Kmax (a Poisson(λ)
 * truncated to 1..Kmax, or uniform).
 *
 * <p>Position: {@code [K, c_1..c_K]}. Sweep: "move" (a random walk on one uniformly chosen centre), then "birth"
 * (with probability b_K: c* ~ N(m₀, τ_b²) inserted at a uniformly chosen slot of K + 1) or "death" (remove a
 * uniformly chosen centre). Birth maps (c, c*) to the centres with c* inserted — a permutation of coordinates, so
 * |det J| = 1 by construction — and the slot and victim choices (1/(K+1) each) cancel: the birth's correction is
 * log d_{K+1} − log b_K − log N(c*; m₀, τ_b²).
 *
 * <p>Reported: {@code k} and the label-invariant {@code loglik}.
 */
public final class CentreClustering implements TransDimensionalTarget {
    private static final long serialVersionUID = 1L;

    private final double[] y;
    private final double sigma2;
    private final double centreMean;
    private final double centreVar;
    private final double[] logPriorK;
    private final double birthVar;
    private final JumpProbabilities jumps;
    private final List<Move> sweep;

    /**
     * @param logPriorK log p(K) for K = 1..Kmax (index K − 1)
     * @param birthVar  τ_b², the variance of a newborn centre's normal proposal around m₀
     */
    public CentreClustering(double[] y, double sigma, double centreMean, double centreVar, double[] logPriorK,
            double birthVar, double walkScale) {
        Checks.positive("clustering", "sigma", sigma);
        Checks.positive("clustering", "centre_var", centreVar);
        Checks.positive("clustering", "birth_var", birthVar);
        Checks.positive("clustering", "walk_scale", walkScale);
        Checks.finite("clustering", "centre_mean", centreMean);
        if (logPriorK.length < 1) {
            throw new InvalidInputException("clustering: kmax must be ≥ 1, is " + logPriorK.length);
        }
        for (int i = 0; i < y.length; i++) {
            Checks.finite("clustering", "y[" + (i + 1) + "]", y[i]);
        }
        this.y = y.clone();
        this.sigma2 = sigma * sigma;
        this.centreMean = centreMean;
        this.centreVar = centreVar;
        this.logPriorK = logPriorK.clone();
        this.birthVar = birthVar;
        this.jumps = new JumpProbabilities(1, logPriorK.length);
        this.sweep = List.of(new MoveCentre(walkScale), new BirthDeath());
    }

    /**
     * From a job's model parameters: {@code y} (may be empty), {@code sigma}, optionally {@code kmax} (10),
     * {@code lambda} (Poisson prior mean; absent = uniform), {@code centre_mean} (0), {@code centre_var} (τ², 4),
     * {@code birth_var} (τ²), {@code walk_scale} (0.5).
     */
    public CentreClustering(ModelParameters p) {
        this(p.has("y") ? p.getDoubleArray("y") : new double[0], p.getDoubleAbove("sigma", 0),
                p.getDouble("centre_mean", 0), p.getDoubleAbove("centre_var", 4, 0),
                p.has("lambda") ? poissonPrior(p.getDoubleAbove("lambda", 0), p.getInt("kmax", 10, 1))
                        : new double[p.getInt("kmax", 10, 1)],
                p.getDoubleAbove("birth_var", p.getDoubleAbove("centre_var", 4, 0), 0),
                p.getDoubleAbove("walk_scale", 0.5, 0));
    }

    /** log of a Poisson(λ) probability function on 1..kmax (unnormalised: the truncation constant is dropped). */
    public static double[] poissonPrior(double lambda, int kmax) {
        if (!(lambda > 0) || kmax < 1) {
            throw new InvalidInputException("clustering: lambda must be > 0 and kmax ≥ 1");
        }
        double[] lp = new double[kmax];
        for (int k = 1; k <= kmax; k++) {
            lp[k - 1] = k * Math.log(lambda) - LogDensities.logGamma(k + 1.0);
        }
        return lp;
    }

    /** p(K) normalised over 1..Kmax. */
    public double[] priorK() {
        double max = Arrays.stream(logPriorK).max().getAsDouble();
        double[] p = new double[logPriorK.length];
        double sum = 0;
        for (int k = 0; k < p.length; k++) {
            p[k] = Math.exp(logPriorK[k] - max);
            sum += p[k];
        }
        for (int k = 0; k < p.length; k++) {
            p[k] /= sum;
        }
        return p;
    }

    /**
     * Exact p(K | y) for Kmax ≤ 3 by product quadrature of p(y | K) = ∫ ∏_k N(c_k; m₀, τ²) ∏_i (1/K) Σ_k N(y_i; c_k, σ²)
     * dc (1-, 2- and 3-d): composite Simpson with step {@code fineStep} over the data ± 8σ and step 4·fineStep out to
     * m₀ ± 10τ, where a centre far from the data still carries prior mass.
     */
    public double[] exactModelProbabilities(double fineStep) {
        int kmax = logPriorK.length;
        if (kmax > 3) {
            throw new IllegalArgumentException("quadrature is for Kmax ≤ 3, have " + kmax);
        }
        double sigma = Math.sqrt(sigma2);
        double tau = Math.sqrt(centreVar);
        double a = Arrays.stream(y).min().orElse(centreMean) - 8 * sigma;
        double b = Arrays.stream(y).max().orElse(centreMean) + 8 * sigma;
        double lo = Math.min(a, centreMean - 10 * tau);
        double hi = Math.max(b, centreMean + 10 * tau);
        java.util.List<double[]> nodes = new java.util.ArrayList<>();
        simpson(lo, a, 4 * fineStep, nodes);
        simpson(a, b, fineStep, nodes);
        simpson(b, hi, 4 * fineStep, nodes);
        int m = nodes.size();
        double[] weight = new double[m];
        double[][] lik = new double[m][y.length];
        for (int i = 0; i < m; i++) {
            double c = nodes.get(i)[0];
            weight[i] = nodes.get(i)[1] * Math.exp(LogDensities.normal(c, centreMean, centreVar));
            for (int d = 0; d < y.length; d++) {
                lik[i][d] = Math.exp(LogDensities.normal(y[d], c, sigma2));
            }
        }
        // log p(y | K) accumulated in log space (a product over many points underflows a double): each node's
        // likelihood product is scaled as it is formed, and the terms are summed by a running log-sum-exp.
        double[] logZ = new double[kmax];
        double[] scale = new double[kmax];
        Arrays.fill(logZ, Double.NEGATIVE_INFINITY);
        for (int i = 0; i < m; i++) {
            double wi = Math.log(weight[i]);
            add(logZ, scale, 0, wi + logProduct(lik[i], null, null, 1));
            if (kmax < 2) {
                continue;
            }
            for (int j = 0; j < m; j++) {
                double wij = wi + Math.log(weight[j]);
                add(logZ, scale, 1, wij + logProduct(lik[i], lik[j], null, 2));
                if (kmax < 3) {
                    continue;
                }
                for (int l = 0; l < m; l++) {
                    add(logZ, scale, 2, wij + Math.log(weight[l]) + logProduct(lik[i], lik[j], lik[l], 3));
                }
            }
        }
        double[] logPost = new double[kmax];
        for (int k = 0; k < kmax; k++) {
            logPost[k] = logZ[k] + Math.log(scale[k]) + logPriorK[k];
        }
        return LogWeights.normalise(logPost);
    }

    /** Running log-sum-exp: Σ_k = exp(max[k])·scale[k]; adds exp(t) to sum k. */
    private static void add(double[] max, double[] scale, int k, double t) {
        if (t == Double.NEGATIVE_INFINITY) {
            return;
        }
        if (t > max[k]) {
            scale[k] = scale[k] * Math.exp(max[k] - t) + 1;
            max[k] = t;
        } else {
            scale[k] += Math.exp(t - max[k]);
        }
    }

    /** log ∏_d (a_d + b_d + c_d)/k, rescaled as it goes so that long products do not underflow. */
    private static double logProduct(double[] a, double[] b, double[] c, int k) {
        double p = 1;
        double log = 0;
        for (int d = 0; d < a.length; d++) {
            double s = a[d] + (b == null ? 0 : b[d]) + (c == null ? 0 : c[d]);
            p *= s / k;
            if (p < 1e-200) {
                if (p == 0) {
                    return Double.NEGATIVE_INFINITY;
                }
                log += Math.log(p);
                p = 1;
            }
        }
        return log + Math.log(p);
    }

    /** Adds Simpson nodes and weights for [a, b] (at most {@code step} apart; the shared end points add up). */
    private static void simpson(double a, double b, double step, java.util.List<double[]> nodes) {
        if (!(b > a)) {
            return;
        }
        int intervals = 2 * (int) Math.ceil((b - a) / (2 * step));
        double h = (b - a) / intervals;
        for (int i = 0; i <= intervals; i++) {
            double w = (i == 0 || i == intervals ? 1 : (i % 2 == 1 ? 4 : 2)) * h / 3;
            double x = a + i * h;
            if (i == 0 && !nodes.isEmpty() && nodes.get(nodes.size() - 1)[0] == x) {
                nodes.get(nodes.size() - 1)[1] += w;
            } else {
                nodes.add(new double[] {x, w});
            }
        }
    }

    @Override
    public int dimension() {
        return 1 + logPriorK.length;
    }

    @Override
    public List<Move> sweep() {
        return sweep;
    }

    @Override
    public double logDensity(double[] x) {
        int k = (int) x[0];
        if (x[0] != k || k < 1 || k > logPriorK.length || x.length != k + 1) {
            return Double.NEGATIVE_INFINITY;
        }
        double lp = logPriorK[k - 1];
        for (int j = 1; j <= k; j++) {
            lp += LogDensities.normal(x[j], centreMean, centreVar);
        }
        return lp + logLikelihood(x);
    }

    private double logLikelihood(double[] x) {
        int k = (int) x[0];
        double c = -0.5 * (LogDensities.LOG_2PI + Math.log(sigma2)) - Math.log(k);
        double sum = 0;
        double[] terms = new double[k];
        for (double yi : y) {
            for (int j = 0; j < k; j++) {
                double r = yi - x[j + 1];
                terms[j] = -0.5 * r * r / sigma2;
            }
            sum += c + LogWeights.logSumExp(terms, k);
        }
        return sum;
    }

    @Override
    public List<String> parameterNames() {
        return List.of("k", "loglik");
    }

    @Override
    public double[] parameters(double[] x) {
        return new double[] {x[0], logLikelihood(x)};
    }

    /** An exact prior draw (K from p(K), centres from their prior): without data, the target itself. */
    public double[] priorDraw(Rng rng) {
        double[] p = priorK();
        int k = Categorical.draw(p, p.length, rng.uniform()) + 1;
        double[] x = new double[k + 1];
        x[0] = k;
        for (int j = 1; j <= k; j++) {
            x[j] = centreMean + Math.sqrt(centreVar) * rng.normal();
        }
        return x;
    }

    @Override
    public double[] initialPosition(Rng rng) {
        return priorDraw(rng);
    }

    /** Random walk on one uniformly chosen centre (h(c, u) = (c + u, −u), |det J| = 1). */
    final class MoveCentre extends MetropolisMove {
        private static final long serialVersionUID = 1L;
        private final RandomWalkMove.Shift shift;

        MoveCentre(double scale) {
            this.shift = new RandomWalkMove.Shift(1, scale);
        }

        @Override
        public List<String> labels() {
            return List.of("move");
        }

        @Override
        public List<Bijection> bijections() {
            return List.of(shift);
        }

        @Override
        public Proposed propose(double[] from, Rng rng) {
            int k = (int) from[0];
            int j = 1 + (int) (rng.uniform() * k);
            double[] b = shift.forward(new double[] {from[j], shift.scale() * rng.normal()});
            double[] to = from.clone();
            to[j] = b[0];
            return Proposed.symmetric(0, to);
        }
    }

    /** Birth of a centre at a uniformly chosen slot, or death of a uniformly chosen centre. */
    final class BirthDeath extends MetropolisMove {
        private static final long serialVersionUID = 1L;

        @Override
        public List<String> labels() {
            return List.of("birth", "death");
        }

        @Override
        public List<Bijection> bijections() {
            return List.of(new InsertCentre(1, 0), new InsertCentre(1, 1), new InsertCentre(3, 2));
        }

        @Override
        public Proposed propose(double[] from, Rng rng) {
            int k = (int) from[0];
            if (jumps.up(k) == 0 && jumps.down(k) == 0) {
                return Proposed.impossible(0);
            }
            if (jumps.chooseUp(k, rng.uniform())) {
                int slot = (int) (rng.uniform() * (k + 1));
                double c = centreMean + Math.sqrt(birthVar) * rng.normal();
                double[] a = new double[k + 1];
                System.arraycopy(from, 1, a, 0, k);
                a[k] = c;
                InsertCentre map = new InsertCentre(k, slot);
                double[] b = map.forward(a);
                double[] to = new double[k + 2];
                to[0] = k + 1;
                System.arraycopy(b, 0, to, 1, k + 1);
                return new Proposed(0, to, Math.log(jumps.down(k + 1)) - Math.log(jumps.up(k)),
                        -LogDensities.normal(c, centreMean, birthVar), map.logAbsDetJacobian(a));
            }
            int victim = (int) (rng.uniform() * k);
            InsertCentre map = new InsertCentre(k - 1, victim);
            double[] b = new double[k];
            System.arraycopy(from, 1, b, 0, k);
            double[] a = map.inverse(b);
            double[] to = new double[k];
            to[0] = k - 1;
            System.arraycopy(a, 0, to, 1, k - 1);
            return new Proposed(1, to, Math.log(jumps.up(k - 1)) - Math.log(jumps.down(k)),
                    LogDensities.normal(a[k - 1], centreMean, birthVar), -map.logAbsDetJacobian(a));
        }
    }

    /**
     * (c_1..c_K, c*) ↦ (c_1..c_{s}, c*, c_{s+1}..c_K) for slot s ∈ {0..K}: a permutation of coordinates, |det J| = 1.
     */
    record InsertCentre(int k, int slot) implements Bijection {
        @Override
        public String name() {
            return "clustering birth (K=" + k + ", slot " + slot + ")";
        }

        @Override
        public int xDimension() {
            return k;
        }

        @Override
        public int uDimension() {
            return 1;
        }

        @Override
        public int xPrimeDimension() {
            return k + 1;
        }

        @Override
        public int uPrimeDimension() {
            return 0;
        }

        @Override
        public double[] forward(double[] a) {
            double[] b = new double[k + 1];
            System.arraycopy(a, 0, b, 0, slot);
            b[slot] = a[k];
            System.arraycopy(a, slot, b, slot + 1, k - slot);
            return b;
        }

        @Override
        public double[] inverse(double[] b) {
            double[] a = new double[k + 1];
            System.arraycopy(b, 0, a, 0, slot);
            System.arraycopy(b, slot + 1, a, slot, k - slot);
            a[k] = b[slot];
            return a;
        }

        @Override
        public double logAbsDetJacobian(double[] a) {
            return 0;
        }

        @Override
        public double[] randomDomainPoint(Rng rng) {
            double[] a = new double[k + 1];
            for (int i = 0; i < a.length; i++) {
                a[i] = 3 * rng.normal();
            }
            return a;
        }
    }
}
