package org.sparkmc.core.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.InvalidInputException;

/** The GLMs' supports and their messages; deterministic. */
class GlmTest {
    private static final List<String> TWO = Glm.coefficientNames(2);

    private static void assertRefused(RowLikelihood glm, double y, String expected) {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> glm.checkResponse(17, y));
        assertEquals("row 17: " + glm.name() + " response is " + y + ", expected " + expected, e.getMessage());
    }

    @Test
    void logisticResponsesMustBeZeroOrOne() {
        LogisticGlm glm = new LogisticGlm(TWO);
        for (double y : new double[] {2, 0.5, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertRefused(glm, y, "0 or 1");
        }
        glm.checkResponse(1, 0);
        glm.checkResponse(2, 1);
    }

    @Test
    void poissonResponsesMustBeNonNegativeIntegers() {
        PoissonGlm glm = new PoissonGlm(TWO);
        for (double y : new double[] {-1, 2.5, Double.NaN, Double.POSITIVE_INFINITY, -0.0001}) {
            assertRefused(glm, y, "a non-negative integer");
        }
        glm.checkResponse(1, 0);
        glm.checkResponse(2, 12345);
    }

    @Test
    void gaussianResponsesMustBeFinite() {
        GaussianGlm glm = GaussianGlm.withUnknownSd(TWO, 1);
        for (double y : new double[] {Double.NaN, Double.NEGATIVE_INFINITY}) {
            assertRefused(glm, y, "a finite number");
        }
        glm.checkResponse(1, -3.5);
    }

    @Test
    void aShardTargetNamesTheShardRowAndValueOfABadResponseOrFeature() {
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> new ShardTarget(
                new PoissonGlm(TWO), new double[] {1, 0, 1, 0, 1, 0}, new double[] {3, 4, 1.5}, 1, 4, 2));
        assertEquals("shard 2, row 2: poisson response is 1.5, expected a non-negative integer", e.getMessage());
        e = assertThrows(InvalidInputException.class, () -> new ShardTarget(
                new LogisticGlm(TWO), new double[] {1, 0, 1, Double.NaN}, new double[] {0, 1}, 1, 4, 0));
        assertEquals("shard 0, row 1: feature 2 is NaN, expected a finite number", e.getMessage());
        e = assertThrows(InvalidInputException.class, () -> new ShardTarget(
                new LogisticGlm(TWO), new double[] {1, 0, 1}, new double[] {0, 1}, 1, 4, 0));
        assertTrue(e.getMessage().contains("3 feature values for 2 rows of 2 features"), e.getMessage());
    }

    @Test
    void familiesByName() {
        assertEquals("logistic", Glm.of("logistic", TWO, 1).name());
        assertEquals("poisson", Glm.of("poisson", TWO, 1).name());
        Glm gaussian = Glm.of("gaussian", TWO, 1);
        assertEquals(3, gaussian.dimension());
        assertEquals(List.of("beta[1]", "beta[2]", "sigma"), gaussian.parameterNames());
        assertEquals(Math.exp(0.5), gaussian.parameters(new double[] {1, 2, 0.5})[2], 1e-15);
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> Glm.of("probit", TWO, 1));
        assertEquals("unknown GLM family 'probit', expected logistic, poisson or gaussian", e.getMessage());
    }
}
