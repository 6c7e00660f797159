package org.sparkmc.core;

/**
 * A user's input or configuration is wrong (a missing data field, an unknown model name, a non-positive count).
 * The command line reports its message and exits with code 2; anything else that escapes is a bug.
 */
public class InvalidInputException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidInputException(String message) {
        super(message);
    }

    public InvalidInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
