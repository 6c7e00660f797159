package org.sparkmc.core.smc;

import java.util.List;

/** A particle filter's run: log p̂(y_{0:T−1}) and the per-step summaries. */
public record FilterResult(double logLikelihood, long particles, List<StepSummary> steps) {
    public FilterResult {
        steps = List.copyOf(steps);
    }
}
