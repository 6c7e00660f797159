package org.sparkmc.core.model;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Invalid arguments to the model structures are refused with a message that names the argument at fault, not with
 * what an array allocation or a Cholesky factorisation made of it.
 */
class InputMessagesTest {
    private static void assertMessage(String part, Executable call) {
        String message = assertThrows(IllegalArgumentException.class, call).getMessage();
        assertTrue(message.contains(part), message);
    }

    /** A negative vertex count said "Illegal Capacity: -1". */
    @Test
    void aGraphNeedsANonNegativeVertexCount() {
        assertMessage("vertices", () -> Graph.of(-1, new int[0][]));
    }

    /** Sides whose product overflows an int gave NegativeArraySizeException (or a wrong graph). */
    @Test
    void aGridTooLargeForAnArrayIsRefused() {
        assertMessage("50000×50000", () -> Graph.grid(50_000, 50_000));
        assertMessage("65536×65536", () -> Graph.grid(65_536, 65_536));
    }

    /** A NaN prior mean failed later as "matrix is not positive definite (pivot 0)". */
    @Test
    void aNormalInverseWishartNeedsAFinitePriorMean() {
        assertMessage("m₀[0]", () -> new NormalInverseWishart(new double[] {Double.NaN}, 1, 3, new double[] {1}));
        assertMessage("m₀[1]", () -> new NormalInverseWishart(new double[] {0, Double.NEGATIVE_INFINITY}, 1, 3,
                new double[] {1, 0, 0, 1}));
    }
}
