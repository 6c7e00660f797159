package org.sparkmc.spark.io;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The fingerprint of a run's settings, derived from its settings records so that none is kept by hand: a checkpoint
 * resumes only under an equal one ({@link CheckpointStates#loadNewest}).
 *
 * <p>It is {@link #FORM} followed by every component of the records, in declaration order, as {@code name=value}
 * separated by spaces (the form {@link CheckpointStates} compares key by key). A name is the component's in the
 * options' spelling ({@code roundSize} → {@code round-size}); a record component is spelt out in place, its own
 * components flattened the same way; a component marked {@link NotInFingerprint} is left out. Values: numbers,
 * booleans and text as written ({@code none} for null), enum constants in the options' spelling ({@code SUB_STEP} →
 * {@code sub-step}). A component of any other type (a model, a kernel, a map of data) is refused: its record must
 * leave it out and hold what it was built from instead (names, settings, {@link #sha256(Map)} of data).
 */
public final class Fingerprint {
    /** The first pair of every fingerprint: its form, raised when the form changes. */
    public static final String FORM = "settings-form=2";

    private Fingerprint() {
    }

    /**
     * The fingerprint of {@code parts}.
     *
     * @throws IllegalArgumentException if a component has a type it cannot spell, or two components the same name
     */
    public static String of(Record... parts) {
        Map<String, String> pairs = new LinkedHashMap<>();
        for (Record part : parts) {
            add(pairs, part);
        }
        StringBuilder out = new StringBuilder(FORM);
        pairs.forEach((name, value) -> out.append(' ').append(name).append('=').append(value));
        return out.toString();
    }

    /** Whether {@code fingerprint} has this form (a checkpoint of an earlier sparkmc has not). */
    public static boolean isCurrent(String fingerprint) {
        return fingerprint.startsWith(FORM + " ") || fingerprint.equals(FORM);
    }

    /** SHA-256 of a map's entries sorted by key: a fixed-size stand-in for a model's parameters and data. */
    public static String sha256(Map<String, ?> values) {
        return CheckpointStates.sha256(new TreeMap<>(values).toString());
    }

    /** A component's name in the options' spelling: {@code leftToRightMoves} → {@code left-to-right-moves}. */
    public static String optionName(String componentName) {
        return componentName.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    private static void add(Map<String, String> pairs, Record record) {
        for (RecordComponent c : record.getClass().getRecordComponents()) {
            if (c.isAnnotationPresent(NotInFingerprint.class)) {
                continue;
            }
            Object value = value(record, c);
            if (value instanceof Record nested) {
                add(pairs, nested);
                continue;
            }
            String name = optionName(c.getName());
            String text = text(record, c, value);
            if (pairs.putIfAbsent(name, text) != null) {
                throw new IllegalArgumentException("two settings named '" + name + "' (the second in "
                        + record.getClass().getName() + "): rename one");
            }
        }
    }

    private static String text(Record record, RecordComponent c, Object value) {
        if (value == null) {
            return "none";
        }
        if (value instanceof Enum<?> e) {
            return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
        if (value instanceof Number || value instanceof Boolean || value instanceof CharSequence
                || value instanceof Character) {
            return value.toString();
        }
        throw new IllegalArgumentException("component '" + c.getName() + "' of " + record.getClass().getName()
                + " is a " + value.getClass().getName() + ", which has no fingerprint: mark it @NotInFingerprint and "
                + "give the record the settings it was built from");
    }

    private static Object value(Record record, RecordComponent c) {
        try {
            c.getAccessor().setAccessible(true);
            return c.getAccessor().invoke(record);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("cannot read " + c.getName() + " of " + record.getClass().getName(), e);
        }
    }
}
