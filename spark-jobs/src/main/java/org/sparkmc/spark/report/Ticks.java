package org.sparkmc.spark.report;

import java.util.Locale;

/**
 * Axis ticks at round numbers, used by every chart of the reports: the step is 1, 2 or 5 times a power of ten, the
 * one nearest to the range over the wanted number of intervals (Heckbert's "nice numbers", Graphics Gems, 1990), and
 * labels carry as many decimals as the step needs, so no two labels are the same.
 *
 * @param lo   the axis' lower end
 * @param hi   the axis' upper end
 * @param step the distance between ticks
 */
public record Ticks(double lo, double hi, double step) {
    private static final double EPS = 1e-9;

    public Ticks {
        if (!(hi > lo) || !(step > 0)) {
            throw new IllegalArgumentException("ticks need lo < hi and a positive step: " + lo + ", " + hi + ", "
                    + step);
        }
    }

    /**
     * An axis covering the data range [lo, hi] that begins and ends on a tick (the range widened to the multiples of
     * the step around it, but never beyond the largest double), with about {@code intervals} intervals. A constant or
     * non-finite range is widened first.
     */
    public static Ticks covering(double lo, double hi, int intervals) {
        double[] range = range(lo, hi);
        double step = step(range, intervals);
        double first = Math.max(Math.floor(range[0] / step + EPS) * step, -Double.MAX_VALUE);
        double last = Math.min(Math.ceil(range[1] / step - EPS) * step, Double.MAX_VALUE);
        return new Ticks(first + 0.0, last + 0.0, step);
    }

    /**
     * An axis from lo to hi exactly, with ticks at the multiples of a round step inside it: at least two, so the step
     * is made finer when the range holds fewer.
     */
    public static Ticks within(double lo, double hi, int intervals) {
        double[] range = range(lo, hi);
        Ticks t = new Ticks(range[0], range[1], step(range, intervals));
        for (int n = 2 * intervals; t.values().length < 2; n *= 2) {
            t = new Ticks(range[0], range[1], step(range, n));
        }
        return t;
    }

    /**
     * Where {@code v} lies on this axis, from 0 at lo to 1 at hi; also where hi − lo exceeds the largest double (an
     * axis from −1e308 to 1e308).
     */
    public double fraction(double v) {
        double span = hi - lo;
        return Double.isFinite(span) ? (v - lo) / span : (v / 2 - lo / 2) / (hi / 2 - lo / 2);
    }

    /** The step for a range, computed without overflow where its span exceeds the largest double. */
    private static double step(double[] range, int intervals) {
        double span = range[1] - range[0];
        return Double.isFinite(span) ? step(span, intervals) : step(range[1] / intervals - range[0] / intervals, 1);
    }

    /**
     * The 1, 2 or 5 × 10^k nearest to {@code span / intervals} on a log scale, so the range holds between 0.63 and
     * 1.6 times the wanted number of intervals.
     */
    public static double step(double span, int intervals) {
        if (!(span > 0) || intervals < 1) {
            throw new IllegalArgumentException("step needs a positive span and interval count: " + span + ", "
                    + intervals);
        }
        double raw = span / intervals;
        int exponent = (int) Math.floor(Math.log10(raw));
        double m = raw / power(exponent);
        double mantissa = m < Math.sqrt(2) ? 1 : m < Math.sqrt(10) ? 2 : m < Math.sqrt(50) ? 5 : 10;
        return mantissa == 10 ? power(exponent + 1) : mantissa * power(exponent);
    }

    /** The tick values from lo to hi, each a whole multiple of the step. */
    public double[] values() {
        long first = (long) Math.ceil(lo / step - EPS);
        long last = (long) Math.floor(hi / step + EPS);
        double[] v = new double[(int) Math.max(0, last - first + 1)];
        for (int i = 0; i < v.length; i++) {
            v[i] = (first + i) * step + 0.0;
        }
        return v;
    }

    /** The digits after the decimal point that the step needs (0 for a step of 1 or more). */
    public int decimals() {
        return Math.max(0, (int) -Math.floor(Math.log10(step) + EPS));
    }

    /**
     * A tick's label, with {@link #decimals()} decimals and no negative zero; in scientific notation, with the digits
     * the step needs, when the step is below 10^-6 or the axis reaches 10^12 (1e-300 and 1e200 draws).
     */
    public String label(double v) {
        double largest = Math.max(Math.abs(lo), Math.abs(hi));
        String s;
        if (step < 1e-6 || largest >= 1e12) {
            int digits = (int) Math.floor(Math.log10(largest) + EPS) - (int) Math.floor(Math.log10(step) + EPS);
            s = String.format(Locale.ROOT, "%." + Math.max(0, digits) + "e", v);
        } else {
            s = String.format(Locale.ROOT, "%." + decimals() + "f", v);
        }
        return s.matches("-0(\\.0*)?(e[+-]00)?") ? s.substring(1) : s;
    }

    /**
     * 10^k exactly for the k used here (so that 0.1 × 2 prints as 0.2, not 0.20000000000000004); beyond 10^-300,
     * where 10^-k overflows, the nearest double.
     */
    private static double power(int k) {
        return k >= 0 ? Math.pow(10, k) : k >= -300 ? 1 / Math.pow(10, -k) : Math.pow(10, k);
    }

    private static double[] range(double lo, double hi) {
        if (!Double.isFinite(lo) || !Double.isFinite(hi)) {
            return new double[] {0, 1};
        }
        if (hi > lo) {
            return new double[] {lo, hi};
        }
        // 1% each way, within the doubles: at least 1e-312 (38 bits of a subnormal; 1% of 4.9e-324 rounds to 0)
        double half = lo == 0 ? 0.5 : Math.max(Math.abs(lo) * 0.01, 1e-312);
        return new double[] {Math.max(lo - half, -Double.MAX_VALUE), Math.min(lo + half, Double.MAX_VALUE)};
    }
}
