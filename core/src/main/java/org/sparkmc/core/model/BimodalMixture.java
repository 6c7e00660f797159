package org.sparkmc.core.model;

import java.util.List;

/**
 * The lectures' bimodal example: p(x) ∝ 0.3·exp(−0.2x²) + 0.7·exp(−0.2(x−10)²), a two-component normal mixture
 * with weights 0.3/0.7, means 0 and 10 and variance 2.5 each (mean 7, variance 23.5).
 *
 * <p>Reports {@code x} and the indicator {@code x_gt_T} of x &gt; T (parameter {@code threshold}, default 5),
 * whose posterior mean estimates P(x &gt; T) with an MCSE.
 */
public final class BimodalMixture implements Target {
    private static final long serialVersionUID = 1L;
    static final double LOG_W1 = Math.log(0.3);
    static final double LOG_W2 = Math.log(0.7);
    static final double SECOND_MEAN = 10;

    private final double threshold;

    public BimodalMixture(ModelParameters parameters) {
        this(parameters.getDouble("threshold", 5));
    }

    public BimodalMixture(double threshold) {
        this.threshold = threshold;
    }

    /** Exact P(x &gt; t) under this mixture. */
    public static double exactTailProbability(double t) {
        org.apache.commons.statistics.distribution.NormalDistribution first =
                org.apache.commons.statistics.distribution.NormalDistribution.of(0, Math.sqrt(2.5));
        org.apache.commons.statistics.distribution.NormalDistribution second =
                org.apache.commons.statistics.distribution.NormalDistribution.of(SECOND_MEAN, Math.sqrt(2.5));
        return 0.3 * first.survivalProbability(t) + 0.7 * second.survivalProbability(t);
    }

    @Override
    public int dimension() {
        return 1;
    }

    @Override
    public double logDensity(double[] position) {
        double x = position[0];
        double a = LOG_W1 - 0.2 * x * x;
        double b = LOG_W2 - 0.2 * (x - SECOND_MEAN) * (x - SECOND_MEAN);
        double max = Math.max(a, b);
        return max + Math.log(Math.exp(a - max) + Math.exp(b - max));
    }

    @Override
    public List<String> parameterNames() {
        return List.of("x", "x_gt_" + formatThreshold());
    }

    @Override
    public double[] parameters(double[] position) {
        return new double[] {position[0], position[0] > threshold ? 1 : 0};
    }

    /** A whole threshold in a long's range without a decimal point (5, not 5.0); any other as Java prints it. */
    private String formatThreshold() {
        boolean whole = threshold == Math.rint(threshold) && Math.abs(threshold) < 0x1p63; // (long) saturates beyond
        String s = whole ? Long.toString((long) threshold) : Double.toString(threshold);
        return s.replace('-', 'm').replace('.', 'p');
    }
}
