package org.sparkmc.spark.smc;

import java.util.List;

/**
 * A finished {@code smc} run: log p̂(y), every step's row, how many steps resampled, wall time, the observation
 * columns and where they came from.
 */
public record SmcResult(double logLikelihood, List<StepRow> rows, int resamplings, double seconds,
        List<String> observationColumns, String source, boolean online) {
    public SmcResult {
        rows = List.copyOf(rows);
        observationColumns = List.copyOf(observationColumns);
    }

    public int steps() {
        return rows.size();
    }
}
