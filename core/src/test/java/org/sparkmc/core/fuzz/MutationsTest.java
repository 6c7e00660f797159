package org.sparkmc.core.fuzz;

import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.sparkmc.core.InvalidInputException;

/** The fuzz harness fails on anything but a clear error: it is not a test that cannot fail. */
class MutationsTest {

    @Test
    void anUncheckedParseErrorFailsTheProperty() {
        assertThrows(AssertionError.class, () -> Mutations.resultOrClearError("int", () -> Integer.parseInt("x1")));
        assertThrows(AssertionError.class, () -> Mutations.resultOrClearError("blank", () -> {
            throw new InvalidInputException(" ");
        }));
        Mutations.resultOrClearError("clear", () -> {
            throw new InvalidInputException("file:3: expected a number");
        });
    }
}
