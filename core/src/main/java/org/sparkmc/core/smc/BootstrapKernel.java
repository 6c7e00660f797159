package org.sparkmc.core.smc;

import java.util.Arrays;
import java.util.Objects;
import org.sparkmc.core.random.Rng;

/** The bootstrap filter's step: x_0 ~ μ or x_n ~ f_n(· | x_{n−1}), log α_n = log g_n(y_n | x_n) (0 if y_n is missing). */
final class BootstrapKernel implements ParticleKernel {
    private static final long serialVersionUID = 1L;
    private final StateSpaceModel model;

    BootstrapKernel(StateSpaceModel model) {
        this.model = Objects.requireNonNull(model, "model");
    }

    @Override
    public int dimension() {
        return model.stateDimension();
    }

    @Override
    public int dataDimension() {
        return model.observationDimension();
    }

    @Override
    public void propagate(int step, double[] y, double[] states, int from, int to, Rng rng, double[] logIncrement) {
        if (step == 0) {
            model.sampleInitial(states, from, to, rng);
        } else {
            model.sampleTransition(step, states, from, to, rng);
        }
        if (Observations.isMissing(y)) {
            Arrays.fill(logIncrement, 0, to - from, 0.0);
        } else {
            model.logObservationDensity(step, y, states, from, to, logIncrement);
        }
    }
}
