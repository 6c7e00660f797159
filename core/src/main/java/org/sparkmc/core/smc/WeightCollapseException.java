package org.sparkmc.core.smc;

import org.sparkmc.core.InvalidInputException;

/**
 * Every particle's weight became zero (all log-weights −∞) at a time step: the observation there is impossible
 * under every particle, usually an outlier the model cannot explain or a model whose observation density is too
 * narrow. It is a problem of the data or the model's configuration, so it is an {@link InvalidInputException}.
 */
public class WeightCollapseException extends InvalidInputException {
    private static final long serialVersionUID = 1L;

    private final int step;

    public WeightCollapseException(int step, long particles) {
        super("weight collapse at time step " + step + " (0-based): all " + particles
                + " particle log-weights are -Infinity, so the observation there has zero density under every"
                + " particle; check that observation, widen the observation noise, or use more particles");
        this.step = step;
    }

    /** The 0-based time step at which all weights became zero. */
    public int step() {
        return step;
    }
}
