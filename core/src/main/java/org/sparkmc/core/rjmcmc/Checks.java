package org.sparkmc.core.rjmcmc;

import org.sparkmc.core.InvalidInputException;

/** Parameter checks shared by the reversible-jump models: each names the model, the parameter and its value. */
final class Checks {
    private Checks() {
    }

    /** Refuses a parameter that is not a positive finite number. */
    static void positive(String model, String name, double v) {
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new InvalidInputException(model + ": " + name + " must be a positive number, is " + v);
        }
    }

    /** Refuses a parameter that is not finite. */
    static void finite(String model, String name, double v) {
        if (!Double.isFinite(v)) {
            throw new InvalidInputException(model + ": " + name + " must be finite, is " + v);
        }
    }
}
