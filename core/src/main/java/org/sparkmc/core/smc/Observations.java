package org.sparkmc.core.smc;

import java.util.List;
import java.util.Objects;

/**
 * A series of observations y_0, …, y_{T−1}, each a vector of {@link #dimension()} values (NaN where missing),
 * with optional time labels (the file's t column; otherwise 0, 1, …) and the name of its source.
 */
public final class Observations {
    private final String source;
    private final List<String> columns;
    private final double[] times;
    private final double[][] values;

    public Observations(String source, List<String> columns, double[] times, double[][] values) {
        this.source = Objects.requireNonNull(source, "source");
        this.columns = List.copyOf(columns);
        this.values = Objects.requireNonNull(values, "values");
        if (times != null && times.length != values.length) {
            throw new IllegalArgumentException(times.length + " times for " + values.length + " observations");
        }
        for (double[] v : values) {
            if (v.length != columns.size()) {
                throw new IllegalArgumentException("an observation has " + v.length + " values, expected "
                        + columns.size());
            }
        }
        if (times == null) {
            times = new double[values.length];
            for (int i = 0; i < times.length; i++) {
                times[i] = i;
            }
        }
        this.times = times;
    }

    /** Whether y is missing: null, or any component NaN (a partly observed vector counts as missing). */
    public static boolean isMissing(double[] y) {
        if (y == null) {
            return true;
        }
        for (double v : y) {
            if (Double.isNaN(v)) {
                return true;
            }
        }
        return false;
    }

    public String source() {
        return source;
    }

    /** Names of the observation columns. */
    public List<String> columns() {
        return columns;
    }

    public int size() {
        return values.length;
    }

    public int dimension() {
        return columns.size();
    }

    /** The time label of observation n. */
    public double time(int n) {
        return times[n];
    }

    /** y_n (a copy). */
    public double[] value(int n) {
        return values[n].clone();
    }

    /** All observations, [n][component] (copies). */
    public double[][] values() {
        double[][] copy = new double[values.length][];
        for (int i = 0; i < copy.length; i++) {
            copy[i] = values[i].clone();
        }
        return copy;
    }

    /** How many observations are missing. */
    public int missingCount() {
        int k = 0;
        for (double[] v : values) {
            if (isMissing(v)) {
                k++;
            }
        }
        return k;
    }
}
