package org.sparkmc.spark.diagnose;

import java.io.Serializable;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.sparkmc.core.diagnostics.FullParameterSummary;
import org.sparkmc.core.diagnostics.ParameterSummary;
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

    /**
     * The {@code most} results a report plots, worst first: those that fail by {@code thresholds} before those that
     * pass, each by R-hat, highest first. An undefined R-hat ranks highest where it fails (draws that vary: R-hat in
     * effect ∞, as is a chain stuck at a value of its own) and lowest where it passes (a constant: nothing to see).
     * The one order of the {@code diagnose} and {@code chains} reports.
     */
    public static List<ParameterResult> worstFirst(List<ParameterResult> results, Thresholds thresholds, int most) {
        List<ParameterSummary> summaries = results.stream().map(r -> r.summary().brief()).toList();
        Set<String> failing = thresholds.failing(summaries).keySet();
        Comparator<ParameterResult> order = Comparator.comparing((ParameterResult r) -> !failing.contains(r.summary()
                .name())).thenComparing(Comparator.comparingDouble((ParameterResult r) -> {
                    double rhat = r.summary().rhat();
                    return !Double.isNaN(rhat) ? rhat : failing.contains(r.summary().name())
                            ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
                }).reversed());
        return results.stream().sorted(order).limit(most).toList();
    }
}
