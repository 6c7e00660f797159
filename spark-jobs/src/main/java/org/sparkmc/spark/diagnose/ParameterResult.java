package org.sparkmc.spark.diagnose;

import java.io.Serializable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.sparkmc.core.diagnostics.FullParameterSummary;
import org.sparkmc.core.diagnostics.SummaryTasks;
import org.sparkmc.spark.report.ParameterPlots;

/** Everything reported for one parameter: its full posterior-style summary and its plot data. */
public record ParameterResult(FullParameterSummary summary, ParameterPlots plots) implements Serializable {

    public static ParameterResult of(String name, double[][] draws) {
        return new ParameterResult(FullParameterSummary.of(name, draws), ParameterPlots.of(draws));
    }

    /**
     * {@link #of}, its summary split into parts ({@link SummaryTasks#full}) and its plot data another part, all run
     * on {@code executor}; equal to {@link #of} bit for bit.
     */
    public static CompletableFuture<ParameterResult> of(String name, double[][] draws, Executor executor) {
        CompletableFuture<FullParameterSummary> summary = SummaryTasks.full(name, draws, executor);
        CompletableFuture<ParameterPlots> plots = CompletableFuture.supplyAsync(() -> ParameterPlots.of(draws),
                executor);
        return summary.thenCombine(plots, ParameterResult::new);
    }
}
