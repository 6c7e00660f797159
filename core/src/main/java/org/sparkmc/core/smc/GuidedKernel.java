package org.sparkmc.core.smc;

import java.util.Arrays;
import java.util.Objects;
import org.sparkmc.core.random.Rng;

/**
 * The guided filter's step: x_n ~ q_n(· | x_{n−1}, y_n), log α_n = log f_n(x_n | x_{n−1}) + log g_n(y_n | x_n)
 * − log q_n(x_n | x_{n−1}, y_n) (with μ and q_0 at step 0). A missing y_n falls back to the model's own
 * transition with α_n = 1.
 */
final class GuidedKernel implements ParticleKernel {
    private static final long serialVersionUID = 1L;
    private final StateSpaceModel model;
    private final GuidedProposal proposal;

    GuidedKernel(StateSpaceModel model, GuidedProposal proposal) {
        this.model = Objects.requireNonNull(model, "model");
        this.proposal = Objects.requireNonNull(proposal, "proposal");
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
        int m = to - from;
        if (Observations.isMissing(y)) {
            if (step == 0) {
                model.sampleInitial(states, from, to, rng);
            } else {
                model.sampleTransition(step, states, from, to, rng);
            }
            Arrays.fill(logIncrement, 0, m, 0.0);
            return;
        }
        double[] logQ = new double[m];
        double[] logPrior = new double[m];
        if (step == 0) {
            proposal.sampleInitial(y, states, from, to, rng, logQ);
            model.logInitialDensity(states, from, to, logPrior);
        } else {
            int d = model.stateDimension();
            double[] previous = Arrays.copyOfRange(states, from * d, to * d);
            proposal.sample(step, y, previous, states, from, to, rng, logQ);
            model.logTransitionDensity(step, previous, states, from, to, logPrior);
        }
        model.logObservationDensity(step, y, states, from, to, logIncrement);
        for (int k = 0; k < m; k++) {
            logIncrement[k] += logPrior[k] - logQ[k];
        }
    }
}
