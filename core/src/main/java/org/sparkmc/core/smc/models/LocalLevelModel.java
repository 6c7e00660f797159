package org.sparkmc.core.smc.models;

import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.random.Rng;
import org.sparkmc.core.smc.GuidedProposal;
import org.sparkmc.core.smc.StateSpaceModel;

/**
 * The local-level model (random walk plus noise; Durbin &amp; Koopman 2012, ch. 2): x_0 ~ N(m_0, P_0),
 * x_n = x_{n−1} + η_n with η_n ~ N(0, σ²_η), y_n = x_n + ε_n with ε_n ~ N(0, σ²_ε). A scalar implementation (the
 * benchmark's hot loop); {@link #asLinearGaussian()} gives the same model to the {@link KalmanFilter}.
 */
public final class LocalLevelModel implements StateSpaceModel {
    private static final long serialVersionUID = 1L;
    private static final double HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI);

    private final double observationVariance;
    private final double levelVariance;
    private final double initialMean;
    private final double initialVariance;
    private final double levelSd;
    private final double initialSd;
    private final double obsLogNorm;
    private final double halfObsPrecision;

    /**
     * @param observationVariance σ²_ε
     * @param levelVariance σ²_η
     * @param initialMean m_0, the prior mean of the first observation's state
     * @param initialVariance P_0
     */
    public LocalLevelModel(double observationVariance, double levelVariance, double initialMean,
            double initialVariance) {
        positive(observationVariance, "observation variance");
        positive(levelVariance, "level variance");
        positive(initialVariance, "initial variance");
        if (!Double.isFinite(initialMean)) {
            throw new InvalidInputException("local-level model: initial mean must be finite, is " + initialMean);
        }
        this.observationVariance = observationVariance;
        this.levelVariance = levelVariance;
        this.initialMean = initialMean;
        this.initialVariance = initialVariance;
        this.levelSd = Math.sqrt(levelVariance);
        this.initialSd = Math.sqrt(initialVariance);
        this.obsLogNorm = -HALF_LOG_2PI - 0.5 * Math.log(observationVariance);
        this.halfObsPrecision = 0.5 / observationVariance;
    }

    /** The Nile configuration: σ²_ε = 15099, σ²_η = 1469.1 (Durbin &amp; Koopman's MLE), x_0 ~ N(1120, 10^7). */
    public static LocalLevelModel nile() {
        return new LocalLevelModel(15099, 1469.1, 1120, 1e7);
    }

    private static void positive(double v, String what) {
        if (!(v > 0) || Double.isInfinite(v)) {
            throw new InvalidInputException("local-level model: " + what + " must be positive and finite, is " + v);
        }
    }

    @Override
    public int stateDimension() {
        return 1;
    }

    @Override
    public int observationDimension() {
        return 1;
    }

    @Override
    public void sampleInitial(double[] states, int from, int to, Rng rng) {
        for (int i = from; i < to; i++) {
            states[i] = initialMean + initialSd * rng.normal();
        }
    }

    @Override
    public void sampleTransition(int step, double[] states, int from, int to, Rng rng) {
        for (int i = from; i < to; i++) {
            states[i] += levelSd * rng.normal();
        }
    }

    @Override
    public void logObservationDensity(int step, double[] y, double[] states, int from, int to, double[] out) {
        double y0 = y[0];
        for (int i = from; i < to; i++) {
            double e = y0 - states[i];
            out[i - from] = obsLogNorm - halfObsPrecision * e * e;
        }
    }

    @Override
    public void logInitialDensity(double[] states, int from, int to, double[] out) {
        for (int i = from; i < to; i++) {
            out[i - from] = normalLogDensity(states[i] - initialMean, initialVariance);
        }
    }

    @Override
    public void logTransitionDensity(int step, double[] previous, double[] states, int from, int to,
            double[] out) {
        for (int i = from; i < to; i++) {
            out[i - from] = normalLogDensity(states[i] - previous[i - from], levelVariance);
        }
    }

    private static double normalLogDensity(double dev, double variance) {
        return -HALF_LOG_2PI - 0.5 * Math.log(variance) - 0.5 * dev * dev / variance;
    }

    /** The same model as a {@link LinearGaussianModel} (F = H = 1). */
    public LinearGaussianModel asLinearGaussian() {
        return new LinearGaussianModel(new double[][] {{1}}, new double[][] {{levelVariance}}, new double[][] {{1}},
                new double[][] {{observationVariance}}, new double[] {initialMean},
                new double[][] {{initialVariance}});
    }

    /**
     * The locally optimal proposal: x_n | x_{n−1}, y_n ~ N(s²(x_{n−1}/σ²_η + y_n/σ²_ε), s²) with
     * s² = (1/σ²_η + 1/σ²_ε)⁻¹; at step 0, N(s₀²(m_0/P_0 + y_0/σ²_ε), s₀²).
     */
    public GuidedProposal optimalProposal() {
        double s2 = 1 / (1 / levelVariance + 1 / observationVariance);
        double s02 = 1 / (1 / initialVariance + 1 / observationVariance);
        double r = observationVariance;
        double q = levelVariance;
        double m0 = initialMean;
        double p0 = initialVariance;
        return new GuidedProposal() {
            private static final long serialVersionUID = 1L;

            @Override
            public void sampleInitial(double[] y, double[] states, int from, int to, Rng rng, double[] logDensity) {
                double mean = s02 * (m0 / p0 + y[0] / r);
                double sd = Math.sqrt(s02);
                for (int i = from; i < to; i++) {
                    double z = rng.normal();
                    states[i] = mean + sd * z;
                    logDensity[i - from] = -HALF_LOG_2PI - Math.log(sd) - 0.5 * z * z;
                }
            }

            @Override
            public void sample(int step, double[] y, double[] previous, double[] states, int from, int to, Rng rng,
                    double[] logDensity) {
                double fromY = s2 * y[0] / r;
                double sd = Math.sqrt(s2);
                double logSd = Math.log(sd);
                for (int i = from; i < to; i++) {
                    double z = rng.normal();
                    states[i] = fromY + s2 * previous[i - from] / q + sd * z;
                    logDensity[i - from] = -HALF_LOG_2PI - logSd - 0.5 * z * z;
                }
            }
        };
    }
}
