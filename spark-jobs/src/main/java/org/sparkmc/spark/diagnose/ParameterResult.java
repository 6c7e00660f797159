package org.sparkmc.spark.diagnose;

import java.io.Serializable;
import org.sparkmc.core.diagnostics.FullParameterSummary;
import org.sparkmc.spark.report.ParameterPlots;

/** Everything reported for one parameter: its full posterior-style summary and its plot data. */
public record ParameterResult(FullParameterSummary summary, ParameterPlots plots) implements Serializable {

    public static ParameterResult of(String name, double[][] draws) {
        return new ParameterResult(FullParameterSummary.of(name, draws), ParameterPlots.of(draws));
    }
}
