package org.sparkmc.core.variate;

import java.util.function.DoubleUnaryOperator;
import java.util.function.LongFunction;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.sparkmc.core.testing.ChiSquare;

/**
 * DESIGN.md §6 pattern (a), Commons RNG's: 50 repetitions of a chi-square test at the 1% level on 20 bins of
 * equal probability with 20,000 draws each; a correct sampler fails more than 3 repetitions with probability
 * P(Binomial(50, 0.01) &gt; 3) ≈ 0.16%.
 */
final class GoodnessOfFit {
    static final int REPETITIONS = 50;
    static final int DRAWS = 20_000;
    static final int ALLOWED_FAILURES = 3;

    private GoodnessOfFit() {
    }

    /** The number of failed repetitions; the caller builds repetition rep's sampler, each on its own stream. */
    static int failedRepetitions(LongFunction<ContinuousSampler> samplerForRepetition, DoubleUnaryOperator cdf) {
        return failedRepetitions(samplerForRepetition, cdf, REPETITIONS, DRAWS);
    }

    static int failedRepetitions(LongFunction<ContinuousSampler> samplerForRepetition, DoubleUnaryOperator cdf,
            int repetitions, int draws) {
        int failed = 0;
        for (int rep = 0; rep < repetitions; rep++) {
            ContinuousSampler sampler = samplerForRepetition.apply(rep);
            double[] x = new double[draws];
            for (int i = 0; i < draws; i++) {
                x[i] = sampler.sample();
            }
            if (ChiSquare.pValue(x, cdf, 20) < 0.01) {
                failed++;
            }
        }
        return failed;
    }
}
