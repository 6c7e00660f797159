package org.sparkmc.core.consensus;

import java.util.List;
import org.sparkmc.core.random.Rng;

/**
 * Logistic regression's row likelihood: y ∈ {0, 1}, P(y = 1) = σ(η) = 1/(1 + e^−η), so
 * log p(y | η) = yη − log(1 + e^η), computed as −log(1 + e^−η) for y = 1 and −log(1 + e^η) for y = 0 with
 * log(1 + e^t) = max(t, 0) + log(1 + e^−|t|): no overflow for any finite η, and an absolute error of at most a few
 * 1e-16 per row. ({@code Math.log1p} would add relative accuracy to the tiny terms of rows far on their side of the
 * boundary, which a sum over rows cannot use, and it cost 1.4 to 2 times as much per row here.)
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

    /** log(1 + e^t) without overflow; e^−|t| ∈ (0, 1], so 1 + e^−|t| loses at most half an ulp of 1. */
    static double log1pExp(double t) {
        return Math.max(t, 0) + Math.log(1 + Math.exp(-Math.abs(t)));
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
