package org.sparkmc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.catalog.ModelCatalog;
import org.sparkmc.core.model.ModelParameters;
import org.sparkmc.core.model.Target;

/**
 * A class named by the user is checked before any of its code runs: {@code class:} models were loaded with their
 * static initialisers run before the {@code Target} check.
 */
public class UserClassesTest {
    static final AtomicBoolean NOT_A_TARGET_INITIALISED = new AtomicBoolean();

    /** Not a target; its static initialiser records that it ran. */
    public static final class NotATarget {
        static {
            NOT_A_TARGET_INITIALISED.set(true);
        }
    }

    /** A target whose static initialiser fails. */
    public static final class BrokenTarget implements Target {
        private static final long serialVersionUID = 1L;
        static final int SETUP = fail();

        private static int fail() {
            throw new IllegalStateException("static set-up failed");
        }

        @Override
        public int dimension() {
            return 1;
        }

        @Override
        public double logDensity(double[] position) {
            return 0;
        }
    }

    @Test
    void aClassOfTheWrongTypeIsRefusedWithoutRunningIt() {
        String name = NotATarget.class.getName();
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> ModelCatalog.create(ModelCatalog.CLASS_PREFIX + name, ModelParameters.empty()));
        assertEquals("model class '" + name + "' does not implement org.sparkmc.core.model.Target", e.getMessage());
        assertFalse(NOT_A_TARGET_INITIALISED.get(), "the static initialiser of a class that is no target ran");
    }

    @Test
    void aFailingStaticInitialiserIsBadInputNamingTheClass() {
        String name = BrokenTarget.class.getName();
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> ModelCatalog.create(ModelCatalog.CLASS_PREFIX + name, ModelParameters.empty()));
        assertEquals("model class '" + name + "' failed to initialise: java.lang.IllegalStateException: static set-up "
                + "failed", e.getMessage());
    }

    @Test
    void aMissingClassIsNamedWithTheHint() {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> UserClasses.load("proposal", "com.example.Nope", Target.class, " (ship it)"));
        assertTrue(e.getMessage().equals("proposal class 'com.example.Nope' is not on the classpath (ship it)"),
                e.getMessage());
    }
}
