package org.sparkmc.spark.smc;

import java.io.Serializable;
import org.sparkmc.core.smc.StepSummary;

/**
 * One time step as the driver records it: its 0-based index, its time label (the data's time column, else the
 * index), the observation (NaN where missing) and what the step produced. A few numbers per step: no particles.
 */
public record StepRow(int step, double time, double[] observation, StepSummary summary) implements Serializable {
}
