package org.sparkmc.core.importance;

import java.util.Objects;
import java.util.function.DoubleUnaryOperator;
import java.util.function.ToDoubleFunction;
import org.apache.commons.rng.sampling.ObjectSampler;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.sparkmc.core.variate.LogDensity;

/**
 * Importance sampling (Kahn &amp; Marshall 1953; Geweke 1989): draw x_i from a proposal q and weight each draw by
 * p̃(x_i)/q̃(x_i), in log space. The returned {@link ImportanceSample} gives the plain and self-normalised
 * estimates of E_p[f], the estimate of Z_p/Z_q, the weights' ESS and the MCSEs; {@link Sir} resamples it.
 */
public final class ImportanceSampling {
    private ImportanceSampling() {
    }

    /**
     * @param proposal draws from q
     * @param logProposal ln q̃ (normalised for the plain estimator)
     * @param logTarget ln p̃ (normalised for the plain estimator)
     * @param f the function whose expectation under p is wanted
     * @param n the number of draws, at least 2
     */
    public static ImportanceSample run(ContinuousSampler proposal, LogDensity logProposal, LogDensity logTarget,
            DoubleUnaryOperator f, int n) {
        Objects.requireNonNull(proposal, "proposal");
        checkCount(n);
        double[] logWeights = new double[n];
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            double x = proposal.sample();
            logWeights[i] = logWeight(logTarget.value(x), logProposal.value(x), x);
            values[i] = f.applyAsDouble(x);
        }
        return ImportanceSample.of(logWeights, values);
    }

    /** The same for draws of any type (vectors, discrete states…). */
    public static <T> ImportanceSample runObjects(ObjectSampler<T> proposal, ToDoubleFunction<T> logProposal,
            ToDoubleFunction<T> logTarget, ToDoubleFunction<T> f, int n) {
        Objects.requireNonNull(proposal, "proposal");
        checkCount(n);
        double[] logWeights = new double[n];
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            T x = proposal.sample();
            logWeights[i] = logWeight(logTarget.applyAsDouble(x), logProposal.applyAsDouble(x), x);
            values[i] = f.applyAsDouble(x);
        }
        return ImportanceSample.of(logWeights, values);
    }

    private static void checkCount(int n) {
        if (n < 2) {
            throw new IllegalArgumentException("need at least 2 draws, got " + n);
        }
    }

    private static double logWeight(double logTarget, double logProposal, Object x) {
        if (logProposal == Double.NEGATIVE_INFINITY || Double.isNaN(logProposal)) {
            throw new IllegalStateException("the proposal drew " + x + " where ln q̃ = " + logProposal);
        }
        double lw = logTarget - logProposal;
        if (Double.isNaN(lw) || lw == Double.POSITIVE_INFINITY) {
            throw new IllegalStateException("log weight " + lw + " at " + x + " (ln p̃ = " + logTarget
                + ", ln q̃ = " + logProposal + ")");
        }
        return lw;
    }
}
