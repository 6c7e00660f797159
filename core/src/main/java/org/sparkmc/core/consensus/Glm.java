package org.sparkmc.core.consensus;

import java.util.ArrayList;
import java.util.List;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.random.Rng;

/**
 * A generalised linear model's row likelihood: y ~ F(g⁻¹(η)) with the linear predictor η = xᵀβ, β the first
 * {@link #features()} coordinates of θ. The three built in: {@link LogisticGlm} (Bernoulli, logit link),
 * {@link PoissonGlm} (log link) and {@link GaussianGlm} (identity link, σ known or sampled as log σ). The
 * design carries its own intercept column if the model has one.
 *
 * <p>Besides the likelihood, a GLM draws a response given η ({@link #sampleResponse}), which the synthetic data
 * generator {@link SyntheticGlmData} uses.
 */
public abstract class Glm implements RowLikelihood {
    /** The built-in families {@link #of} knows. */
    public static final List<String> FAMILIES = List.of("logistic", "poisson", "gaussian");
    private static final long serialVersionUID = 1L;

    private final List<String> coefficientNames;
    private final int p;

    Glm(List<String> coefficientNames) {
        if (coefficientNames.isEmpty()) {
            throw new InvalidInputException("a GLM needs at least one coefficient");
        }
        this.coefficientNames = List.copyOf(coefficientNames);
        this.p = coefficientNames.size();
    }

    /**
     * The built-in GLM named {@code family} ("logistic", "poisson" or "gaussian"; a Gaussian model samples log σ
     * with a half-normal(0, {@code sigmaPriorScale}) prior on σ).
     */
    public static Glm of(String family, List<String> coefficientNames, double sigmaPriorScale) {
        return switch (family) {
            case "logistic" -> new LogisticGlm(coefficientNames);
            case "poisson" -> new PoissonGlm(coefficientNames);
            case "gaussian" -> GaussianGlm.withUnknownSd(coefficientNames, sigmaPriorScale);
            default -> throw new InvalidInputException("unknown GLM family '" + family
                    + "', expected logistic, poisson or gaussian");
        };
    }

    /** "beta[1]" … "beta[p]". */
    public static List<String> coefficientNames(int p) {
        List<String> names = new ArrayList<>(p);
        for (int j = 1; j <= p; j++) {
            names.add("beta[" + j + "]");
        }
        return names;
    }

    @Override
    public final int features() {
        return p;
    }

    @Override
    public int dimension() {
        return p;
    }

    @Override
    public List<String> parameterNames() {
        return coefficientNames;
    }

    /** η = Σ_j x[offset + j]·θ_j over the coefficients. */
    public final double linearPredictor(double[] x, int offset, double[] theta) {
        double eta = 0;
        for (int j = 0; j < p; j++) {
            eta += x[offset + j] * theta[j];
        }
        return eta;
    }

    @Override
    public final double logLikelihood(double y, double[] x, int offset, double[] theta) {
        return logLikelihoodAt(y, linearPredictor(x, offset, theta), theta);
    }

    /** log p(y | η, θ) less {@link #logConstant(double)}. */
    abstract double logLikelihoodAt(double y, double eta, double[] theta);

    /**
     * Whether θ is the coefficients alone, so that {@link #scoreAt} and {@link #weightAt} give the whole gradient
     * and Hessian through η (not so for a Gaussian model that samples log σ).
     */
    boolean derivativesThroughEta() {
        return dimension() == features();
    }

    /** ∂/∂η log p(y | η): the score. */
    abstract double scoreAt(double y, double eta);

    /** −∂²/∂η² log p(y | η): the weight of iteratively reweighted least squares. */
    abstract double weightAt(double y, double eta);

    /** A response drawn from the model at linear predictor η (and θ's own parameters, such as log σ). */
    public abstract double sampleResponse(double eta, double[] theta, Rng rng);
}
