package org.sparkmc.core.random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Draws by inversion of one uniform, against the intervals each index owns. */
class CategoricalTest {
    /** Weights 0, 2, 0, 1, 0: index 1 owns [0, 2), index 3 owns [2, 3); zero weights own nothing. */
    @Test
    void eachIndexOwnsItsIntervalAndZeroWeightsNone() {
        double[] weights = {0, 2, 0, 1, 0};
        double[] cumulative = {0, 2, 2, 3, 3};
        for (double target : new double[] {0, 1.999, 2, 2.5, 2.999}) {
            int expected = target < 2 ? 1 : 3;
            assertEquals(expected, Categorical.firstAbove(cumulative, 5, target), "target " + target);
            assertEquals(expected, Categorical.draw(weights, 5, target / 3), "u " + target / 3);
        }
        assertEquals(4, Categorical.firstAbove(cumulative, 5, 3.0), "a target rounding carried past the sum");
        assertEquals(3, Categorical.draw(weights, 5, 1.0), "u = 1: the last index of positive weight");
        assertEquals(1, Categorical.firstAbove(cumulative, 2, 5.0), "only the first k sums are searched");
    }

    /**
     * Weights with no positive finite sum name no distribution: all zero (the last index, of weight 0, came back), a
     * NaN weight, or a negative sum; and log weights all −∞, NaN or +∞. Each is refused with the reason.
     */
    @Test
    void weightsWithoutAPositiveFiniteSumAreRefused() {
        double inf = Double.POSITIVE_INFINITY;
        assertRefused("sum to 0.0", () -> Categorical.draw(new double[] {0, 0, 0}, 3, 0.5));
        assertRefused("sum to NaN", () -> Categorical.draw(new double[] {1, Double.NaN, 1}, 3, 0.1));
        assertRefused("sum to -1.0", () -> Categorical.draw(new double[] {1, -3, 1}, 3, 0.1));
        assertRefused("sum to Infinity", () -> Categorical.draw(new double[] {1, inf}, 2, 0.1));
        assertRefused("every log weight is -Infinity", () -> Categorical.drawLog(new double[] {-inf, -inf}, 0.3));
        assertRefused("NaN", () -> Categorical.drawLog(new double[] {0, Double.NaN}, 0.3));
        assertRefused("+Infinity", () -> Categorical.drawLog(new double[] {inf, 0}, 0.3));
        assertEquals(1, Categorical.drawLog(new double[] {-inf, 0, -inf}, 0.99), "one finite log weight is enough");
    }

    private static void assertRefused(String part, org.junit.jupiter.api.function.Executable call) {
        String message = assertThrows(IllegalArgumentException.class, call).getMessage();
        assertTrue(message.contains(part), message);
    }
}
