package org.sparkmc.core.mcmc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sparkmc.core.catalog.KernelCatalog;
import org.sparkmc.core.model.LaplaceApproximation;
import org.sparkmc.core.model.LogisticRegression;
import org.sparkmc.core.testing.ImportanceReference;

/**
 * Bayesian logistic regression on the Pima data (532 women, 7 standardised predictors + intercept, N(0, 10²)
 * priors). Reference: self-normalised importance sampling from a multivariate t (ν = 5) centred at the IRLS mode
 * with scale H⁻¹, 50,000 draws — its MCSE per coefficient from the weighted draws. Checks (fixed seeds) use 4
 * combined MCSE (≈ 6e-5 false alarms per quantity for fresh seeds).
 */
class LogisticRegressionTest {
    private static final int D = 8;

    private static final LogisticRegression MODEL = ModelData.pima(true);
    private static final double[][] REFERENCE = ImportanceReference.of(MODEL, 50_000, 91);

    @Test
    void irlsFindsTheModeAndTheLaplaceApproximationIsClose() {
        LogisticRegression model = MODEL;
        LaplaceApproximation laplace = model.laplace();
        // Gradient at the mode by central differences: zero.
        double[] mode = laplace.mode();
        for (int j = 0; j < D; j++) {
            double[] up = mode.clone();
            double[] down = mode.clone();
            up[j] += 1e-5;
            down[j] -= 1e-5;
            assertEquals(0, (model.logDensity(up) - model.logDensity(down)) / 2e-5, 1e-4);
        }
        assertArrayEquals(mode, model.initialPosition(null), 0.0, "chains start at the mode");
        double[][] ref = REFERENCE;
        double[] sd = laplace.marginalSd();
        for (int j = 0; j < D; j++) {
            // Nearly Gaussian with 532 points: the mode within 0.3 sd of the mean (the skew of the logistic
            // likelihood shifts the mean by up to ≈ 0.2 sd), the Laplace sds within 5% of the posterior sds.
            assertEquals(ref[j][0], mode[j], 0.3 * ref[j][1], "coefficient " + j + " mean vs mode");
            assertEquals(ref[j][1], sd[j], 0.05 * ref[j][1], "coefficient " + j + " sd vs Laplace");
        }
    }

    @Test
    void theLecturesProposalAndTheOtherKernelsMatchTheReference() {
        LogisticRegression model = MODEL;
        double[][] ref = REFERENCE;
        KernelSettings fixed = new KernelSettings(1, false, Double.NaN);
        KernelSettings adaptive = new KernelSettings(0.1, true, Double.NaN);
        Object[][] runs = {{"laplace-rwm", fixed, 1000, 10_000}, {"independence", fixed, 1000, 5_000},
            {"am", adaptive, 3000, 10_000}, {"slice", adaptive, 300, 600}};
        for (Object[] run : runs) {
            Kernel<?> kernel = KernelCatalog.create((String) run[0], (KernelSettings) run[1], model);
            RunChains.Result r = RunChains.run(model, kernel, 4, (Integer) run[2], (Integer) run[3], 93);
            for (int j = 0; j < D; j++) {
                assertTrue(r.rhat(j) < 1.01, run[0] + ": R-hat " + r.rhat(j));
                double combined = Math.hypot(r.mcse(j), ref[j][2]);
                assertTrue(Math.abs(r.mean(j) - ref[j][0]) < 4 * combined, run[0] + " coefficient " + j + ": "
                        + r.mean(j) + " vs reference " + ref[j][0] + " (4 combined MCSE " + 4 * combined + ")");
            }
            if (run[0].equals("laplace-rwm")) {
                // The lectures' scaling gives roughly the optimal 0.234 acceptance on a near-Gaussian posterior.
                assertEquals(0.25, r.acceptance(), 0.08);
            }
        }
    }
}
