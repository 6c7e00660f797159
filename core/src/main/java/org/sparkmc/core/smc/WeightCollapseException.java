package org.sparkmc.core.smc;

import org.sparkmc.core.InvalidInputException;

/**
 * The particles' weights failed at a time step: every weight became zero (all log-weights −∞: the observation there is
 * impossible under every particle, usually an outlier the model cannot explain or a model whose observation density
 * is too narrow), or the model gave a particle a log-weight of NaN or +∞ ({@link #nonFinite}: numbers that overflow
 * with the model's parameters, or a model's bug). It is a problem of the data or the model's configuration, so it is
 * an {@link InvalidInputException}.
 */
public class WeightCollapseException extends InvalidInputException {
    private static final long serialVersionUID = 1L;

    private final int step;

    public WeightCollapseException(int step, long particles) {
        this(step, "weight collapse at time step " + step + " (0-based): all " + particles
                + " particle log-weights are -Infinity, so the observation there has zero density under every"
                + " particle; check that observation, widen the observation noise, or use more particles");
    }

    private WeightCollapseException(int step, String message) {
        super(message);
        this.step = step;
    }

    /**
     * A log-weight of NaN or +∞ for a particle of {@code block} at {@code step}.
     *
     * @param logWeight the log-weight found (NaN or +∞)
     */
    public static WeightCollapseException nonFinite(int step, int block, double logWeight) {
        return new WeightCollapseException(step, "non-finite weights at time step " + step + " (0-based): the model "
                + "gave a particle of block " + block + " the log-weight " + logWeight + " (its densities returned NaN"
                + " or +Infinity), so the weights cannot be normalised; with these model parameters its numbers "
                + "overflow or are undefined: check them (values near ±1e308, a variance of 0) or the model");
    }

    /** The 0-based time step at which the weights failed. */
    public int step() {
        return step;
    }
}
