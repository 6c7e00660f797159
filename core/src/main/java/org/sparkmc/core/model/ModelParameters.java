package org.sparkmc.core.model;

import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sparkmc.core.InvalidInputException;

/**
 * The named values a model is built from: numbers, strings and numeric arrays, read from the job's
 * configuration and the model's data file. Getters fail with a message naming the missing or mistyped field.
 */
public final class ModelParameters implements Serializable {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final Map<String, Object> values;

    /**
     * @param source where the values came from, for error messages (e.g. a config file or data path)
     * @param values Number, String, Boolean or List of Number values by name
     */
    public ModelParameters(String source, Map<String, ?> values) {
        this.source = source;
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    public static ModelParameters empty() {
        return new ModelParameters("no parameters", Map.of());
    }

    public String source() {
        return source;
    }

    public boolean has(String name) {
        return values.containsKey(name);
    }

    public Map<String, Object> asMap() {
        return values;
    }

    public double getDouble(String name) {
        Object v = require(name);
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        throw wrongType(name, "a number", v);
    }

    public double getDouble(String name, double defaultValue) {
        return has(name) ? getDouble(name) : defaultValue;
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
            return v.toString();
        }
        throw wrongType(name, "a string", v);
    }

    /** A yes/no field: true/false (any case), or 1/0; anything else is refused with the field's name. */
    public boolean getBoolean(String name, boolean defaultValue) {
        if (!has(name)) {
            return defaultValue;
        }
        Object v = values.get(name);
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof Number n && (n.doubleValue() == 0 || n.doubleValue() == 1)) {
            return n.doubleValue() == 1;
        }
        if (v instanceof String text && (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false"))) {
            return text.equalsIgnoreCase("true");
        }
        throw wrongType(name, "true or false", v);
    }

    public double[] getDoubleArray(String name) {
        Object v = require(name);
        if (v instanceof List<?> list) {
            double[] out = new double[list.size()];
            for (int i = 0; i < out.length; i++) {
                if (!(list.get(i) instanceof Number n)) {
                    throw new InvalidInputException(source + ": '" + name + "[" + (i + 1) + "]' must be a number but is "
                            + list.get(i));
                }
                out[i] = n.doubleValue();
            }
            return out;
        }
        throw wrongType(name, "an array of numbers", v);
    }

    private Object require(String name) {
        Object v = values.get(name);
        if (v == null) {
            throw new InvalidInputException(source + ": model parameter '" + name + "' is missing (have "
                    + values.keySet() + ")");
        }
        return v;
    }

    private InvalidInputException wrongType(String name, String expected, Object actual) {
        return new InvalidInputException(source + ": model parameter '" + name + "' must be " + expected
                + " but is '" + actual + "'");
    }
}
