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
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.random.Rng;

/** The issue-5 models' log densities and conditionals against direct formulas (exact, deterministic). */
class IssueFiveModelsTest {

    @Test
    void kidiqIsTheStanProgramWithTheLogJacobian() {
        double[] iq = {90, 110.5, 121, 78, 100};
        double[] score = {80, 95, 101, 70, 88};
        KidscoreMomiq model = new KidscoreMomiq(iq, score);
        CauchyDistribution prior = CauchyDistribution.of(0, 2.5);
        double constant = Double.NaN;
        for (double[] x : new double[][] {{20, 0.6, Math.log(18)}, {-5, 1.1, 0.3}, {40, 0.2, 3.5}}) {
            double sigma = Math.exp(x[2]);
            NormalDistribution unit = NormalDistribution.of(0, sigma);
            double direct = Math.log(2 * prior.density(sigma)) + x[2];
            for (int i = 0; i < iq.length; i++) {
                direct += unit.logDensity(score[i] - x[0] - x[1] * iq[i]);
            }
            double diff = model.logDensity(x) - direct;
            if (Double.isNaN(constant)) {
                constant = diff;
            }
            assertEquals(constant, diff, 1e-9);
        }
        assertEquals(List.of("beta[1]", "beta[2]", "sigma"), model.parameterNames());
        assertEquals(18, model.parameters(new double[] {1, 2, Math.log(18)})[2], 1e-12);
        assertThrows(InvalidInputException.class, () -> new KidscoreMomiq(iq, new double[] {1}));
    }

    @Test
    void isingConditionalsAgreeWithTheJointDensity() {
        IsingDenoising model = IsingDenoising.synthetic(5, 6, 1, 2, 3, true);
        Rng rng = new RandomStreams(1).rng("x");
        double[] x = model.initialPosition(rng);
        for (int site = 0; site < model.dimension(); site++) {
            double[] up = x.clone();
            double[] down = x.clone();
            up[site] = 1;
            down[site] = -1;
            double logOdds = model.logDensity(up) - model.logDensity(down);
            assertEquals(1 / (1 + Math.exp(-logOdds)), model.probabilityUp(site, x), 1e-12);
        }
        double[] p = model.parameters(x);
        assertEquals(4 + 30, p.length);
        assertEquals(model.parameterNames().size(), p.length);
        assertEquals(Double.NEGATIVE_INFINITY, model.logDensity(new double[30]));
        assertEquals(2, org.sparkmc.core.mcmc.GraphColouring.of(model.graph()).colourCount());
    }

    @Test
    void logisticRegressionIsTheBernoulliLikelihoodWithNormalPriors() {
        double[] design = {1, 0.5, -1, 1, -0.3, 2, 1, 1.2, 0.1, 1, -2, -0.5};
        double[] y = {1, 0, 1, 0};
        LogisticRegression model = new LogisticRegression(design, y, List.of("a", "b", "c"), 2, false);
        double[] w = {0.3, -0.7, 1.1};
        double direct = 0;
        for (double v : w) {
            direct += NormalDistribution.of(0, 2).logDensity(v);
        }
        for (int i = 0; i < 4; i++) {
            double eta = design[3 * i] * w[0] + design[3 * i + 1] * w[1] + design[3 * i + 2] * w[2];
            double prob = 1 / (1 + Math.exp(-eta));
            direct += y[i] == 1 ? Math.log(prob) : Math.log(1 - prob);
        }
        double constant = model.logDensity(w) - direct;
        double[] w2 = {-1, 0.2, 0.4};
        double direct2 = 0;
        for (double v : w2) {
            direct2 += NormalDistribution.of(0, 2).logDensity(v);
        }
        for (int i = 0; i < 4; i++) {
            double eta = design[3 * i] * w2[0] + design[3 * i + 1] * w2[1] + design[3 * i + 2] * w2[2];
            double prob = 1 / (1 + Math.exp(-eta));
            direct2 += y[i] == 1 ? Math.log(prob) : Math.log(1 - prob);
        }
        assertEquals(constant, model.logDensity(w2) - direct2, 1e-12);
        assertThrows(InvalidInputException.class,
                () -> new LogisticRegression(design, new double[] {1, 2, 0, 0}, List.of("a", "b", "c"), 2, false));
    }

    @Test
    void everyBuiltInModelIsBuiltByName() {
        assertTrue(ModelCatalog.builtInNames().containsAll(List.of("kidscore_momiq", "logistic_regression",
                "ising_denoising", "gmm", "gmm_collapsed", "bimodal", "eight_schools_noncentered")));
        assertEquals(64 * 64, ModelCatalog.create("ising_denoising", ModelParameters.empty()).dimension());
        // Ising images: the clean image must be ±1 and of the noisy image's size; noisy pixels must be finite.
        List<Double> noisy = List.of(0.5, -1.2, 2.0, 0.1);
        assertEquals(4, ModelCatalog.create("ising_denoising", new ModelParameters("t", Map.of("height", 2, "width", 2,
                "noisy", noisy, "clean", List.of(1, -1, 1, 1)))).dimension());
        for (Map<String, Object> bad : List.<Map<String, Object>>of(
                Map.of("height", 2, "width", 2, "noisy", noisy, "clean", List.of(1, -1, 1)),
                Map.of("height", 2, "width", 2, "noisy", noisy, "clean", List.of(1, 0, 1, 1)),
                Map.of("height", 2, "width", 2, "noisy", List.of(0.5, Double.NaN, 2.0, 0.1)))) {
            assertThrows(InvalidInputException.class,
                    () -> ModelCatalog.create("ising_denoising", new ModelParameters("t", bad)), bad.toString());
        }
        assertEquals(300, ModelCatalog.create("gmm_collapsed", ModelParameters.empty()).dimension());
        Target gmm = ModelCatalog.create("gmm", new ModelParameters("t", Map.of("n", 50, "K", 3)));
        assertEquals(50 + 3 + 6 + 12, gmm.dimension());
        Target logistic = ModelCatalog.create("logistic_regression", new ModelParameters("t", Map.of(
                "predictors", "a", "outcome", "y", "a", List.of(1, 2, 3, 4), "y", List.of(0, 1, 0, 1))));
        assertEquals(List.of("w[intercept]", "w[a]"), logistic.parameterNames());
        // Mixture priors: nu0 <= d + 1 leaves an empty cluster's posterior-mean covariance undefined (collapsed
        // model only); s0 must be a positive scale.
        assertEquals(50, ModelCatalog.create("gmm_collapsed", new ModelParameters("t", Map.of("n", 50,
                "nu0", 3.5))).dimension());
        assertThrows(InvalidInputException.class, () -> ModelCatalog.create("gmm_collapsed",
                new ModelParameters("t", Map.of("n", 50, "nu0", 2.5))));
        assertEquals(50 + 3 + 6 + 12, ModelCatalog.create("gmm", new ModelParameters("t", Map.of("n", 50, "K", 3,
                "nu0", 2.5))).dimension());
        assertThrows(InvalidInputException.class, () -> ModelCatalog.create("gmm",
                new ModelParameters("t", Map.of("n", 50, "nu0", 1))));
        assertThrows(InvalidInputException.class, () -> ModelCatalog.create("gmm",
                new ModelParameters("t", Map.of("n", 50, "s0", 0))));
        assertThrows(InvalidInputException.class, () -> ModelCatalog.create("logistic_regression",
                new ModelParameters("t", Map.of("predictors", "a", "outcome", "y", "a", List.of(1, 2),
                        "y", List.of(0, 1, 1)))));
        // standardise is a yes/no field: true/false (any case) or 1/0; anything else is refused, not read as false.
        for (Object no : List.of(false, "FALSE", 0)) {
            Target raw = ModelCatalog.create("logistic_regression", new ModelParameters("t", Map.of(
                    "predictors", "a", "outcome", "y", "a", List.of(1, 2, 3, 4), "y", List.of(0, 1, 0, 1),
                    "standardise", no)));
            Target standardised = ModelCatalog.create("logistic_regression", new ModelParameters("t", Map.of(
                    "predictors", "a", "outcome", "y", "a", List.of(1, 2, 3, 4), "y", List.of(0, 1, 0, 1),
                    "standardise", true)));
            double[] w = {0.3, 0.7};
            assertTrue(raw.logDensity(w) != standardised.logDensity(w), "standardise = " + no);
        }
        for (Object bad : List.of("yes", 2, "on")) {
            assertThrows(InvalidInputException.class, () -> ModelCatalog.create("logistic_regression",
                    new ModelParameters("t", Map.of("predictors", "a", "outcome", "y", "a", List.of(1, 2, 3, 4),
                            "y", List.of(0, 1, 0, 1), "standardise", bad))), "standardise = " + bad);
        }
    }
}
