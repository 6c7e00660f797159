package org.sparkmc.core.model;

import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.sparkmc.core.InvalidInputException;

/**
 * The named values a model is built from: numbers, strings and numeric arrays, read from the job's
 * configuration and the model's data file. Getters fail with a message naming the missing or mistyped field.
 *
 * <p>Every name a model asks about ({@link #has}, the getters, {@link #value}) is recorded, present or not, so a
 * job can refuse parameters the model never asked for (a misspelt key would otherwise be silently ignored):
 * {@link #consulted()}. A model therefore reads all its parameters when it is built. {@link #asMap()} records
 * nothing. The values the getters return, a default for a name not given included, are recorded too:
 * {@link #resolved()}, what a checkpoint's fingerprint digests.
 */
public final class ModelParameters implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final Map<String, Object> values;
    /** Where a value was given ("file:line", "--param k=v"), by name, for the messages; absent when unknown. */
    private final Map<String, String> origins;
    /** The names asked about so far (by this instance; a deserialized copy starts afresh). */
    private transient Set<String> consulted;
    /** The values the getters returned so far, by name, defaults for names not given included ({@link #resolved}). */
    private transient Map<String, Object> taken;

    /**
     * @param source where the values came from, for error messages (e.g. a config file or data path)
     * @param values Number, String, Boolean or List of Number values by name
     */
    public ModelParameters(String source, Map<String, ?> values) {
        this(source, values, Map.of());
    }

    /**
     * @param origins where each value was given, by name (a config file's {@code file:line}, a command-line
     *     option), put before a message about it; names without one are described by {@code source} alone
     */
    public ModelParameters(String source, Map<String, ?> values, Map<String, String> origins) {
        this.source = source;
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
        this.origins = Collections.unmodifiableMap(new LinkedHashMap<>(origins));
        this.consulted = ConcurrentHashMap.newKeySet();
    }

    public static ModelParameters empty() {
        return new ModelParameters("no parameters", Map.of());
    }

    public String source() {
        return source;
    }

    public boolean has(String name) {
        note(name);
        return values.containsKey(name);
    }

    /** The values by name, without recording any as read (for fingerprints and listings). */
    public Map<String, Object> asMap() {
        return values;
    }

    /** The raw value of {@code name} (Number, String, Boolean, List...), or null when absent. */
    public Object value(String name) {
        note(name);
        return values.get(name);
    }

    /**
     * The values the model uses, by name, sorted: each one a getter returned, so that a default stands for a name not
     * given and a number is a double however it was written ({@code 1120} in a config file, {@code 1120.0} from
     * {@code --param}); then any value given that no getter returned, its numbers as doubles. Two models built from
     * equal maps are the same model, whether a parameter was given at its default value or left to it: digest this,
     * not {@link #asMap()}, to tell whether a model changed. (A default a model chooses itself after {@link #has}
     * says false is not seen: it is the same whenever the name is absent.)
     */
    public Map<String, Object> resolved() {
        Map<String, Object> out = new TreeMap<>(takenValues());
        values.forEach((name, v) -> out.putIfAbsent(name, normalized(v)));
        return out;
    }

    /** Records what a getter returned for {@code name}, and returns it. */
    private <T> T took(String name, T value) {
        takenValues().put(name, value);
        return value;
    }

    private synchronized Map<String, Object> takenValues() {
        if (taken == null) {
            taken = new ConcurrentHashMap<>();
        }
        return taken;
    }

    /** A value with its numbers as doubles, in lists too (a config file's 1120 is --param's 1120.0). */
    private static Object normalized(Object v) {
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        return v instanceof List<?> list ? list.stream().map(ModelParameters::normalized).toList() : v;
    }

    /** The names asked about so far through {@link #has}, the getters or {@link #value}, present or not, sorted. */
    public Set<String> consulted() {
        return Collections.unmodifiableSet(new TreeSet<>(consultedNames()));
    }

    private void note(String name) {
        consultedNames().add(name);
    }

    private synchronized Set<String> consultedNames() {
        if (consulted == null) {
            consulted = ConcurrentHashMap.newKeySet();
        }
        return consulted;
    }

    /**
     * The number {@code name}; a finite one (a data file refuses NaN and infinities, so a parameter does too: a
     * threshold of NaN would make every comparison false without a word).
     */
    public double getDouble(String name) {
        Object v = require(name);
        if (v instanceof Number n && Double.isFinite(n.doubleValue())) {
            return took(name, n.doubleValue());
        }
        throw wrongType(name, v instanceof Number ? "a finite number" : "a number", v);
    }

    public double getDouble(String name, double defaultValue) {
        return has(name) ? getDouble(name) : took(name, defaultValue);
    }

    /**
     * The number {@code name}, or {@code defaultValue} when absent; one not above {@code bound} is refused with where
     * it was given (a scale of 0 or a negative concentration, say).
     */
    public double getDoubleAbove(String name, double defaultValue, double bound) {
        return above(name, getDouble(name, defaultValue), bound);
    }

    /** The number {@code name}, which must be given and above {@code bound}. */
    public double getDoubleAbove(String name, double bound) {
        return above(name, getDouble(name), bound);
    }

    private double above(String name, double d, double bound) {
        if (!(d > bound)) {
            throw wrongType(name, "a number > " + number(bound), values.get(name));
        }
        return d;
    }

    /** The whole number {@code name}, or {@code defaultValue} when absent; one below {@code min} is refused. */
    public int getInt(String name, int defaultValue, int min) {
        int i = has(name) ? getInt(name) : took(name, (double) defaultValue).intValue();
        if (i < min) {
            throw wrongType(name, "a whole number ≥ " + min, values.get(name));
        }
        return i;
    }

    public int getInt(String name) {
        double d = getDouble(name);
        if (d != Math.rint(d) || Math.abs(d) > Integer.MAX_VALUE) {
            throw wrongType(name, "a whole number", values.get(name));
        }
        return (int) d;
    }

    public String getString(String name) {
        Object v = require(name);
        if (v instanceof String || v instanceof Number || v instanceof Boolean) {
            took(name, normalized(v)); // 1120 from a config file and 1120.0 from --param are one value
            return v.toString();
        }
        throw wrongType(name, "a string", v);
    }

    /** A yes/no field: true/false (any case), or 1/0; anything else is refused with the field's name. */
    public boolean getBoolean(String name, boolean defaultValue) {
        if (!has(name)) {
            return took(name, defaultValue);
        }
        Object v = values.get(name);
        if (v instanceof Boolean b) {
            return took(name, b);
        }
        if (v instanceof Number n && (n.doubleValue() == 0 || n.doubleValue() == 1)) {
            return took(name, n.doubleValue() == 1);
        }
        if (v instanceof String text && (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false"))) {
            return took(name, text.equalsIgnoreCase("true"));
        }
        throw wrongType(name, "true or false", v);
    }

    public double[] getDoubleArray(String name) {
        Object v = require(name);
        if (v instanceof List<?> list) {
            double[] out = new double[list.size()];
            for (int i = 0; i < out.length; i++) {
                if (!(list.get(i) instanceof Number n)) {
                    throw new InvalidInputException(where(name) + ": '" + name + "[" + (i + 1) + "]' must be a "
                            + "number but is " + shown(list.get(i)));
                }
                out[i] = n.doubleValue();
            }
            return out;
        }
        throw wrongType(name, "an array of numbers", v);
    }

    /** The array of numbers {@code name}, each above {@code bound}; the first that is not is refused by its index. */
    public double[] getDoubleArrayAbove(String name, double bound) {
        double[] out = getDoubleArray(name);
        for (int i = 0; i < out.length; i++) {
            if (!(out[i] > bound)) {
                throw new InvalidInputException(where(name) + ": '" + name + "[" + (i + 1) + "]' must be a number > "
                        + number(bound) + " but is " + shown(((List<?>) values.get(name)).get(i)));
            }
        }
        return out;
    }

    /**
     * A matrix given as a list of rows, each a list of numbers of the same length (Stan's {@code matrix[N, D]} in a
     * JSON data file, or {@code [[1, 0], [0, 1]]} in a config): {@code result[i][j]} is row i+1, column j+1.
     * Anything else (not a list, an empty one, a row that is not a list, a non-number, rows of different lengths) is
     * refused naming the field, and the row or element.
     */
    public double[][] getMatrix(String name) {
        Object v = require(name);
        if (!(v instanceof List<?> rows) || rows.isEmpty()) {
            throw wrongType(name, "a matrix as a non-empty list of rows, e.g. [[1, 0], [0, 1]],", v);
        }
        double[][] out = new double[rows.size()][];
        for (int i = 0; i < out.length; i++) {
            if (!(rows.get(i) instanceof List<?> row)) {
                throw new InvalidInputException(where(name) + ": row " + (i + 1) + " of '" + name
                        + "' must be a list of numbers but is " + rows.get(i));
            }
            if (i > 0 && row.size() != out[0].length) {
                throw new InvalidInputException(where(name) + ": row " + (i + 1) + " of '" + name + "' has "
                        + row.size() + " values but row 1 has " + out[0].length
                        + " (a matrix's rows must have the same length)");
            }
            out[i] = new double[row.size()];
            for (int j = 0; j < out[i].length; j++) {
                if (!(row.get(j) instanceof Number x)) {
                    throw new InvalidInputException(where(name) + ": '" + name + "[" + (i + 1) + "][" + (j + 1)
                            + "]' must be a number but is " + shown(row.get(j)));
                }
                out[i][j] = x.doubleValue();
            }
        }
        return out;
    }

    private Object require(String name) {
        note(name);
        Object v = values.get(name);
        if (v == null) {
            throw new InvalidInputException(source + ": model parameter '" + name + "' is missing (have "
                    + values.keySet() + ")");
        }
        return v;
    }

    private InvalidInputException wrongType(String name, String expected, Object actual) {
        return new InvalidInputException(where(name) + ": model parameter '" + name + "' must be " + expected
                + " but is " + shown(actual));
    }

    /** A number as a message shows it: 0, not 0.0 (--param height=0 arrives as a double). */
    private static String number(double x) {
        return x == Math.rint(x) && Math.abs(x) < 1e15 ? Long.toString((long) x) : Double.toString(x);
    }

    /** A value as a message shows it: quoted, and called text when it is a string ("the text '5'" is no number). */
    private static String shown(Object value) {
        if (value instanceof Double d) {
            return "'" + number(d) + "'";
        }
        return value instanceof String ? "the text '" + value + "'" : "'" + value + "'";
    }

    /**
     * Where {@code name}'s value was given, for a model's own message about it: the source, after the value's origin
     * ({@code file:line}, {@code --param name=value}) when that is known.
     */
    public String where(String name) {
        String origin = origins.get(name);
        return origin == null ? source : origin + ": " + source;
    }
}
