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
        // −η for y = 1 and η for y = 0, exactly, without a branch on a response that is as likely 0 as 1
        return -log1pExp(eta - 2 * y * eta);
    }

    /** y − σ(η). */
    @Override
    double scoreAt(double y, double eta) {
        return y - 1 / (1 + Math.exp(-eta));
    }

    /** σ(η)(1 − σ(η)). */
    @Override
    double weightAt(double y, double eta) {
        double p = 1 / (1 + Math.exp(-eta));
        return p * (1 - p);
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
