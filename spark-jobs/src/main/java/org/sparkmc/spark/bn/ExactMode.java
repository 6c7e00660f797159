package org.sparkmc.spark.bn;

import org.sparkmc.core.InvalidInputException;

/**
 * When the {@code bn} job also computes the exact answer by variable elimination on the driver: {@code auto} when
 * it is cheap (every intermediate factor at most {@value #CHEAP_FACTOR_ENTRIES} entries), {@code always} (refused
 * for networks too large for exact inference), or {@code never}.
 */
public enum ExactMode {
    AUTO, ALWAYS, NEVER;

    /** The largest intermediate factor (entries) that {@code auto} calls cheap: 1M doubles, 8 MB, milliseconds. */
    public static final long CHEAP_FACTOR_ENTRIES = 1L << 20;

    public static ExactMode parse(String value) {
        String v = value == null ? "" : value.trim().toLowerCase(java.util.Locale.ROOT);
        return switch (v) {
            case "auto" -> AUTO;
            case "always", "true", "yes" -> ALWAYS;
            case "never", "false", "no" -> NEVER;
            default -> throw new InvalidInputException("--exact must be auto, always or never, is '" + value + "'");
        };
    }
}
