package org.sparkmc.core.smc;

import java.util.Locale;
import org.sparkmc.core.InvalidInputException;

/** What to do with a missing (NaN or NA) observation: never silent, the user chooses. */
public enum MissingObservations {
    /** Stop with an {@link InvalidInputException} naming the source and line (or time step). */
    FAIL,
    /** Treat the observation as missing: the particles move but are not weighted at that step. */
    SKIP;

    /** Parses "fail" or "skip", case-insensitively. */
    public static MissingObservations parse(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("unknown missing-observation policy '" + name
                    + "'; expected fail or skip", e);
        }
    }
}
