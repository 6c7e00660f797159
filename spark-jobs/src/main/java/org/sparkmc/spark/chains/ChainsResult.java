package org.sparkmc.spark.chains;

import java.util.List;
import org.sparkmc.core.diagnostics.ParameterSummary;

/**
 * The outcome of a {@code chains} run: per-parameter summaries of the kept draws, whether the stopping rule was
 * met, and the per-round history.
 */
public record ChainsResult(List<ParameterSummary> parameters, boolean converged, int samplingRounds,
        int drawsPerChain, double seconds, double acceptance, List<RoundSummary> history) {
}
