package org.sparkmc.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.apache.commons.statistics.distribution.CauchyDistribution;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.catalog.ModelCatalog;

class TargetsTest {
    private static final double[] Y = {28, 8, -3, 7, -1, 1, 18, 12};
    private static final double[] SIGMA = {15, 10, 16, 11, 9, 11, 10, 18};

    /** The bimodal log density against the mixture of two N(·, 2.5) densities, up to one constant. */
    @Test
    void bimodalIsTheLecturesMixture() {
        BimodalMixture target = new BimodalMixture(5);
        NormalDistribution a = NormalDistribution.of(0, Math.sqrt(2.5));
        NormalDistribution b = NormalDistribution.of(10, Math.sqrt(2.5));
        double constant = Double.NaN;
        for (double x = -6; x <= 16; x += 0.37) {
            double exact = Math.log(0.3 * a.density(x) + 0.7 * b.density(x));
            double diff = target.logDensity(new double[] {x}) - exact;
            if (Double.isNaN(constant)) {
                constant = diff;
            }
            assertEquals(constant, diff, 1e-12);
        }
        assertEquals(List.of("x", "x_gt_5"), target.parameterNames());
        assertEquals(1.0, target.parameters(new double[] {5.01})[1]);
        assertEquals(0.0, target.parameters(new double[] {4.99})[1]);
        assertEquals(0.7, BimodalMixture.exactTailProbability(5), 1e-3);
    }

    /**
     * The indicator's label shows its threshold: a whole threshold of 2^63 or more was cast to a long, which saturates,
     * so 1e20 and every larger threshold were all labelled x_gt_9223372036854775807.
     */
    @Test
    void bimodalLabelsTheIndicatorByItsThreshold() {
        assertEquals("x_gt_1p0E20", new BimodalMixture(1e20).parameterNames().get(1));
        assertEquals("x_gt_m1p0E20", new BimodalMixture(-1e20).parameterNames().get(1));
        assertEquals("x_gt_9p3E18", new BimodalMixture(9.3e18).parameterNames().get(1));
        assertEquals("x_gt_4611686018427387904", new BimodalMixture(0x1p62).parameterNames().get(1));
        assertEquals("x_gt_m3", new BimodalMixture(-3).parameterNames().get(1));
        assertEquals("x_gt_2p5", new BimodalMixture(2.5).parameterNames().get(1));
    }

    /**
     * Eight schools against the Stan model written with Commons Statistics densities, including the Jacobian of
     * τ = exp(u): the difference must be one constant at every point.
     */
    @Test
    void eightSchoolsIsTheStanModelOnTheLogTauScale() {
        EightSchoolsNoncentered target = new EightSchoolsNoncentered(Y, SIGMA);
        org.apache.commons.rng.UniformRandomProvider rng =
                org.apache.commons.rng.simple.RandomSource.XO_SHI_RO_256_PP.create(5L);
        double constant = Double.NaN;
        for (int k = 0; k < 50; k++) {
            double[] x = new double[10];
            for (int i = 0; i < 10; i++) {
                x[i] = 4 * rng.nextDouble() - 2;
            }
            double mu = x[8];
            double tau = Math.exp(x[9]);
            double exact = NormalDistribution.of(0, 5).logDensity(mu) + CauchyDistribution.of(0, 5).logDensity(tau)
                    + Math.log(tau);
            for (int j = 0; j < 8; j++) {
                exact += NormalDistribution.of(0, 1).logDensity(x[j]);
                exact += NormalDistribution.of(mu + tau * x[j], SIGMA[j]).logDensity(Y[j]);
            }
            double diff = target.logDensity(x) - exact;
            if (Double.isNaN(constant)) {
                constant = diff;
            }
            assertEquals(constant, diff, 1e-9);
            double[] p = target.parameters(x);
            assertEquals(mu + tau * x[3], p[3], 1e-12);
            assertEquals(tau, p[9], 1e-12);
        }
        assertEquals("theta[1]", target.parameterNames().get(0));
        assertEquals(List.of("mu", "tau"), target.parameterNames().subList(8, 10));
    }

    @Test
    void registryBuildsBuiltInsAndUserClassesWithClearErrors() {
        ModelParameters data = new ModelParameters("test data", Map.of("J", 8, "y", List.of(28, 8, -3, 7, -1, 1, 18,
                12), "sigma", List.of(15, 10, 16, 11, 9, 11, 10, 18)));
        assertEquals(10, ModelCatalog.create("eight_schools_noncentered", data).dimension());
        assertEquals(1, ModelCatalog.create("bimodal", ModelParameters.empty()).dimension());
        assertEquals(1, ModelCatalog.create("class:" + BimodalMixture.class.getName(), ModelParameters.empty())
                .dimension());
        assertMessage("unknown model 'nope'", () -> ModelCatalog.create("nope", ModelParameters.empty()));
        assertMessage("not on the classpath", () -> ModelCatalog.create("class:x.Y", ModelParameters.empty()));
        assertMessage("does not implement", () -> ModelCatalog.create("class:java.lang.Object",
                ModelParameters.empty()));
        assertMessage("'sigma' is missing", () -> ModelCatalog.create("eight_schools_noncentered",
                new ModelParameters("d.json", Map.of("y", List.of(1)))));
        assertMessage("J = 7 but y has 8", () -> ModelCatalog.create("eight_schools_noncentered",
                new ModelParameters("d.json", Map.of("J", 7, "y", data.asMap().get("y"), "sigma",
                        data.asMap().get("sigma")))));
        assertMessage("d.json: y and sigma need the same non-zero length, have 1 and 2",
                () -> ModelCatalog.create("eight_schools_noncentered", new ModelParameters("d.json",
                        Map.of("y", List.of(1), "sigma", List.of(1, 2)))));
        assertMessage("d.json:4: d.json: 'sigma[2]' must be a number > 0 but is '0'", () -> ModelCatalog.create(
                "eight_schools_noncentered", new ModelParameters("d.json", Map.of("y", List.of(1, 2), "sigma",
                        List.of(1, 0)), Map.of("sigma", "d.json:4"))));
        assertMessage("d.json: mom_iq and kid_score need the same non-zero length, have 2 and 1",
                () -> ModelCatalog.create("kidscore_momiq", new ModelParameters("d.json",
                        Map.of("mom_iq", List.of(1, 2), "kid_score", List.of(1)))));
        assertMessage("sigma[2] must be > 0", () -> new EightSchoolsNoncentered(new double[] {1, 2},
                new double[] {1, 0}));
        assertMessage("'y[2]' must be a number", () -> new ModelParameters("d.json", Map.of("y", List.of(1, "a")))
                .getDoubleArray("y"));
    }

    private static void assertMessage(String expected, org.junit.jupiter.api.function.Executable call) {
        InvalidInputException e = assertThrows(InvalidInputException.class, call);
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }
}
