package org.sparkmc.core.consensus;

import java.util.ArrayList;
import java.util.List;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.random.Rng;

/**
 * The Gaussian linear model's row likelihood: y ~ N(η, σ²), log p(y | η, σ) = −½ log(2π) − log σ − (y − η)²/(2σ²).
 *
 * <p>With σ unknown ({@link #withUnknownSd}) θ has one more coordinate, u = log σ, after the coefficients, and
 * σ has a half-normal(0, c²) prior: on the unconstrained scale log p(u) = log 2 − ½ log(2πc²) − e^{2u}/(2c²) + u, the
 * last term being log |dσ/du| ({@link #logPriorOfExtras}); the draws report σ. With σ known ({@link #withKnownSd})
 * θ is the coefficients alone.
 */
public final class GaussianGlm extends Glm {
    private static final long serialVersionUID = 1L;
    private static final double HALF_LOG_TWO_PI = 0.5 * Math.log(2 * Math.PI);

    /** σ when known, NaN when sampled. */
    private final double knownSd;
    /** c, the half-normal prior's scale for σ when sampled. */
    private final double sigmaPriorScale;
    private final List<String> names;

    private GaussianGlm(List<String> coefficientNames, double knownSd, double sigmaPriorScale) {
        super(coefficientNames);
        this.knownSd = knownSd;
        this.sigmaPriorScale = sigmaPriorScale;
        List<String> all = new ArrayList<>(coefficientNames);
        if (Double.isNaN(knownSd)) {
            all.add("sigma");
        }
        this.names = List.copyOf(all);
    }

    /** y ~ N(xᵀβ, σ²) with σ sampled as log σ under a half-normal(0, c²) prior, c = {@code sigmaPriorScale}. */
    public static GaussianGlm withUnknownSd(List<String> coefficientNames, double sigmaPriorScale) {
        requirePositive("sigma prior scale", sigmaPriorScale);
        return new GaussianGlm(coefficientNames, Double.NaN, sigmaPriorScale);
    }

    /** y ~ N(xᵀβ, σ²) with σ known: θ is β alone. */
    public static GaussianGlm withKnownSd(List<String> coefficientNames, double sd) {
        requirePositive("noise sd", sd);
        return new GaussianGlm(coefficientNames, sd, Double.NaN);
    }

    private static void requirePositive(String what, double v) {
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new InvalidInputException("gaussian GLM: " + what + " must be positive and finite, is " + v);
        }
    }

    private boolean sdSampled() {
        return Double.isNaN(knownSd);
    }

    @Override
    public int dimension() {
        return features() + (sdSampled() ? 1 : 0);
    }

    @Override
    public List<String> parameterNames() {
        return names;
    }

    @Override
    public double[] parameters(double[] position) {
        double[] out = position.clone();
        if (sdSampled()) {
            out[features()] = Math.exp(position[features()]);
        }
        return out;
    }

    /** σ at a position. */
    public double sd(double[] theta) {
        return sdSampled() ? Math.exp(theta[features()]) : knownSd;
    }

    @Override
    double logLikelihoodAt(double y, double eta, double[] theta) {
        double r = y - eta;
        if (sdSampled()) {
            double u = theta[features()];
            return -u - 0.5 * r * r * Math.exp(-2 * u);
        }
        return -0.5 * r * r / (knownSd * knownSd);
    }

    /** (y − η)/σ², σ known ({@link #derivativesThroughEta} is false otherwise). */
    @Override
    double scoreAt(double y, double eta) {
        return (y - eta) / (knownSd * knownSd);
    }

    /** 1/σ², σ known. */
    @Override
    double weightAt(double y, double eta) {
        return 1 / (knownSd * knownSd);
    }

    /** −½ log(2π), and − log σ too when σ is known. */
    @Override
    public double logConstant(double y) {
        return sdSampled() ? -HALF_LOG_TWO_PI : -HALF_LOG_TWO_PI - Math.log(knownSd);
    }

    @Override
    public double logPriorOfExtras(double[] theta) {
        if (!sdSampled()) {
            return 0;
        }
        double u = theta[features()];
        double c2 = sigmaPriorScale * sigmaPriorScale;
        return Math.log(2) - 0.5 * Math.log(2 * Math.PI * c2) - 0.5 * Math.exp(2 * u) / c2 + u;
    }

    @Override
    public double sampleResponse(double eta, double[] theta, Rng rng) {
        return eta + sd(theta) * rng.normal();
    }

    @Override
    public String name() {
        return "gaussian";
    }

    @Override
    public boolean inSupport(double y) {
        return Double.isFinite(y);
    }

    @Override
    public String support() {
        return "a finite number";
    }
}
