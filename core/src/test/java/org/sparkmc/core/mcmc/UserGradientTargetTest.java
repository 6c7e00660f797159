package org.sparkmc.core.mcmc;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sparkmc.core.catalog.KernelCatalog;
import org.sparkmc.core.catalog.ModelCatalog;
import org.sparkmc.core.model.GradientTarget;
import org.sparkmc.core.model.ModelParameters;
import org.sparkmc.core.model.Target;

/**
 * A user's {@code class:} model that implements {@link GradientTarget} is sampled by NUTS as a built-in one is: a
 * standard normal in 3 dimensions, every mean within 4 MCSE of 0 and every variance within 4 of its MCSE-scaled
 * error of 1 after R-hat &lt; 1.01 (fixed seed; ≈ 2e-4 false failures for a fresh one).
 */
class UserGradientTargetTest {

    /** N(0, I₃) with its gradient, as a user would write it: public, with a public no-argument constructor. */
    public static final class StandardNormal implements GradientTarget {
        private static final long serialVersionUID = 1L;

        @Override
        public int dimension() {
            return 3;
        }

        @Override
        public double logDensity(double[] x) {
            return logDensityGradient(x, new double[3]);
        }

        @Override
        public double logDensityGradient(double[] x, double[] g) {
            double lp = 0;
            for (int i = 0; i < 3; i++) {
                g[i] = -x[i];
                lp -= 0.5 * x[i] * x[i];
            }
            return lp;
        }
    }

    @Test
    void nutsSamplesAClassTargetWithAGradient() {
        Target target = ModelCatalog.create("class:" + StandardNormal.class.getName(),
                new ModelParameters("test", java.util.Map.of()));
        Kernel<?> kernel = KernelCatalog.create("nuts", new KernelSettings(1, true, Double.NaN, 1, 500),
                target);
        assertInstanceOf(Nuts.class, kernel);
        RunChains.Result r = RunChains.run(target, kernel, 4, 500, 2000, 17);
        for (int p = 0; p < 3; p++) {
            assertTrue(r.rhat(p) < 1.01, "R-hat " + r.rhat(p));
            assertTrue(Math.abs(r.mean(p)) < 4 * r.mcse(p), "mean " + r.mean(p) + ", MCSE " + r.mcse(p));
            double[][] squares = new double[4][];
            for (int c = 0; c < 4; c++) {
                squares[c] = java.util.Arrays.stream(r.draws()[p][c]).map(v -> v * v).toArray();
            }
            double variance = org.sparkmc.core.diagnostics.PooledStatistics.mean(squares);
            double error = org.sparkmc.core.diagnostics.MonteCarloStandardError.mean(squares);
            assertTrue(Math.abs(variance - 1) < 4 * error, "E[x²] " + variance + ", MCSE " + error);
        }
    }
}
