package org.sparkmc.core.rjmcmc;

import java.util.List;
import org.sparkmc.core.model.Target;

/**
 * A target on a union of models of different dimensions, sampled by {@link RjmcmcKernel}. Its position starts with
 * the model index m; {@link #dimension()} is the largest position length (a kernel's state does not depend on it).
 * It defines its own sweep of moves, because only it knows its encoding; {@link #parameters} must map every position
 * to the same fixed list of reported quantities (m and label-invariant functionals such as a density on a fixed
 * grid), so that draws from different models line up in columns.
 */
public interface TransDimensionalTarget extends Target {

    /** The model index m of a position (by default {@code (int) position[0]}). */
    default int model(double[] position) {
        return (int) position[0];
    }

    /** The moves one sweep applies, in order (the same list every call). */
    List<Move> sweep();
}
