package org.sparkmc.core.consensus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.List;
import org.apache.commons.numbers.gamma.LogGamma;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.model.Matrices;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.random.Rng;

/**
 * The shard target's log density against naive sums of textbook log densities, and against the closed-form Gaussian
 * sub-posterior. Deterministic (fixed seeds make the data; no test here can fail by chance).
 */
class ShardTargetTest {
    private static final int ROWS = 60;
    private static final int P = 3;
    private static final double PRIOR_SD = 2.5;
    private static final int SHARDS = 7;

    /** log N(v | 0, s²) raised to 1/S, summed over the coefficients. */
    private static double naivePrior(double[] theta) {
        double lp = 0;
        for (int j = 0; j < P; j++) {
            lp += NormalDistribution.of(0, PRIOR_SD).logDensity(theta[j]) / SHARDS;
        }
        return lp;
    }

    private static double eta(double[] x, int i, double[] theta) {
        double eta = 0;
        for (int j = 0; j < P; j++) {
            eta += x[i * P + j] * theta[j];
        }
        return eta;
    }

    private static double[] features(Rng rng) {
        double[] x = new double[ROWS * P];
        for (int k = 0; k < x.length; k++) {
            x[k] = k % P == 0 ? 1 : rng.normal();
        }
        return x;
    }

    private static void assertRelative(double expected, double actual) {
        assertEquals(expected, actual, 1e-12 * Math.abs(expected));
    }

    @Test
    void logisticIsTheSumOfBernoulliLogLikelihoodsPlusThePriorOverS() {
        Rng rng = new RandomStreams(1).rng("data");
        double[] x = features(rng);
        double[] y = new double[ROWS];
        for (int i = 0; i < ROWS; i++) {
            y[i] = rng.uniform() < 0.4 ? 1 : 0;
        }
        ShardTarget target = new ShardTarget(new LogisticGlm(Glm.coefficientNames(P)), x, y, PRIOR_SD, SHARDS, 0);
        double[] theta = {0.3, -1.2, 0.8};
        double expected = naivePrior(theta);
        for (int i = 0; i < ROWS; i++) {
            double prob = 1 / (1 + Math.exp(-eta(x, i, theta)));
            expected += y[i] == 1 ? Math.log(prob) : Math.log(1 - prob);
        }
        assertRelative(expected, target.logDensity(theta));
    }

    @Test
    void poissonIsTheSumOfPoissonLogLikelihoodsPlusThePriorOverS() {
        Rng rng = new RandomStreams(2).rng("data");
        double[] x = features(rng);
        double[] y = new double[ROWS];
        for (int i = 0; i < ROWS; i++) {
            y[i] = Math.floor(6 * rng.uniform());
        }
        ShardTarget target = new ShardTarget(new PoissonGlm(Glm.coefficientNames(P)), x, y, PRIOR_SD, SHARDS, 0);
        double[] theta = {0.7, 0.2, -0.4};
        double expected = naivePrior(theta);
        for (int i = 0; i < ROWS; i++) {
            double lambda = Math.exp(eta(x, i, theta));
            expected += y[i] * Math.log(lambda) - lambda - LogGamma.value(y[i] + 1);
        }
        assertRelative(expected, target.logDensity(theta));
    }

    @Test
    void gaussianIsTheSumOfNormalLogDensitiesPlusThePriorsAndJacobianOverS() {
        Rng rng = new RandomStreams(3).rng("data");
        double[] x = features(rng);
        double[] y = new double[ROWS];
        for (int i = 0; i < ROWS; i++) {
            y[i] = 3 * rng.normal();
        }
        double c = 4;
        ShardTarget target = new ShardTarget(GaussianGlm.withUnknownSd(Glm.coefficientNames(P), c), x, y, PRIOR_SD,
                SHARDS, 0);
        double logSigma = 0.9;
        double[] theta = {0.1, 1.5, -2, logSigma};
        double sigma = Math.exp(logSigma);
        // half-normal(0, c) density of σ times the Jacobian dσ/du = σ, raised to 1/S
        double expected = naivePrior(theta)
                + (Math.log(2) + NormalDistribution.of(0, c).logDensity(sigma) + logSigma) / SHARDS;
        for (int i = 0; i < ROWS; i++) {
            expected += NormalDistribution.of(eta(x, i, theta), sigma).logDensity(y[i]);
        }
        assertRelative(expected, target.logDensity(theta));
        assertEquals(List.of("beta[1]", "beta[2]", "beta[3]", "sigma"), target.parameterNames());
        assertEquals(sigma, target.parameters(theta)[3], 1e-15);
    }

    /** With σ known the sub-posterior is N(m_s, P_s⁻¹) exactly: the log density differs from it by a constant. */
    @Test
    void gaussianWithKnownSdIsTheClosedFormSubPosterior() {
        LinearGaussianShards model = new LinearGaussianShards(new int[] {5, 9, 14}, 4, true);
        int d = LinearGaussianShards.D;
        Rng rng = new RandomStreams(4).rng("points");
        for (int s = 0; s < model.shards; s++) {
            ShardTarget target = model.target(s);
            double[] l = Matrices.cholesky(model.subCovariances[s], d);
            double offset = Double.NaN;
            for (int k = 0; k < 5; k++) {
                double[] theta = {rng.normal(), rng.normal(), rng.normal()};
                double closedForm = -0.5 * Matrices.mahalanobis(l, d, theta, model.subMeans[s]);
                double difference = target.logDensity(theta) - closedForm;
                if (k == 0) {
                    offset = difference;
                }
                assertEquals(offset, difference, 1e-9, "shard " + s + ", point " + k);
            }
        }
    }

    /** log σ(±800) and log(1 − σ(±800)) stay finite: 0 or −800. */
    @Test
    void logisticIsStableAtLinearPredictorsOfPlusMinus800() {
        double[] x = {800, 800, -800, -800};
        double[] y = {1, 0, 1, 0};
        ShardTarget target = new ShardTarget(new LogisticGlm(Glm.coefficientNames(1)), x, y, 1, 1, 0);
        double prior = NormalDistribution.of(0, 1).logDensity(1);
        assertEquals(-1600 + prior, target.logDensity(new double[] {1}), 1e-12 * 1600);
        assertTrue(Double.isFinite(target.logDensity(new double[] {-1})));
    }

    /**
     * The one-pass gradient and negative Hessian of the three GLMs whose position is their coefficients, against
     * central differences of the log density (step 1e-4: agreement to about 1e-6 relative), and no claim to them for
     * a Gaussian model that samples log σ.
     */
    @Test
    void glmDerivativesMatchFiniteDifferencesOfTheDensity() {
        Rng rng = new RandomStreams(4).rng("data");
        double[] x = features(rng);
        double[] binary = new double[ROWS];
        double[] counts = new double[ROWS];
        double[] real = new double[ROWS];
        for (int i = 0; i < ROWS; i++) {
            binary[i] = rng.uniform() < 0.4 ? 1 : 0;
            counts[i] = Math.floor(6 * rng.uniform());
            real[i] = 2 * rng.normal();
        }
        List<String> names = Glm.coefficientNames(P);
        double[] theta = {0.3, -0.7, 0.5};
        for (ShardTarget target : List.of(new ShardTarget(new LogisticGlm(names), x, binary, PRIOR_SD, SHARDS, 0),
                new ShardTarget(new PoissonGlm(names), x, counts, PRIOR_SD, SHARDS, 0),
                new ShardTarget(GaussianGlm.withKnownSd(names, 1.5), x, real, PRIOR_SD, SHARDS, 0))) {
            double[] g = new double[P];
            double[] h = new double[P * P];
            assertTrue(target.derivatives(theta, g, h));
            double step = 1e-4;
            for (int j = 0; j < P; j++) {
                double[] plus = theta.clone();
                double[] minus = theta.clone();
                plus[j] += step;
                minus[j] -= step;
                double numeric = (target.logDensity(plus) - target.logDensity(minus)) / (2 * step);
                assertEquals(numeric, g[j], 1e-6 * (1 + Math.abs(numeric)), "gradient " + j);
                for (int k = 0; k < P; k++) {
                    double[] gPlus = new double[P];
                    double[] gMinus = new double[P];
                    target.derivatives(plus, gPlus, new double[P * P]);
                    target.derivatives(minus, gMinus, new double[P * P]);
                    double numericH = -(gPlus[k] - gMinus[k]) / (2 * step);
                    assertEquals(numericH, h[j * P + k], 1e-6 * (1 + Math.abs(numericH)), "hessian " + j + "," + k);
                }
            }
        }
        ShardTarget sampledSd = new ShardTarget(GaussianGlm.withUnknownSd(names, 3), x, real, PRIOR_SD, SHARDS, 0);
        assertTrue(!sampledSd.derivatives(new double[] {0.3, -0.7, 0.5, 0.1}, new double[P + 1],
                new double[(P + 1) * (P + 1)]));
    }

    @Test
    void survivesJavaSerialization() throws Exception {
        ShardTarget target = new LinearGaussianShards(new int[] {6, 6}, 5, true).target(1);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(target);
        }
        ShardTarget copy;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            copy = (ShardTarget) in.readObject();
        }
        double[] theta = {0.2, 0.4, -0.6};
        assertEquals(target.logDensity(theta), copy.logDensity(theta), 0.0);
    }
}
