package org.sparkmc.core.smc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.smc.models.KalmanFilter;
import org.sparkmc.core.smc.models.LinearGaussianModel;
import org.sparkmc.core.smc.models.LocalLevelModel;

/** The exact Kalman filter against published and hand-computed values (deterministic: no false failures). */
class KalmanFilterTest {

    @Test
    void nileLogLikelihoodMatchesThePublishedValue() {
        Observations nile = NileData.load();
        assertEquals(100, nile.size());
        assertEquals(1871, nile.time(0));
        assertEquals(1120, nile.value(0)[0]);
        KalmanFilter.Result r = KalmanFilter.run(LocalLevelModel.nile().asLinearGaussian(), nile.values());
        // −641.5238 with x_0 ~ N(1120, 10^7) on the first observation's level (independently computed: −641.52382)
        assertEquals(-641.5238, r.logLikelihood(), 5e-5);
    }

    @Test
    void oneStepByHand() {
        // x_0 ~ N(0, 4), y_0 = x_0 + N(0, 1) = 2: S = 5, K = 0.8, m = 1.6, P = 0.8, log p = log N(2; 0, 5)
        LinearGaussianModel m = new LinearGaussianModel(new double[][] {{1}}, new double[][] {{1}},
                new double[][] {{1}}, new double[][] {{1}}, new double[] {0}, new double[][] {{4}});
        KalmanFilter.Result r = KalmanFilter.run(m, new double[][] {{2}, {Double.NaN}});
        assertEquals(1.6, r.means()[0][0], 1e-12);
        assertEquals(0.8, r.variance(0, 0), 1e-12);
        assertEquals(-0.5 * (Math.log(2 * Math.PI * 5) + 4.0 / 5), r.logLikelihood(), 1e-12);
        // a missing observation only predicts
        assertEquals(1.6, r.means()[1][0], 1e-12);
        assertEquals(1.8, r.variance(1, 0), 1e-12);
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> KalmanFilter.run(m, new double[][] {{2}, {1, 3}}));
        assertTrue(e.getMessage().contains("time step 1 has 2 values, the model expects 1"), e.getMessage());
        // A null row is a missing observation, as for the particle filters.
        assertEquals(1.6, KalmanFilter.run(m, new double[][] {{2}, null}).means()[1][0], 1e-12);
    }

    @Test
    void aDiagonalModelFactorisesIntoScalarFilters() {
        LinearGaussianModel two = new LinearGaussianModel(new double[][] {{0.9, 0}, {0, 0.5}},
                new double[][] {{1, 0}, {0, 2}}, new double[][] {{1, 0}, {0, 1}}, new double[][] {{0.5, 0}, {0, 3}},
                new double[] {1, -1}, new double[][] {{2, 0}, {0, 1}});
        LinearGaussianModel a = new LinearGaussianModel(new double[][] {{0.9}}, new double[][] {{1}},
                new double[][] {{1}}, new double[][] {{0.5}}, new double[] {1}, new double[][] {{2}});
        LinearGaussianModel b = new LinearGaussianModel(new double[][] {{0.5}}, new double[][] {{2}},
                new double[][] {{1}}, new double[][] {{3}}, new double[] {-1}, new double[][] {{1}});
        double[][] y = {{0.3, 1.2}, {-0.4, 2.0}, {1.1, -0.7}};
        double[][] ya = {{0.3}, {-0.4}, {1.1}};
        double[][] yb = {{1.2}, {2.0}, {-0.7}};
        KalmanFilter.Result r = KalmanFilter.run(two, y);
        KalmanFilter.Result ra = KalmanFilter.run(a, ya);
        KalmanFilter.Result rb = KalmanFilter.run(b, yb);
        assertEquals(ra.logLikelihood() + rb.logLikelihood(), r.logLikelihood(), 1e-12);
        assertEquals(ra.means()[2][0], r.means()[2][0], 1e-12);
        assertEquals(rb.variance(2, 0), r.variance(2, 1), 1e-12);
    }
}
