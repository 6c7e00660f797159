package org.sparkmc.core.consensus;

import java.util.List;
import org.apache.commons.numbers.gamma.LogGamma;
import org.apache.commons.rng.sampling.distribution.PoissonSampler;
import org.sparkmc.core.random.Rng;

/**
 * Poisson regression's row likelihood with the log link: y ∈ {0, 1, 2, …}, mean λ = e^η, so
 * log p(y | η) = yη − e^η − log y!, the last term being {@link #logConstant(double)}.
 */
public final class PoissonGlm extends Glm {
    private static final long serialVersionUID = 1L;

    public PoissonGlm(List<String> coefficientNames) {
        super(coefficientNames);
    }

    @Override
    double logLikelihoodAt(double y, double eta, double[] theta) {
        return y * eta - Math.exp(eta);
    }

    /** y − e^η. */
    @Override
    double scoreAt(double y, double eta) {
        return y - Math.exp(eta);
    }

    /** e^η. */
    @Override
    double weightAt(double y, double eta) {
        return Math.exp(eta);
    }

    @Override
    public double logConstant(double y) {
        return -LogGamma.value(y + 1);
    }

    /** A Poisson(e^η) count by Commons RNG's {@link PoissonSampler} (0 when e^η underflows to 0). */
    @Override
    public double sampleResponse(double eta, double[] theta, Rng rng) {
        double mean = Math.exp(eta);
        return mean > 0 ? PoissonSampler.of(rng.provider(), mean).sample() : 0;
    }

    @Override
    public String name() {
        return "poisson";
    }

    @Override
    public boolean inSupport(double y) {
        return y >= 0 && y == Math.rint(y) && y < Double.POSITIVE_INFINITY;
    }

    @Override
    public String support() {
        return "a non-negative integer";
    }
}
