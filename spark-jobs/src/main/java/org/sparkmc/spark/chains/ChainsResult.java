package org.sparkmc.spark.chains;

import java.util.List;
import org.sparkmc.core.diagnostics.FullParameterSummary;
import org.sparkmc.spark.diagnose.ParameterResult;

/**
 * The outcome of a {@code chains} run: per-parameter summaries and plot data of the kept draws (the target's
 * parameters, then lp__), whether the stopping rule was met, and the per-round history.
 */
public record ChainsResult(List<ParameterResult> results, boolean converged, int samplingRounds,
        int drawsPerChain, double seconds, double acceptance, List<RoundSummary> history) {

    public List<FullParameterSummary> parameters() {
        return results.stream().map(ParameterResult::summary).toList();
    }
}
