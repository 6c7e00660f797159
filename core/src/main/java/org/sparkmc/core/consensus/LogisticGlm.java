package org.sparkmc.core.consensus;

import java.util.List;
import org.sparkmc.core.random.Rng;

/**
 * Logistic regression's row likelihood: y ∈ {0, 1}, P(y = 1) = σ(η) = 1/(1 + e^−η), so
 * log p(y | η) = yη − log(1 + e^η), computed as −log(1 + e^−η) for y = 1 and −log(1 + e^η) for y = 0 with
 * log(1 + e^t) = max(t, 0) + log1p(e^−|t|): finite and accurate for any finite η.
 */
public final class LogisticGlm extends Glm {
    private static final long serialVersionUID = 1L;

    public LogisticGlm(List<String> coefficientNames) {
        super(coefficientNames);
    }

    @Override
    double logLikelihoodAt(double y, double eta, double[] theta) {
        return -log1pExp(y == 1 ? -eta : eta);
    }

    /** log(1 + e^t) without overflow or loss of accuracy for large |t|. */
    static double log1pExp(double t) {
        return Math.max(t, 0) + Math.log1p(Math.exp(-Math.abs(t)));
    }

    @Override
    public double sampleResponse(double eta, double[] theta, Rng rng) {
        return rng.uniform() < 1 / (1 + Math.exp(-eta)) ? 1 : 0;
    }

    @Override
    public String name() {
        return "logistic";
    }

    @Override
    public boolean inSupport(double y) {
        return y == 0 || y == 1;
    }

    @Override
    public String support() {
        return "0 or 1";
    }
}
