package org.sparkmc.core.diagnostics;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * The summaries of {@link FullParameterSummary#of} and {@link ParameterSummary#of} split into their independent
 * parts, each a task on a given executor, so that a few parameters can keep several threads busy.
 *
 * <p>Once one parameter's draws are sorted, its R-hat and bulk ESS (rank-normalised split chains), its tail R-hat
 * (folded draws), each quantile's ESS and MCSE, and the plain quantiles no longer depend on each other; the mean,
 * the sd with its ESS and MCSE, the ESS of the mean and the basic R-hat need no sort at all and start at once.
 * These parts are the only definition of the two summaries: {@link FullParameterSummary#of} and
 * {@link ParameterSummary#of} run them one after the other on the caller's thread, so the results are equal bit for
 * bit whatever the executor (each part runs on one thread; the FFT buffers are per thread). The lazily cached
 * rank-normalised draws of {@link PooledDraws} are computed by one task only and handed to those that need them.
 *
 * <p>Draws beyond 2^±200 in magnitude are summarised scaled by a power of two, which is exact: their squared
 * deviations overflowed to NaN sds and R-hats, or underflowed to an sd of 0. Tiny draws keep
 * posterior's verdict that they are constant (range below 2^−52): their R-hat and ESS stay NA.
 */
public final class SummaryTasks {
    private SummaryTasks() {
    }

    /**
     * {@link FullParameterSummary#of}{@code (name, draws)}, its parts run on {@code executor}. The draws must not
     * change until the future completes.
     *
     * @throws IllegalArgumentException at once if the draws are not a non-empty rectangular array
     */
    public static CompletableFuture<FullParameterSummary> full(String name, double[][] draws, Executor executor) {
        return atSafeScale(draws, d -> fullAsGiven(name, d, executor), FullParameterSummary::rescaled);
    }

    /** {@link #full} of draws whose squares neither overflow nor underflow. */
    private static CompletableFuture<FullParameterSummary> fullAsGiven(String name, double[][] draws,
            Executor executor) {
        CompletableFuture<PooledDraws> pooled = CompletableFuture.supplyAsync(() -> PooledDraws.of(draws), executor);
        // needing no sort: the moments with the sd's ESS and MCSE, and the split chains' ESS of the mean and R-hat
        CompletableFuture<double[]> moments = CompletableFuture.supplyAsync(() -> {
            double mean = Draws.mean(draws);
            double sd = Math.sqrt(Draws.variance(draws, mean));
            double[][] squared = Draws.squaredDeviations(draws, mean);
            double essSd = EffectiveSampleSize.sdOfSquared(squared);
            return new double[] {mean, sd, essSd, MonteCarloStandardError.sdOfSquared(squared, essSd)};
        }, executor);
        CompletableFuture<double[]> split = CompletableFuture.supplyAsync(() -> {
            double[][] halves = Draws.split(draws);
            if (Draws.shouldReturnNaN(halves)) { // checked once for both
                return new double[] {Double.NaN, Double.NaN};
            }
            return new double[] {GeyerEss.essOfChecked(halves), Rhat.ofCheckedChains(halves)};
        }, executor);
        // after the sort
        CompletableFuture<double[]> bulk = pooled.thenApplyAsync(SummaryTasks::bulk, executor);
        CompletableFuture<Double> tail = pooled.thenApplyAsync(
                p -> Rhat.ofCheckedChains(p.foldedRankNormalizedSplit()), executor);
        CompletableFuture<double[]> q5 = pooled.thenApplyAsync(p -> quantileParts(p, 0.05), executor);
        CompletableFuture<double[]> q95 = pooled.thenApplyAsync(p -> quantileParts(p, 0.95), executor);
        CompletableFuture<double[]> q50 = pooled.thenApplyAsync(p -> quantileParts(p, 0.5), executor);
        CompletableFuture<double[]> plain = pooled.thenApplyAsync(p -> new double[] {p.median(),
            PooledStatistics.mad(p), p.quantile(0.05), p.quantile(0.95)}, executor);
        return CompletableFuture.allOf(moments, split, bulk, tail, q5, q95, q50, plain).thenApply(done -> {
            double[] m = moments.join();
            double[] s = split.join();
            double[] b = bulk.join();
            double[] l = q5.join();
            double[] u = q95.join();
            double[] h = q50.join();
            double[] p = plain.join();
            double sd = m[1];
            double essMean = s[0];
            return new FullParameterSummary(name, m[0], p[0], sd, p[1], p[2], p[3],
                    Math.max(b[0], tail.join()), s[1],
                    b[1], Math.min(l[0], u[0]), essMean, essMean, m[2],
                    l[0], u[0], h[0],
                    sd / Math.sqrt(essMean), m[3], l[1], u[1], h[1]);
        });
    }

    /**
     * {@link ParameterSummary#of}{@code (name, draws)}, its parts run on {@code executor}. The draws must not change
     * until the future completes.
     *
     * @throws IllegalArgumentException at once if the draws are not a non-empty rectangular array
     */
    public static CompletableFuture<ParameterSummary> brief(String name, double[][] draws, Executor executor) {
        return atSafeScale(draws, d -> briefAsGiven(name, d, executor), ParameterSummary::rescaled);
    }

    /**
     * {@code summary} of the draws at a safe scale ({@link Draws#atSafeScale}): the summary's future, scaled back by
     * {@code back} when it completes (with the future of the draws' own summary, for tiny draws).
     */
    private static <S> CompletableFuture<S> atSafeScale(double[][] draws,
            Function<double[][], CompletableFuture<S>> summary, Draws.Rescaling<S> back) {
        Draws.validate(draws);
        return Draws.atSafeScale(draws, summary, (scaled, exponent, own) -> scaled == own
                ? scaled.thenApply(s -> back.of(s, exponent, s))
                : scaled.thenCombine(own, (s, o) -> back.of(s, exponent, o)));
    }

    /** {@link #brief} of draws whose squares neither overflow nor underflow. */
    private static CompletableFuture<ParameterSummary> briefAsGiven(String name, double[][] draws,
            Executor executor) {
        CompletableFuture<PooledDraws> pooled = CompletableFuture.supplyAsync(() -> PooledDraws.of(draws), executor);
        CompletableFuture<double[]> moments = CompletableFuture.supplyAsync(() -> {
            double mean = Draws.mean(draws);
            double sd = Math.sqrt(Draws.variance(draws, mean));
            return new double[] {mean, sd, sd / Math.sqrt(GeyerEss.ess(Draws.split(draws)))};
        }, executor);
        CompletableFuture<double[]> bulk = pooled.thenApplyAsync(SummaryTasks::bulk, executor);
        CompletableFuture<Double> tail = pooled.thenApplyAsync(
                p -> Rhat.ofCheckedChains(p.foldedRankNormalizedSplit()), executor);
        CompletableFuture<Double> essQ5 = pooled.thenApplyAsync(p -> EffectiveSampleSize.quantile(p, 0.05), executor);
        CompletableFuture<Double> essQ95 = pooled.thenApplyAsync(p -> EffectiveSampleSize.quantile(p, 0.95),
                executor);
        return CompletableFuture.allOf(pooled, moments, bulk, tail, essQ5, essQ95).thenApply(done -> {
            PooledDraws p = pooled.join();
            double[] m = moments.join();
            double[] b = bulk.join();
            return new ParameterSummary(name, m[0], m[1], p.quantile(0.05), p.median(), p.quantile(0.95),
                    Math.max(b[0], tail.join()), b[1], Math.min(essQ5.join(), essQ95.join()), m[2]);
        });
    }

    /** The future's value, with a part's own exception rethrown as it was thrown rather than wrapped. */
    public static <T> T now(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    /**
     * The bulk R-hat and the bulk ESS from the rank-normalised split chains, computed here once (the only task
     * that asks {@link PooledDraws#rankNormalizedSplit()}, whose cache is not safe across threads).
     */
    private static double[] bulk(PooledDraws pooled) {
        double[][] z = pooled.rankNormalizedSplit();
        return new double[] {Rhat.ofCheckedChains(z), z == null ? Double.NaN : GeyerEss.essOfChecked(z)};
    }

    /** A quantile's ESS and its MCSE, as the full summary computes them. */
    private static double[] quantileParts(PooledDraws pooled, double p) {
        double ess = EffectiveSampleSize.quantile(pooled, p);
        return new double[] {ess, MonteCarloStandardError.quantile(pooled, p, ess)};
    }
}
