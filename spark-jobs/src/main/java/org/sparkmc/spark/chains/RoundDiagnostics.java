package org.sparkmc.spark.chains;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import java.util.function.ToDoubleFunction;
import java.util.stream.IntStream;
import org.sparkmc.core.diagnostics.ParameterSummary;
import org.sparkmc.core.diagnostics.SummaryTasks;
import org.sparkmc.spark.diagnose.ParameterResult;

/**
 * A sampling round's diagnostics in the {@code chains} job: the worst R-hat, bulk ESS and tail ESS over the summarised
 * parameters (skipping undefined ones) to show, each parameter's brief summary to judge, with the last round the full
 * summaries ({@code full}, else null), and the seconds they took. {@link #onDriver} computes them from the driver's
 * copy of the draws.
 */
record RoundDiagnostics(double maxRhat, double minBulk, double minTail, List<ParameterSummary> briefs,
        List<ParameterResult> full, double seconds) {

    static RoundDiagnostics of(List<ParameterSummary> briefs, List<ParameterResult> full, long startedNanos) {
        return new RoundDiagnostics(worst(briefs, ParameterSummary::rhat, true),
                worst(briefs, ParameterSummary::essBulk, false), worst(briefs, ParameterSummary::essTail, false),
                briefs, full, (System.nanoTime() - startedNanos) / 1e9);
    }

    static RoundDiagnostics ofFull(List<ParameterResult> full, long startedNanos) {
        return of(full.stream().map(r -> r.summary().brief()).toList(), full, startedNanos);
    }

    /**
     * The diagnostics of {@code upTo} (parameters named {@code names}, in order), brief or {@code full}: each
     * parameter's summary split into its independent parts, all parts of all parameters run on {@code threads}, so
     * that a few parameters still keep every core busy. The results do not depend on the thread count.
     */
    static CompletableFuture<RoundDiagnostics> onDriver(List<String> names, boolean full, PooledDraws upTo,
            Executor threads) {
        long t0 = System.nanoTime();
        if (full) {
            return everyParameter(names.size(), p -> ParameterResult.of(names.get(p), upTo.parameter(p), threads))
                    .thenApply(results -> ofFull(results, t0));
        }
        return everyParameter(names.size(), p -> SummaryTasks.brief(names.get(p), upTo.parameter(p), threads))
                .thenApply(briefs -> of(briefs, null, t0));
    }

    /** A pool of one daemon thread per core for the driver-side diagnostics. */
    static ExecutorService threads() {
        AtomicInteger count = new AtomicInteger();
        return Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors(), r -> {
            Thread t = new Thread(r, "sparkmc-chains-diagnostics-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** Every parameter's future, in parameter order, as one future. */
    private static <R> CompletableFuture<List<R>> everyParameter(int parameters,
            IntFunction<CompletableFuture<R>> summary) {
        List<CompletableFuture<R>> parts = IntStream.range(0, parameters).mapToObj(summary).toList();
        return CompletableFuture.allOf(parts.toArray(CompletableFuture[]::new))
                .thenApply(done -> parts.stream().map(CompletableFuture::join).toList());
    }

    /**
     * The worst value over parameters, skipping undefined ones (posterior gives NA, e.g. the tail ESS of an
     * indicator that is constant beyond a quantile); NaN only when every parameter's value is undefined.
     */
    private static double worst(List<ParameterSummary> summaries, ToDoubleFunction<ParameterSummary> statistic,
            boolean max) {
        return summaries.stream().mapToDouble(statistic).filter(v -> !Double.isNaN(v))
                .reduce(max ? Math::max : Math::min).orElse(Double.NaN);
    }
}
