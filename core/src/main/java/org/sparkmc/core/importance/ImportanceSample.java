package org.sparkmc.core.importance;

import java.util.Objects;
import org.sparkmc.core.smc.LogWeights;

/**
 * Draws x_i ~ q with log importance weights ln w_i = ln p̃(x_i) − ln q̃(x_i) and values f(x_i), and the
 * estimators built on them (Robert &amp; Casella 2004, §3.3; Owen 2013, ch. 9).
 *
 * <ul>
 *   <li><b>Plain</b> (p and q normalised): Ê[f] = (1/n) Σ w_i f(x_i), unbiased; MCSE = sd(w f)/√n.</li>
 *   <li><b>Self-normalised</b> (p̃, q̃ known up to constants): Ê[f] = Σ w_i f_i / Σ w_i; MCSE by the delta method,
 *   √(Σ w_i² (f_i − Ê[f])²) / Σ w_i.</li>
 *   <li><b>Ratio of normalising constants</b>: Z_p/Z_q ≈ (1/n) Σ w_i, MCSE sd(w)/√n; its log is computed by
 *   log-sum-exp so that weights far beyond the double range still work.</li>
 *   <li><b>Effective sample size</b> of the weights (Kish 1965): (Σ w_i)² / Σ w_i².</li>
 * </ul>
 * Weights are only ever exponentiated after subtracting the largest log weight m; the plain estimator and the ratio
 * are then multiplied by e^m in log space, and when the result itself lies beyond the range of a double they throw
 * rather than return 0 or ∞ (use {@link #logNormalisingRatio()} there). Immutable.
 */
public final class ImportanceSample {
    private final double[] logWeights;
    private final double[] values;
    private final double maxLogWeight;
    /** w_i·exp(−max ln w), in (0, 1]. */
    private final double[] scaled;
    private final double sumScaled;

    private ImportanceSample(double[] logWeights, double[] values) {
        this.logWeights = logWeights;
        this.values = values;
        double max = Double.NEGATIVE_INFINITY;
        for (double lw : logWeights) {
            if (Double.isNaN(lw) || lw == Double.POSITIVE_INFINITY) {
                throw new IllegalArgumentException("a log weight is " + lw);
            }
            max = Math.max(max, lw);
        }
        if (max == Double.NEGATIVE_INFINITY) {
            throw new IllegalStateException("all " + logWeights.length + " importance weights are zero: p̃ vanishes"
                + " wherever q's draws fell");
        }
        this.maxLogWeight = max;
        this.scaled = new double[logWeights.length];
        double sum = 0;
        for (int i = 0; i < scaled.length; i++) {
            scaled[i] = Math.exp(logWeights[i] - max);
            sum += scaled[i];
        }
        this.sumScaled = sum;
    }

    /**
     * @param logWeights ln w_i, not all −∞
     * @param values f(x_i), the same length (at least 2)
     */
    public static ImportanceSample of(double[] logWeights, double[] values) {
        Objects.requireNonNull(logWeights, "logWeights");
        Objects.requireNonNull(values, "values");
        if (logWeights.length != values.length) {
            throw new IllegalArgumentException(logWeights.length + " weights but " + values.length + " values");
        }
        if (logWeights.length < 2) {
            throw new IllegalArgumentException("need at least 2 draws, got " + logWeights.length);
        }
        return new ImportanceSample(logWeights.clone(), values.clone());
    }

    public int size() {
        return logWeights.length;
    }

    /** ln w_i (a copy). */
    public double[] logWeights() {
        return logWeights.clone();
    }

    /** f(x_i) (a copy). */
    public double[] values() {
        return values.clone();
    }

    /** w_i / Σ w_j. */
    public double[] normalisedWeights() {
        double[] w = new double[scaled.length];
        for (int i = 0; i < w.length; i++) {
            w[i] = scaled[i] / sumScaled;
        }
        return w;
    }

    /** The plain estimator (1/n) Σ w_i f_i for normalised p and q, with MCSE sd(w f)/√n. */
    public Estimate plain() {
        int n = size();
        double mean = 0;
        for (int i = 0; i < n; i++) {
            mean += scaled[i] * values[i];
        }
        mean /= n;
        double ss = 0;
        for (int i = 0; i < n; i++) {
            double d = scaled[i] * values[i] - mean;
            ss += d * d;
        }
        return new Estimate(unscale(mean, "the plain estimate"), unscale(Math.sqrt(ss / (n - 1) / n), null));
    }

    /** The self-normalised estimator Σ w_i f_i / Σ w_i, with the delta-method MCSE. */
    public Estimate selfNormalised() {
        double mean = 0;
        for (int i = 0; i < scaled.length; i++) {
            mean += scaled[i] * values[i];
        }
        mean /= sumScaled;
        double ss = 0;
        for (int i = 0; i < scaled.length; i++) {
            double d = scaled[i] * (values[i] - mean);
            ss += d * d;
        }
        return new Estimate(mean, Math.sqrt(ss) / sumScaled);
    }

    /** ln((1/n) Σ w_i), the log of the estimate of Z_p/Z_q. */
    public double logNormalisingRatio() {
        return maxLogWeight + Math.log(sumScaled / size());
    }

    /** (1/n) Σ w_i, estimating Z_p/Z_q (for p̃ and q̃ with normalising constants Z_p, Z_q), with MCSE sd(w)/√n. */
    public Estimate normalisingRatio() {
        int n = size();
        double mean = sumScaled / n;
        double ss = 0;
        for (double w : scaled) {
            ss += (w - mean) * (w - mean);
        }
        return new Estimate(unscale(mean, "Z_p/Z_q"), unscale(Math.sqrt(ss / (n - 1) / n), null));
    }

    /**
     * v·e^m for a value v computed from the scaled weights, in log space; a non-zero result outside the double range
     * throws when {@code what} names it (an MCSE, {@code what} null, may underflow to 0).
     */
    private double unscale(double v, String what) {
        if (v == 0) {
            return 0;
        }
        double log = maxLogWeight + Math.log(Math.abs(v));
        double out = Math.copySign(Math.exp(log), v);
        if (what != null && (out == 0 || Double.isInfinite(out))) {
            throw new IllegalStateException(what + " is e^" + log + ", beyond the range of a double (the largest log"
                    + " weight is " + maxLogWeight + "); use logNormalisingRatio(), or shift the log weights");
        }
        return out;
    }

    /** Kish's effective sample size (Σ w)²/Σ w², between 1 and n. */
    public double ess() {
        return LogWeights.effectiveSampleSize(logWeights);
    }
}
