package org.sparkmc.core.fuzz;

import java.time.Duration;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import org.junit.jupiter.api.Assertions;
import org.sparkmc.core.InvalidInputException;

/**
 * Inputs for the parsers' property tests: random text over an alphabet of the characters these formats use, and
 * valid files damaged by random edits (deleted, duplicated or swapped spans, inserted junk, huge numbers).
 */
public final class Mutations {
    private static final String ALPHABET = "0123456789 ,.-+eE#\n\t\"{}[]:=;|()abcxyzTRUEFALSNaInf_";
    private static final String[] JUNK = {"-1", "0", "999999999999", "2147483647", "NaN", "Infinity", "-Inf", "1e308",
        ",", "\n", "\"", "{", "}", "#", " ", "\t", "x", "", "1.5", "=", ";", "probability", "variable"};

    private Mutations() {
    }

    public static Arbitrary<String> randomText() {
        return Arbitraries.strings().withChars(ALPHABET.toCharArray()).ofMaxLength(400);
    }

    /** A valid document with one to four random edits. */
    public static Arbitrary<String> mutated(String valid) {
        Arbitrary<String> once = Combinators.combine(Arbitraries.integers().between(0, 4),
                Arbitraries.integers().between(0, Math.max(0, valid.length())),
                Arbitraries.integers().between(0, 40), Arbitraries.of(JUNK))
                .as((kind, at, length, junk) -> edit(valid, kind, at, length, junk));
        return once.flatMap(first -> Combinators.combine(Arbitraries.integers().between(0, 4),
                Arbitraries.integers().between(0, Math.max(0, first.length())), Arbitraries.integers().between(0, 40),
                Arbitraries.of(JUNK)).as((kind, at, length, junk) -> edit(first, kind, at, length, junk)));
    }

    static String edit(String s, int kind, int at, int length, String junk) {
        int a = Math.min(at, s.length());
        int b = Math.min(s.length(), a + length);
        return switch (kind) {
            case 0 -> s.substring(0, a) + s.substring(b);                    // delete a span
            case 1 -> s.substring(0, a) + junk + s.substring(a);              // insert junk
            case 2 -> s.substring(0, b) + s.substring(a, b) + s.substring(b); // duplicate a span
            case 3 -> s.substring(0, a) + junk + s.substring(b);              // replace a span
            default -> s.substring(0, a);                                     // truncate
        };
    }

    /** A parser's whole contract on any input: a result, or one InvalidInputException; within five seconds. */
    public static void resultOrClearError(String what, ThrowingRunnable parse) {
        Assertions.assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            try {
                parse.run();
            } catch (InvalidInputException expected) {
                Assertions.assertFalse(expected.getMessage() == null || expected.getMessage().isBlank(),
                        what + ": an error without a message");
            } catch (Throwable other) {
                throw new AssertionError(what + " threw " + other + " instead of a clear error", other);
            }
        });
    }

    /** A parse that may throw anything (checked exceptions included). */
    public interface ThrowingRunnable {
        void run() throws Exception;
    }
}
