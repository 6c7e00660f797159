package org.sparkmc.core.model;

import java.util.ArrayList;
import java.util.List;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.random.Rng;

/**
 * Bayesian logistic regression: y_i ~ Bernoulli(σ(x_iᵀw)), w ~ N(0, s²·I) (V₀ = s²·I), with an intercept column
 * and the predictors optionally standardised to mean 0 and sample sd 1. Its {@link #laplace() Laplace
 * approximation} comes from the mode found by iteratively reweighted least squares (Newton's method on the log
 * posterior): H = V₀⁻¹ + XᵀDX, D = diag(p_i(1 − p_i)) — the lectures' proposal N(w, 2.38²/D·H⁻¹) is built from it.
 *
 * <p>Parameters: the data as one array per column (as in {@code data/pima/pima.json}); {@code predictors}: the
 * predictor column names, comma-separated (required: there is no default data set); {@code outcome}: the 0/1
 * column ({@code y}); {@code prior-sd} (10);
 * {@code standardise} (true); {@code init}: {@code dispersed} (default: uniform(−2, 2) per coefficient) or
 * {@code mode} (every chain starts at the posterior mode). Reports {@code w[1]} (intercept) … {@code w[P+1]}, named
 * after the predictors. Analytic gradient for NUTS.
 */
public final class LogisticRegression implements LaplaceApproximation.Source, GradientTarget {
    private static final long serialVersionUID = 1L;

    private final double[] x;
    private final double[] y;
    private final int n;
    private final int p;
    private final double priorVariance;
    private final boolean startAtMode;
    private final List<String> names;
    private final LaplaceApproximation laplace;

    public LogisticRegression(ModelParameters params) {
        this(designFrom(params), outcomeFrom(params), namesFrom(params), params.getDoubleAbove("prior-sd", 10, 0),
                "mode".equals(params.has("init") ? params.getString("init") : "dispersed"));
        if (params.has("init") && !List.of("mode", "dispersed").contains(params.getString("init"))) {
            throw new InvalidInputException(params.where("init") + ": init must be 'mode' or 'dispersed', is '"
                    + params.getString("init") + "'");
        }
    }

    /**
     * @param design row-major N × P design matrix including the intercept column (used as given)
     * @param names  P coefficient names
     */
    public LogisticRegression(double[] design, double[] outcome, List<String> names, double priorSd,
            boolean startAtMode) {
        this.n = outcome.length;
        this.p = names.size();
        if (n == 0 || design.length != n * p) {
            throw new InvalidInputException("logistic regression: design has " + design.length + " values, expected "
                    + n + " rows × " + p + " columns");
        }
        if (!(priorSd > 0) || Double.isInfinite(priorSd)) {
            throw new InvalidInputException("logistic regression: prior-sd must be positive, is " + priorSd);
        }
        for (int i = 0; i < n; i++) {
            if (outcome[i] != 0 && outcome[i] != 1) {
                throw new InvalidInputException("logistic regression: outcome " + (i + 1) + " is " + outcome[i]
                        + ", expected 0 or 1");
            }
        }
        this.x = design.clone();
        this.y = outcome.clone();
        this.priorVariance = priorSd * priorSd;
        this.startAtMode = startAtMode;
        this.names = List.copyOf(names);
        this.laplace = irls();
    }

    private static String[] predictorNames(ModelParameters params) {
        if (!params.has("predictors")) { // there is no default list: the data's columns are the user's
            throw new InvalidInputException(params.where("predictors") + ": model parameter 'predictors' is missing: "
                    + "name the predictor columns, comma-separated, as conf/chains-pima.conf does for "
                    + "data/pima/pima.json");
        }
        String[] cols = params.getString("predictors").split(",");
        for (int j = 0; j < cols.length; j++) {
            cols[j] = cols[j].trim();
        }
        return cols;
    }

    private static double[] designFrom(ModelParameters params) {
        String[] cols = predictorNames(params);
        boolean standardise = params.getBoolean("standardise", true);
        double[][] columns = new double[cols.length][];
        int n = outcomeFrom(params).length;
        for (int j = 0; j < cols.length; j++) {
            columns[j] = params.getDoubleArray(cols[j]);
            if (columns[j].length != n) {
                throw new InvalidInputException(params.where(cols[j]) + ": column '" + cols[j] + "' has "
                        + columns[j].length + " values, the outcome has " + n);
            }
            if (standardise) {
                columns[j] = standardised(columns[j]);
            }
        }
        double[] design = new double[n * (cols.length + 1)];
        for (int i = 0; i < n; i++) {
            design[i * (cols.length + 1)] = 1;
            for (int j = 0; j < cols.length; j++) {
                design[i * (cols.length + 1) + j + 1] = columns[j][i];
            }
        }
        return design;
    }

    private static double[] outcomeFrom(ModelParameters params) {
        return params.getDoubleArray(params.has("outcome") ? params.getString("outcome") : "y");
    }

    private static List<String> namesFrom(ModelParameters params) {
        List<String> names = new ArrayList<>();
        names.add("w[intercept]");
        for (String c : predictorNames(params)) {
            names.add("w[" + c + "]");
        }
        return names;
    }

    /** (v − mean) / sample sd. */
    public static double[] standardised(double[] v) {
        double mean = 0;
        for (double a : v) {
            mean += a;
        }
        mean /= v.length;
        double ss = 0;
        for (double a : v) {
            ss += (a - mean) * (a - mean);
        }
        double sd = Math.sqrt(ss / (v.length - 1));
        if (!(sd > 0)) {
            throw new InvalidInputException("cannot standardise a constant column");
        }
        double[] out = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = (v[i] - mean) / sd;
        }
        return out;
    }

    @Override
    public int dimension() {
        return p;
    }

    @Override
    public double logDensity(double[] w) {
        double lp = 0;
        for (int j = 0; j < p; j++) {
            lp -= 0.5 * w[j] * w[j] / priorVariance;
        }
        for (int i = 0; i < n; i++) {
            double eta = linearPredictor(i, w);
            // log σ(η) = −log(1 + e^−η); log(1 − σ(η)) = −log(1 + e^η)
            lp -= y[i] == 1 ? log1pExp(-eta) : log1pExp(eta);
        }
        return lp;
    }

    /** log p(w | y) and its gradient −V₀⁻¹w + Xᵀ(y − π(w)) in one pass over the rows. */
    @Override
    public double logDensityGradient(double[] w, double[] gradient) {
        double lp = 0;
        for (int j = 0; j < p; j++) {
            lp -= 0.5 * w[j] * w[j] / priorVariance;
            gradient[j] = -w[j] / priorVariance;
        }
        for (int i = 0; i < n; i++) {
            double eta = linearPredictor(i, w);
            lp -= y[i] == 1 ? log1pExp(-eta) : log1pExp(eta);
            double residual = y[i] - 1 / (1 + Math.exp(-eta));
            int row = i * p;
            for (int j = 0; j < p; j++) {
                gradient[j] += x[row + j] * residual;
            }
        }
        return lp;
    }

    /** log(1 + e^t) without overflow (Math.log and Math.exp are JIT intrinsics; log1p is several times slower). */
    private static double log1pExp(double t) {
        return t > 0 ? t + Math.log(1 + Math.exp(-t)) : Math.log(1 + Math.exp(t));
    }

    /** Newton–Raphson (IRLS) from w = 0 until the step is below 1e-10 (at most 100 iterations). */
    private LaplaceApproximation irls() {
        double[] w = new double[p];
        for (int iter = 0; iter < 100; iter++) {
            double[] g = gradientAt(w);
            double[] h = hessianAt(w);
            double[] step = Matrices.solve(Matrices.cholesky(h, p), p, g);
            double size = 0;
            for (int j = 0; j < p; j++) {
                w[j] += step[j];
                size = Math.max(size, Math.abs(step[j]));
            }
            if (size < 1e-10) {
                break;
            }
        }
        return LaplaceApproximation.of(w, hessianAt(w));
    }

    /** ∇ log p(w | y) = −V₀⁻¹w + Xᵀ(y − π(w)). */
    private double[] gradientAt(double[] w) {
        double[] g = new double[p];
        for (int j = 0; j < p; j++) {
            g[j] = -w[j] / priorVariance;
        }
        for (int i = 0; i < n; i++) {
            double prob = probability(i, w);
            for (int a = 0; a < p; a++) {
                g[a] += x[i * p + a] * (y[i] - prob);
            }
        }
        return g;
    }

    /** π_i(w) = 1/(1 + e^(−x_i·w)). */
    private double probability(int i, double[] w) {
        return 1 / (1 + Math.exp(-linearPredictor(i, w)));
    }

    /** η_i = x_i·w. */
    private double linearPredictor(int i, double[] w) {
        int row = i * p;
        double eta = 0;
        for (int j = 0; j < p; j++) {
            eta += x[row + j] * w[j];
        }
        return eta;
    }

    /** H(w) = V₀⁻¹ + XᵀD(w)X. */
    public double[] hessianAt(double[] w) {
        double[] h = new double[p * p];
        for (int j = 0; j < p; j++) {
            h[j * p + j] = 1 / priorVariance;
        }
        for (int i = 0; i < n; i++) {
            int row = i * p;
            double prob = probability(i, w);
            double dii = prob * (1 - prob);
            for (int a = 0; a < p; a++) {
                for (int b = 0; b < p; b++) {
                    h[a * p + b] += dii * x[row + a] * x[row + b];
                }
            }
        }
        return h;
    }

    @Override
    public LaplaceApproximation laplace() {
        return laplace;
    }

    @Override
    public double[] initialPosition(Rng rng) {
        return startAtMode ? laplace.mode().clone() : LaplaceApproximation.Source.super.initialPosition(rng);
    }

    @Override
    public List<String> parameterNames() {
        return names;
    }
}
