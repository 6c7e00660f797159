package org.sparkmc.core.smc.models;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sparkmc.core.InvalidInputException;

/** The linear-Gaussian model's refusals name the matrix or vector at fault. */
class LinearGaussianModelTest {
    private static final double[][] I2 = {{1, 0}, {0, 1}};

    @Test
    void anM0OfTheWrongLengthIsBlamedNotF() {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> new LinearGaussianModel(I2, I2, new double[][] {{1, 0}}, new double[][] {{1}},
                        new double[] {1120}, I2));
        assertEquals("m0 has 1 entry, expected 2 (F is 2×2)", e.getMessage());
    }

    @Test
    void aMatrixThatIsNotPositiveDefiniteIsNamed() {
        for (String name : new String[] {"Q", "R", "P0"}) {
            double[][] q = name.equals("Q") ? new double[][] {{1, 2}, {2, 1}} : I2;
            double[][] r = name.equals("R") ? new double[][] {{-1}} : new double[][] {{1}};
            double[][] p0 = name.equals("P0") ? new double[][] {{0, 0}, {0, 1}} : I2;
            InvalidInputException e = assertThrows(InvalidInputException.class,
                    () -> new LinearGaussianModel(I2, q, new double[][] {{1, 0}}, r, new double[] {0, 0}, p0));
            assertTrue(e.getMessage().startsWith("linear-Gaussian model: " + name + " must be positive definite"),
                    e.getMessage());
        }
    }
}
