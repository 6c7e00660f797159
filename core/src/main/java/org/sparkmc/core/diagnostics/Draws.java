package org.sparkmc.core.diagnostics;

import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Package-private helpers over draws {@code [chain][iteration]}: validation, posterior's chain splitting and the
 * elementary moments computed the way R computes them (mean with a correction pass, variance with n − 1).
 */
final class Draws {
    /** R's {@code .Machine$double.eps}: posterior calls draws constant when {@code max − min} is below it. */
    static final double CONSTANT_TOLERANCE = 0x1.0p-52;

    private Draws() {
    }

    /**
     * Checks the shape: at least one chain, at least one draw per chain, all chains the same length.
     *
     * @throws IllegalArgumentException if the shape is wrong
     */
    static void validate(double[][] draws) {
        if (draws == null) {
            throw new IllegalArgumentException("draws must not be null");
        }
        if (draws.length == 0) {
            throw new IllegalArgumentException("draws must hold at least one chain, got 0");
        }
        if (draws[0] == null) {
            throw new IllegalArgumentException("chain 0 is null");
        }
        int n = draws[0].length;
        if (n == 0) {
            throw new IllegalArgumentException("each chain must hold at least one draw, chain 0 has none");
        }
        for (int c = 1; c < draws.length; c++) {
            if (draws[c] == null) {
                throw new IllegalArgumentException("chain " + c + " is null");
            }
            if (draws[c].length != n) {
                throw new IllegalArgumentException("all chains must have the same length: chain 0 has " + n
                        + " draws, chain " + c + " has " + draws[c].length);
            }
        }
    }

    /** Checks that a probability lies in [0, 1]. */
    static void validateProbability(double p) {
        if (!(p >= 0.0 && p <= 1.0)) {
            throw new IllegalArgumentException("probability must be in [0, 1], got " + p);
        }
    }

    /** Total number of draws. */
    static int size(double[][] draws) {
        return draws.length * draws[0].length;
    }

    /**
     * posterior's {@code .split_chains}: each chain of n draws becomes two chains, its first {@code floor(n/2)}
     * draws and its last {@code floor(n/2)} draws; for odd n the middle draw is dropped. The first halves come
     * first, then the second halves. A chain of one draw is returned unchanged (as posterior does).
     */
    static double[][] split(double[][] draws) {
        int m = draws.length;
        int n = draws[0].length;
        if (n == 1) {
            return draws;
        }
        int half = n / 2;
        double[][] out = new double[2 * m][];
        for (int c = 0; c < m; c++) {
            double[] chain = draws[c];
            double[] first = new double[half];
            double[] second = new double[half];
            System.arraycopy(chain, 0, first, 0, half);
            System.arraycopy(chain, n - half, second, 0, half);
            out[c] = first;
            out[m + c] = second;
        }
        return out;
    }

    /** Draws in each of posterior's split chains ({@link #split}) of chains of {@code iterations} draws. */
    static int splitLength(int iterations) {
        return iterations == 1 ? 1 : iterations / 2;
    }

    /** How many split chains ({@link #split}) {@code chains} chains of {@code iterations} draws give. */
    static int splitCount(int chains, int iterations) {
        return iterations == 1 ? chains : 2 * chains;
    }

    /**
     * posterior's split chains ({@link #split}) of the indicator {@code 1[x ≤ threshold]} of every draw, in one pass:
     * the series whose ESS is a quantile's. The summaries count that ESS from bits ({@link IndicatorAutocovariance});
     * this is the reference the tests hold the counts to.
     */
    static double[][] indicatorSplit(double[][] draws, double threshold) {
        int m = draws.length;
        int n = draws[0].length;
        int half = splitLength(n);
        double[][] out = new double[splitCount(m, n)][half];
        for (int c = 0; c < m; c++) {
            double[] chain = draws[c];
            double[] first = out[c];
            for (int i = 0; i < half; i++) {
                first[i] = chain[i] <= threshold ? 1.0 : 0.0;
            }
            if (n > 1) {
                double[] second = out[m + c];
                for (int i = 0; i < half; i++) {
                    second[i] = chain[n - half + i] <= threshold ? 1.0 : 0.0;
                }
            }
        }
        return out;
    }

    /** Draws of larger or smaller magnitude are summarised scaled: their fourth powers would overflow or underflow. */
    private static final int SAFE_EXPONENT = 200;

    /**
     * The power of two to scale the draws by before they are summarised: 0 when their largest finite magnitude lies
     * within 2^±200 (or is 0), else the one that brings it into [1, 2), exactly (the sd's ESS takes fourth powers).
     */
    static int rescaling(double[][] draws) {
        double max = 0;
        for (double[] chain : draws) {
            for (double v : chain) {
                double a = Math.abs(v);
                if (a > max && a != Double.POSITIVE_INFINITY) {
                    max = a;
                }
            }
        }
        int exponent = max == 0 ? 0 : Math.getExponent(max);
        return Math.abs(exponent) <= SAFE_EXPONENT ? 0 : -exponent;
    }

    /** A summary of draws scaled by 2^−{@code exponent} as the summary of the draws: {@code of(scaled, e, own)}. */
    @FunctionalInterface
    interface Rescaling<S> {
        /**
         * The summary of the draws from {@code scaled}, that of the draws times 2^−{@code exponent}, and {@code own},
         * that of the draws as given where they are tiny (posterior's range test decides their R-hat and ESS), else
         * {@code scaled} itself.
         */
        S of(S scaled, int exponent, S own);
    }

    /** A statistic scaling leaves alone (ESS, R-hat): the scaled draws' for huge draws, the draws' own for tiny. */
    static final Rescaling<Double> INVARIANT = (scaled, exponent, own) -> own;

    /** A location or spread: the scaled draws' statistic scaled back, exactly. */
    static final Rescaling<Double> LINEAR = (scaled, exponent, own) -> Math.scalb(scaled, exponent);

    /** An MCSE: scaled back as {@link #LINEAR}, but NaN where the draws' own is undefined. */
    static final Rescaling<Double> STANDARD_ERROR = (scaled, exponent, own) ->
            FullParameterSummary.mcse(scaled, own, exponent);

    /**
     * {@code summary} of the draws, computed on a copy scaled by a power of two where their magnitude needs it
     * ({@link #rescaling}) and scaled back by {@code back}; for tiny draws also on the draws as given. The one way
     * every summary and every one-statistic method of this package meets draws beyond 2^±200.
     */
    static <S> S atSafeScale(double[][] draws, Function<double[][], S> summary, Rescaling<S> back) {
        int exponent = rescaling(draws);
        if (exponent == 0) {
            return summary.apply(draws);
        }
        S scaled = summary.apply(scaled(draws, exponent));
        return back.of(scaled, -exponent, exponent < 0 ? scaled : summary.apply(draws));
    }

    /** {@link #atSafeScale} of a one-number statistic of validated draws. */
    static double statisticAtSafeScale(double[][] draws, ToDoubleFunction<double[][]> statistic,
            Rescaling<Double> back) {
        validate(draws);
        return atSafeScale(draws, d -> statistic.applyAsDouble(d), back);
    }

    /** The draws times 2^{@code exponent}, shaped as the draws. */
    static double[][] scaled(double[][] draws, int exponent) {
        return map(draws, v -> Math.scalb(v, exponent));
    }

    /** The deviations {@code x − centre} of a chain's draws. */
    static double[] centered(double[] chain, double centre) {
        double[] out = new double[chain.length];
        for (int i = 0; i < chain.length; i++) {
            out[i] = chain[i] - centre;
        }
        return out;
    }

    /** The squared deviations {@code (x − centre)²} of every draw, shaped as the draws. */
    static double[][] squaredDeviations(double[][] draws, double centre) {
        double[][] out = new double[draws.length][];
        for (int c = 0; c < draws.length; c++) {
            double[] chain = draws[c];
            double[] squared = new double[chain.length];
            for (int i = 0; i < chain.length; i++) {
                double d = chain[i] - centre;
                squared[i] = d * d;
            }
            out[c] = squared;
        }
        return out;
    }

    /** Mean of a vector: sum / n followed by R's correction pass {@code mean += sum(x − mean) / n}. */
    static double mean(double[] x) {
        int n = x.length;
        double mean = sumMinus(x, 0.0) / n;
        if (Double.isFinite(mean)) {
            mean += sumMinus(x, mean) / n;
        }
        return mean;
    }

    /** Mean over all draws of all chains (pooled), with R's correction pass. */
    static double mean(double[][] draws) {
        long count = 0;
        double sum = 0.0;
        for (double[] chain : draws) {
            sum += sumMinus(chain, 0.0);
            count += chain.length;
        }
        double mean = sum / count;
        if (Double.isFinite(mean)) {
            double correction = 0.0;
            for (double[] chain : draws) {
                correction += sumMinus(chain, mean);
            }
            mean += correction / count;
        }
        return mean;
    }

    /** Σ (x_i − shift) (see {@link #sumAbout}). */
    private static double sumMinus(double[] x, double shift) {
        return sumAbout(x, shift, false);
    }

    /** Σ (x_i − centre)² (see {@link #sumAbout}). */
    private static double squaresAbout(double[] x, double centre) {
        return sumAbout(x, centre, true);
    }

    /**
     * Σ (x_i − centre), or of its squares, as four interleaved partial sums: independent additions keep the
     * floating-point units busy where one running sum waits on each addition in turn. One loop serves both sums:
     * measured on 8 × 200,000 draws it costs 4–7% against a copy for each (about 0.05 ms a pass).
     */
    private static double sumAbout(double[] x, double centre, boolean squared) {
        double s0 = 0.0;
        double s1 = 0.0;
        double s2 = 0.0;
        double s3 = 0.0;
        int i = 0;
        for (; i + 3 < x.length; i += 4) {
            s0 += term(x[i] - centre, squared);
            s1 += term(x[i + 1] - centre, squared);
            s2 += term(x[i + 2] - centre, squared);
            s3 += term(x[i + 3] - centre, squared);
        }
        for (; i < x.length; i++) {
            s0 += term(x[i] - centre, squared);
        }
        return (s0 + s1) + (s2 + s3);
    }

    private static double term(double d, boolean squared) {
        return squared ? d * d : d;
    }

    /** Sample variance (n − 1 denominator) of a vector, two-pass; NaN for fewer than two values. */
    static double variance(double[] x) {
        return variance(x, mean(x));
    }

    /** {@link #variance(double[])} given the vector's {@link #mean(double[])}, which it would compute again. */
    static double variance(double[] x, double mean) {
        int n = x.length;
        if (n < 2) {
            return Double.NaN;
        }
        return squaresAbout(x, mean) / (n - 1);
    }

    /** Pooled sample variance (n − 1 denominator) over all draws; NaN for fewer than two draws. */
    static double variance(double[][] draws) {
        return variance(draws, mean(draws));
    }

    /** {@link #variance(double[][])} given the draws' pooled {@link #mean(double[][])}. */
    static double variance(double[][] draws, double mean) {
        long count = size(draws);
        if (count < 2) {
            return Double.NaN;
        }
        double ss = 0.0;
        for (double[] chain : draws) {
            ss += squaresAbout(chain, mean);
        }
        return ss / (count - 1);
    }

    /** True when any draw is NaN. */
    static boolean anyNaN(double[][] draws) {
        for (double[] chain : draws) {
            for (double v : chain) {
                if (Double.isNaN(v)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * posterior's {@code should_return_NA}: true when any draw is NaN or infinite, or when all draws are
     * constant ({@code max − min < .Machine$double.eps}).
     */
    static boolean shouldReturnNaN(double[][] draws) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (double[] chain : draws) {
            for (double v : chain) {
                if (!Double.isFinite(v)) {
                    return true;
                }
                if (v < min) {
                    min = v;
                }
                if (v > max) {
                    max = v;
                }
            }
        }
        return Math.abs(max - min) < CONSTANT_TOLERANCE;
    }

    /** Applies {@code f} to every draw, keeping the shape. */
    static double[][] map(double[][] draws, java.util.function.DoubleUnaryOperator f) {
        double[][] out = new double[draws.length][];
        for (int c = 0; c < draws.length; c++) {
            double[] chain = draws[c];
            double[] mapped = new double[chain.length];
            for (int i = 0; i < chain.length; i++) {
                mapped[i] = f.applyAsDouble(chain[i]);
            }
            out[c] = mapped;
        }
        return out;
    }
}
