package org.sparkmc.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.consensus.Glm;
import org.sparkmc.core.consensus.LogisticGlm;
import org.sparkmc.core.consensus.ShardTarget;
import org.sparkmc.core.consensus.SyntheticGlmData;
import org.sparkmc.core.random.RandomStreams;

/**
 * {@link NumericalLaplace} against exact answers. The approximation checks involve no sampling (a fixed seed makes
 * the logistic data), so they cannot fail by chance; their tolerances are those of the finite differences. The one
 * statistical check, of 20,000 starting points against their exact N(mode, 4·Q⁻¹) law, allows 5 sds per figure
 * (false-failure rate about 2.4·10⁻⁶ for a random seed; the seed is fixed).
 * <ul>
 *   <li>A correlated Gaussian log density, −½(x − μ)ᵀQ(x − μ): its mode is μ and its negative Hessian Q exactly,
 *       from near and far starts. Central differences of a quadratic are exact but for rounding, so Q and Q⁻¹ must
 *       agree to 1e-6 (relative to the scale of Q); the mode to 1e-4, the Newton iteration's stopping tolerance
 *       (from the far start, rounding in differences of log densities near −5·10⁴ leaves it 3·10⁻⁶ off).</li>
 *   <li>Logistic regression on 600 rows (an intercept and three N(0, 1) features) as a {@link ShardTarget} with
 *       S = 1 and N(0, 2²) coefficient priors, against {@link LogisticRegression}'s own Laplace approximation from
 *       IRLS with the same N(0, 2²) prior on every coefficient (intercept included) and the analytic Hessian
 *       V₀⁻¹ + XᵀDX: modes within 1e-3 posterior sds, precisions within 1e-4 relative to √(H_ii·H_jj) (measured:
 *       1.1e-5 sd and 1.1e-6). The two log densities also differ by a constant only (the normalising terms).</li>
 *   <li>A flat and an unbounded log density have no mode: refused with {@link InvalidInputException}, as is a start
 *       where the density is zero.</li>
 * </ul>
 */
class NumericalLaplaceTest {
    private static final double[] MU = {1.5, -2, 0.25};
    /** A correlated precision, row-major. */
    private static final double[] Q = {4, 1.2, -0.6, 1.2, 2, 0.3, -0.6, 0.3, 9};

    /** −½(x − μ)ᵀQ(x − μ) + 7 (the constant must not matter). */
    private static final Target GAUSSIAN = new Target() {
        private static final long serialVersionUID = 1L;

        @Override
        public int dimension() {
            return 3;
        }

        @Override
        public double logDensity(double[] x) {
            double q = 0;
            for (int i = 0; i < 3; i++) {
                for (int j = 0; j < 3; j++) {
                    q += (x[i] - MU[i]) * Q[i * 3 + j] * (x[j] - MU[j]);
                }
            }
            return 7 - 0.5 * q;
        }
    };

    @Test
    void aGaussianTargetsModeAndCovarianceAreExact() {
        double[] exactCov = Matrices.inverse(Matrices.cholesky(Q, 3), 3);
        for (double[] start : new double[][] {{0, 0, 0}, {40, -25, 100}, MU.clone()}) {
            LaplaceApproximation laplace = NumericalLaplace.of(GAUSSIAN, start).laplace();
            for (int i = 0; i < 3; i++) {
                assertEquals(MU[i], laplace.mode()[i], 1e-4, "mode " + i + " from " + java.util.Arrays.toString(start));
                for (int j = 0; j < 3; j++) {
                    assertEquals(Q[i * 3 + j], laplace.precision()[i * 3 + j], 1e-6 * 9, "precision " + i + "," + j);
                    assertEquals(exactCov[i * 3 + j], laplace.covariance()[i * 3 + j], 1e-6, "covariance " + i + ","
                            + j);
                }
            }
        }
    }

    @Test
    void theViewSamplesTheTargetAndStartsAroundTheMode() {
        NumericalLaplace view = NumericalLaplace.of(GAUSSIAN, new double[3]);
        double[] x = {0.3, 0.1, -4};
        assertEquals(GAUSSIAN.logDensity(x), view.logDensity(x), 0.0);
        assertEquals(3, view.dimension());
        // starting points are mode + 2·L·z: over many, their mean is the mode and their covariance 4·Q⁻¹
        org.sparkmc.core.random.Rng rng = new RandomStreams(3).rng("starts");
        int n = 20_000;
        double[] sum = new double[3];
        double sumSq0 = 0;
        for (int k = 0; k < n; k++) {
            double[] s = view.initialPosition(rng);
            for (int j = 0; j < 3; j++) {
                sum[j] += s[j];
            }
            sumSq0 += (s[0] - MU[0]) * (s[0] - MU[0]);
        }
        double var0 = 4 * Matrices.inverse(Matrices.cholesky(Q, 3), 3)[0];
        // the mean of n normal starts has sd √(var/n); 5 sds (false-failure rate 6e-7 per coordinate)
        for (int j = 0; j < 3; j++) {
            double var = 4 * Matrices.inverse(Matrices.cholesky(Q, 3), 3)[j * 3 + j];
            assertEquals(MU[j], sum[j] / n, 5 * Math.sqrt(var / n), "mean start " + j);
        }
        // the sample variance of n normal values has relative sd √(2/n); 5 sds
        assertEquals(1, sumSq0 / n / var0, 5 * Math.sqrt(2.0 / n), "start variance, coordinate 0");
    }

    @Test
    void aLogisticShardTargetMatchesIrlsWithTheSamePrior() {
        int rows = 600;
        int p = 4;
        double priorSd = 2;
        List<String> names = Glm.coefficientNames(p);
        SyntheticGlmData.Rows data = new SyntheticGlmData(new LogisticGlm(names), new double[] {-0.7, 1.2, -0.5, 0.3},
                true, new RandomStreams(29)).rows(0, rows);
        ShardTarget target = new ShardTarget(new LogisticGlm(names), data.features(), data.responses(), priorSd, 1, 0);
        LaplaceApproximation numerical = NumericalLaplace.of(target, new double[p]).laplace();
        LogisticRegression irls = new LogisticRegression(data.features(), data.responses(), names, priorSd, false);
        LaplaceApproximation exact = irls.laplace();
        double[] sd = exact.marginalSd();
        double worstMode = 0;
        double worstPrecision = 0;
        for (int i = 0; i < p; i++) {
            double z = (numerical.mode()[i] - exact.mode()[i]) / sd[i];
            worstMode = Math.max(worstMode, Math.abs(z));
            assertTrue(Math.abs(z) < 1e-3, "mode " + i + ": " + numerical.mode()[i] + " vs IRLS " + exact.mode()[i]
                    + " (" + z + " sd)");
            for (int j = 0; j < p; j++) {
                double scale = Math.sqrt(exact.precision()[i * p + i] * exact.precision()[j * p + j]);
                double e = (numerical.precision()[i * p + j] - exact.precision()[i * p + j]) / scale;
                worstPrecision = Math.max(worstPrecision, Math.abs(e));
                assertTrue(Math.abs(e) < 1e-4, "precision " + i + "," + j + ": " + numerical.precision()[i * p + j]
                        + " vs IRLS " + exact.precision()[i * p + j]);
            }
        }
        System.out.printf("logistic: largest mode error %.2g sd, largest precision error %.2g%n", worstMode,
                worstPrecision);
        // the same log density up to its normalising constant: the priors are the same
        double offset = target.logDensity(exact.mode()) - irls.logDensity(exact.mode());
        for (double[] w : new double[][] {{0, 0, 0, 0}, {1, -1, 2, 0.5}, {-3, 0.2, 0.1, -2}}) {
            assertEquals(offset, target.logDensity(w) - irls.logDensity(w), 1e-9 * rows);
        }
    }

    @Test
    void aTargetWithNoModeIsRefused() {
        Target flat = flat(0);
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> NumericalLaplace.of(flat, new double[2]));
        assertTrue(e.getMessage().contains("no mode found"), e.getMessage());
        // log density x₁ − x₂: increases without bound
        Target unbounded = new Target() {
            private static final long serialVersionUID = 1L;

            @Override
            public int dimension() {
                return 2;
            }

            @Override
            public double logDensity(double[] x) {
                return x[0] - x[1];
            }
        };
        assertThrows(InvalidInputException.class, () -> NumericalLaplace.of(unbounded, new double[2]));
        InvalidInputException zero = assertThrows(InvalidInputException.class,
                () -> NumericalLaplace.of(flat(Double.NEGATIVE_INFINITY), new double[2]));
        assertTrue(zero.getMessage().contains("at the Laplace approximation's start"), zero.getMessage());
    }

    /** A constant log density in two dimensions. */
    private static Target flat(double value) {
        return new Target() {
            private static final long serialVersionUID = 1L;

            @Override
            public int dimension() {
                return 2;
            }

            @Override
            public double logDensity(double[] x) {
                return value;
            }
        };
    }
}
