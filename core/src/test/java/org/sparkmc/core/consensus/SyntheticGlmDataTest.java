package org.sparkmc.core.consensus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.model.Matrices;
import org.sparkmc.core.random.RandomStreams;

/** The synthetic GLM data: a pure function of seed and row index, and drawn from the model it names. */
class SyntheticGlmDataTest {
    private static final double[] BETA = {0.5, -1, 2, 0.25};

    /** Deterministic: any cut of [0, 10,000) into pieces gives the same rows as one piece. */
    @Test
    void theSameRowsHoweverTheRangeIsCut() {
        SyntheticGlmData data = new SyntheticGlmData(new PoissonGlm(Glm.coefficientNames(4)), BETA, true,
                new RandomStreams(5));
        SyntheticGlmData.Rows whole = data.rows(0, 10_000);
        int[] cuts = {0, 1, 1234, 4096, 4097, 8191, 8192, 9999, 10_000};
        double[] features = new double[10_000 * 4];
        double[] responses = new double[10_000];
        for (int k = 0; k + 1 < cuts.length; k++) {
            SyntheticGlmData.Rows piece = data.rows(cuts[k], cuts[k + 1] - cuts[k]);
            System.arraycopy(piece.features(), 0, features, cuts[k] * 4, piece.features().length);
            System.arraycopy(piece.responses(), 0, responses, cuts[k], piece.responses().length);
        }
        assertArrayEquals(whole.features(), features);
        assertArrayEquals(whole.responses(), responses);
        SyntheticGlmData.Rows other = new SyntheticGlmData(new PoissonGlm(Glm.coefficientNames(4)), BETA, true,
                new RandomStreams(6)).rows(0, 10);
        assertFalse(Arrays.equals(Arrays.copyOf(whole.responses(), 10), other.responses()));
        for (int i = 0; i < 10_000; i++) {
            assertEquals(1, whole.features()[i * 4]);
            assertTrue(new PoissonGlm(Glm.coefficientNames(4)).inSupport(whole.responses()[i]));
        }
    }

    /**
     * True coefficients whose rows the model cannot draw are refused naming the row: a Poisson mean e^22 beyond the
     * sampler's range (a task crashed with "mean not within closed range"), and Gaussian responses beyond ±1.8e308
     * (written as ±Infinity and NaN, which consensus then refused).
     */
    @Test
    void rowsTheModelCannotDrawAreRefused() {
        SyntheticGlmData poisson = new SyntheticGlmData(new PoissonGlm(Glm.coefficientNames(2)), new double[] {22, 1},
                true, new RandomStreams(5));
        String p = org.junit.jupiter.api.Assertions.assertThrows(org.sparkmc.core.InvalidInputException.class,
                () -> poisson.rows(0, 100)).getMessage();
        assertTrue(p.startsWith("synthetic poisson data: row ") && p.contains("cannot be drawn as a finite poisson "
                + "value; give smaller true coefficients"), p);
        SyntheticGlmData gaussian = new SyntheticGlmData(GaussianGlm.withUnknownSd(Glm.coefficientNames(2), 1),
                new double[] {1e308, 1e308, 0}, true, new RandomStreams(5));
        String g = org.junit.jupiter.api.Assertions.assertThrows(org.sparkmc.core.InvalidInputException.class,
                () -> gaussian.rows(0, 100)).getMessage();
        assertTrue(g.startsWith("synthetic gaussian data: row "), g);
        // the ordinary sizes still draw
        assertEquals(100, new SyntheticGlmData(new PoissonGlm(Glm.coefficientNames(2)), new double[] {10, 1}, true,
                new RandomStreams(5)).rows(0, 100).responses().length);
    }

    /**
     * Least squares on 10^5 rows of the Gaussian linear model (σ = e^0 = 1) recovers β: each estimate has sd about
     * σ/√n = 0.0032, and the tolerance is 0.02 (over 6 sds: false-failure rate below 1e-8 for the four).
     */
    @Test
    void leastSquaresRecoversTheGaussianCoefficients() {
        int n = 100_000;
        double[] truth = Arrays.copyOf(BETA, 5);
        SyntheticGlmData data = new SyntheticGlmData(GaussianGlm.withUnknownSd(Glm.coefficientNames(4), 1), truth,
                true, new RandomStreams(8));
        SyntheticGlmData.Rows rows = data.rows(0, n);
        double[] xtx = new double[16];
        double[] xty = new double[4];
        for (int i = 0; i < n; i++) {
            for (int a = 0; a < 4; a++) {
                xty[a] += rows.features()[i * 4 + a] * rows.responses()[i];
                for (int b = 0; b < 4; b++) {
                    xtx[a * 4 + b] += rows.features()[i * 4 + a] * rows.features()[i * 4 + b];
                }
            }
        }
        double[] estimate = Matrices.solve(Matrices.cholesky(xtx, 4), 4, xty);
        assertArrayEquals(BETA, estimate, 0.02);
    }

    /**
     * Logistic responses' mean at η = β₀ alone (other coefficients 0) is σ(β₀): over 10^5 rows the sd of the mean is
     * at most 0.0016, the tolerance 0.01 (over 6 sds: false-failure rate below 1e-8).
     */
    @Test
    void logisticResponsesHaveTheModelsProbability() {
        double[] truth = {-1, 0, 0};
        SyntheticGlmData.Rows rows = new SyntheticGlmData(new LogisticGlm(Glm.coefficientNames(3)), truth, true,
                new RandomStreams(9)).rows(0, 100_000);
        double mean = Arrays.stream(rows.responses()).average().orElseThrow();
        assertEquals(1 / (1 + Math.exp(1)), mean, 0.01);
    }
}
