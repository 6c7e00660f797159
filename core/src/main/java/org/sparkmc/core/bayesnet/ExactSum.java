package org.sparkmc.core.bayesnet;

import java.io.Serializable;
import java.util.Arrays;

/**
 * An exact running sum of doubles, kept as non-overlapping partials in increasing magnitude (Shewchuk 1997,
 * "Adaptive precision floating-point arithmetic"; the partials algorithm of Python's {@code math.fsum}), whose
 * {@link #value()} is the exact sum correctly rounded to a double.
 *
 * <p>Because the exact sum does not depend on the order of the additions, neither does the value: sums merged in
 * any grouping or order give bit-identical results. That is what makes per-block statistics merge
 * deterministically whatever the partitioning. Mutable; not thread-safe.
 */
public final class ExactSum implements Serializable {
    private static final long serialVersionUID = 1L;

    private double[] partials = new double[4];
    private int size;

    public ExactSum() {
    }

    /** A sum holding one value. */
    public static ExactSum of(double x) {
        ExactSum s = new ExactSum();
        s.add(x);
        return s;
    }

    /** Adds x exactly. */
    public void add(double x) {
        if (!Double.isFinite(x)) {
            throw new IllegalArgumentException("cannot sum " + x);
        }
        int i = 0;
        for (int j = 0; j < size; j++) {
            double y = partials[j];
            if (Math.abs(x) < Math.abs(y)) {
                double t = x;
                x = y;
                y = t;
            }
            double hi = x + y;
            double lo = y - (hi - x);
            if (lo != 0) {
                partials[i++] = lo;
            }
            x = hi;
        }
        if (!Double.isFinite(x)) {
            throw new ArithmeticException("sum overflows the double range");
        }
        if (i == partials.length) {
            partials = Arrays.copyOf(partials, 2 * i);
        }
        partials[i++] = x;
        size = i;
    }

    /** Adds another sum exactly. */
    public void add(ExactSum other) {
        double[] p = other.partials.clone();
        for (int j = 0; j < other.size; j++) {
            add(p[j]);
        }
    }

    /** The exact sum rounded to the nearest double (ties to even). */
    public double value() {
        int n = size;
        if (n == 0) {
            return 0;
        }
        double hi = partials[--n];
        double lo = 0;
        while (n > 0) {
            double x = hi;
            double y = partials[--n];
            hi = x + y;
            double yr = hi - x;
            lo = y - yr;
            if (lo != 0) {
                break;
            }
        }
        // Half-way cases: the partials below decide the direction of rounding.
        if (n > 0 && ((lo < 0 && partials[n - 1] < 0) || (lo > 0 && partials[n - 1] > 0))) {
            double y = lo * 2;
            double x = hi + y;
            double yr = x - hi;
            if (y == yr) {
                hi = x;
            }
        }
        return hi;
    }

    public ExactSum copy() {
        ExactSum c = new ExactSum();
        c.partials = Arrays.copyOf(partials, Math.max(4, size));
        c.size = size;
        return c;
    }

    @Override
    public String toString() {
        return Double.toString(value());
    }
}
