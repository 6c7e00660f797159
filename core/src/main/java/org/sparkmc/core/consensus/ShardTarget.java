package org.sparkmc.core.consensus;

import java.util.List;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.model.SecondOrderTarget;

/**
 * One shard's sub-posterior in consensus Monte Carlo (Scott et al. 2016): with the data cut into S shards,
 * p(θ | y) ∝ Π_s [p(θ)^{1/S} Π_{i ∈ shard s} p(y_i | x_i, θ)], and shard s samples its own factor
 *
 * <pre>
 *   log p_s(θ) = Σ_{i ∈ s} log p(y_i | x_i, θ) + (1/S) log p(θ),
 * </pre>
 *
 * where p(θ) puts independent N(0, s²) priors on the {@link RowLikelihood#features()} coefficients and the row
 * likelihood's own prior ({@link RowLikelihood#logPriorOfExtras}) on the rest. Every term is normalised (the
 * y-only parts of the likelihood and the prior's constants are summed once here), so the value is the exact
 * log of the product above, not just up to a constant.
 *
 * <p>The rows are held as primitive arrays: features row-major (row i at {@code features[i·p … i·p + p)}) and
 * responses; a density evaluation allocates nothing. Every response is checked against the likelihood's support,
 * every feature for finiteness, when the target is built.
 *
 * <p>For a {@link Glm} whose position is its coefficients alone, the gradient and negative Hessian come in one pass
 * over the rows ({@link #derivatives}: Σ score·x and Σ weight·xxᵀ plus the prior's), which is what makes the
 * Laplace approximation of a shard of millions of rows cost a few passes instead of 2d² densities a Newton step.
 */
public final class ShardTarget implements SecondOrderTarget {
    private static final long serialVersionUID = 1L;

    private final RowLikelihood likelihood;
    private final double[] features;
    private final double[] responses;
    private final int rows;
    private final int p;
    private final int shards;
    /** −1/(2 s² S): the coefficient prior's quadratic factor, raised to 1/S. */
    private final double priorFactor;
    /** Σ_i logConstant(y_i) + (1/S)·p·(−½ log(2πs²)). */
    private final double constant;

    /**
     * @param features  row-major rows × p features (p = {@code likelihood.features()}); held, not copied
     * @param responses one response per row; held, not copied
     * @param priorSd   s, the prior sd of every coefficient
     * @param shards    S, the number of shards the data are cut into (1: the full posterior)
     * @param shard     this shard's number, for messages
     * @throws InvalidInputException naming the shard and row of a response outside the support or a feature that
     *     is not finite, or a bad prior sd or shard count
     */
    public ShardTarget(RowLikelihood likelihood, double[] features, double[] responses, double priorSd, int shards,
            int shard) {
        this.likelihood = likelihood;
        this.p = likelihood.features();
        this.rows = responses.length;
        if (features.length != (long) rows * p) {
            throw new InvalidInputException("shard " + shard + ": " + features.length + " feature values for "
                    + rows + " rows of " + p + " features");
        }
        if (!(priorSd > 0) || Double.isInfinite(priorSd)) {
            throw new InvalidInputException("prior sd must be positive and finite, is " + priorSd);
        }
        if (shards < 1) {
            throw new InvalidInputException("the number of shards must be ≥ 1, is " + shards);
        }
        double sum = 0;
        for (int i = 0; i < rows; i++) {
            double y = responses[i];
            if (!likelihood.inSupport(y)) {
                throw likelihood.badResponse("shard " + shard + ", row " + i, y);
            }
            for (int j = 0; j < p; j++) {
                if (!Double.isFinite(features[i * p + j])) {
                    throw new InvalidInputException("shard " + shard + ", row " + i + ": feature " + (j + 1) + " is "
                            + features[i * p + j] + ", expected a finite number");
                }
            }
            sum += likelihood.logConstant(y);
        }
        this.features = features;
        this.responses = responses;
        this.shards = shards;
        this.priorFactor = -0.5 / (priorSd * priorSd * shards);
        this.constant = sum - p * 0.5 * Math.log(2 * Math.PI * priorSd * priorSd) / shards;
    }

    @Override
    public int dimension() {
        return likelihood.dimension();
    }

    @Override
    public double logDensity(double[] theta) {
        double lp = constant;
        for (int j = 0; j < p; j++) {
            lp += priorFactor * theta[j] * theta[j];
        }
        lp += likelihood.logPriorOfExtras(theta) / shards;
        for (int i = 0; i < rows; i++) {
            lp += likelihood.logLikelihood(responses[i], features, i * p, theta);
        }
        return lp;
    }

    /**
     * The gradient and negative Hessian in one pass over the rows, for a GLM whose position is its coefficients;
     * false for any other likelihood (whose Laplace approximation falls back on finite differences).
     */
    @Override
    public boolean derivatives(double[] theta, double[] g, double[] h) {
        if (!(likelihood instanceof Glm glm) || !glm.derivativesThroughEta()) {
            return false;
        }
        java.util.Arrays.fill(g, 0);
        java.util.Arrays.fill(h, 0);
        for (int i = 0, offset = 0; i < rows; i++, offset += p) {
            double eta = glm.linearPredictor(features, offset, theta);
            double score = glm.scoreAt(responses[i], eta);
            double weight = glm.weightAt(responses[i], eta);
            for (int j = 0; j < p; j++) {
                double xj = features[offset + j];
                g[j] += score * xj;
                double wx = weight * xj;
                for (int k = j; k < p; k++) {
                    h[j * p + k] += wx * features[offset + k];
                }
            }
        }
        for (int j = 0; j < p; j++) {
            g[j] += 2 * priorFactor * theta[j];
            h[j * p + j] -= 2 * priorFactor;
            for (int k = 0; k < j; k++) {
                h[j * p + k] = h[k * p + j];
            }
        }
        return true;
    }

    @Override
    public List<String> parameterNames() {
        return likelihood.parameterNames();
    }

    @Override
    public double[] parameters(double[] position) {
        return likelihood.parameters(position);
    }

    /** The number of rows in this shard. */
    public int rows() {
        return rows;
    }
}
