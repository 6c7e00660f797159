package org.sparkmc.core.random;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
