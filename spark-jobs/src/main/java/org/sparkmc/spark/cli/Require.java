package org.sparkmc.spark.cli;

import java.util.List;
import org.sparkmc.core.InvalidInputException;

/**
 * The checks of the options' values, in the style of Commons RNG's {@code require…(x, name)}: each returns the value
 * it checked, or throws an {@link InvalidInputException} (exit code 2, before Spark starts) whose message names the
 * option, what it must be and what it is, e.g. {@code --sweeps must be ≥ 1, is 0}.
 */
public final class Require {
    private Require() {
    }

    /** {@code value ≥ min}. */
    public static long atLeast(long value, long min, String option) {
        if (value < min) {
            throw bad(option, "≥ " + min, value);
        }
        return value;
    }

    /** {@code value ≥ min}, with why the bound exists ("for R-hat"). */
    public static int atLeast(int value, int min, String option, String why) {
        if (value < min) {
            throw bad(option, "≥ " + min + " " + why, value);
        }
        return value;
    }

    /** {@code value ≥ min} as an int (a count). */
    public static int atLeast(int value, int min, String option) {
        return (int) atLeast((long) value, min, option);
    }

    /** A finite number {@code ≥ min} (NaN and infinities are refused). */
    public static double atLeast(double value, double min, String option) {
        if (!(value >= min) || Double.isInfinite(value)) {
            throw bad(option, "a finite number ≥ " + text(min), text(value));
        }
        return value;
    }

    /** A number {@code > bound} (NaN is refused, +∞ taken). */
    public static double above(double value, double bound, String option) {
        if (!(value > bound)) {
            throw bad(option, "> " + text(bound), text(value));
        }
        return value;
    }

    /** A finite number {@code > 0}. */
    public static double positive(double value, String option) {
        if (!(value > 0) || Double.isInfinite(value)) {
            throw bad(option, "a finite number > 0", text(value));
        }
        return value;
    }

    /** A number in {@code [min, max]} (NaN is refused). */
    public static double inRange(double value, double min, double max, String option) {
        return within(value, min, true, max, true, option);
    }

    /** A number in {@code (min, max]} (NaN is refused). */
    public static double inLeftOpenRange(double value, double min, double max, String option) {
        return within(value, min, false, max, true, option);
    }

    /** A number in {@code [min, max)} (NaN is refused). */
    public static double inHalfOpenRange(double value, double min, double max, String option) {
        return within(value, min, true, max, false, option);
    }

    /** A number in {@code (min, max)} (NaN is refused). */
    public static double inOpenRange(double value, double min, double max, String option) {
        return within(value, min, false, max, false, option);
    }

    /** A number between {@code min} and {@code max}, each end included or not (NaN is refused). */
    private static double within(double value, double min, boolean withMin, double max, boolean withMax,
            String option) {
        if (!((withMin ? value >= min : value > min) && (withMax ? value <= max : value < max))) {
            throw bad(option, "in " + (withMin ? "[" : "(") + text(min) + ", " + text(max) + (withMax ? "]" : ")"),
                    text(value));
        }
        return value;
    }

    /** One of the {@code allowed} words. */
    public static String oneOf(String value, List<String> allowed, String option) {
        if (!allowed.contains(value)) {
            throw bad(option, "one of " + String.join(", ", allowed), "'" + value + "'");
        }
        return value;
    }

    private static InvalidInputException bad(String option, String expected, Object value) {
        return new InvalidInputException(option + " must be " + expected + ", is " + value);
    }

    /** A double as typed: 1 rather than 1.0 for a whole number. */
    private static String text(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}
