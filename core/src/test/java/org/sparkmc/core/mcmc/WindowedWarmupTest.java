package org.sparkmc.core.mcmc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.sparkmc.core.catalog.KernelCatalog;
import org.sparkmc.core.diagnostics.EffectiveSampleSize;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.testing.Json;
import org.sparkmc.core.testing.LinearModel;

/**
 * Issue 21 item 5, "adaptation that survives a bad start": the two posteriordb posteriors on which {@code am} and
 * {@code rwm} failed with default settings, each with an exact reference ({@link LinearModel#reference()}, quadrature
 * over log σ): {@code arK-arK} (AR(5) on posteriordb's series, 7 parameters, {@code data/arK}) and a regression
 * shaped as {@code sblrc-blr} (6 parameters, coefficients with sd ≈ 0.001 beside log σ with sd ≈ 0.07; simulated
 * data, see {@link LinearModel#badlyScaled}).
 *
 * <p>Every run uses the chains job's defaults: 8 chains, each started uniformly on (−2, 2) in every unconstrained
 * coordinate ({@code Target.initialPosition}), {@code --scale 1}, adaptation on, 1,000 warm-up iterations; then
 * 10,000 kept draws per chain (ten of the job's default rounds). A kernel converges when every reported quantity has
 * rank-normalised split R-hat &lt; 1.01 and a mean within 4 MCSE of the exact mean. Fixed seeds, so the default suite
 * is deterministic. False failures for fresh seeds: the mean check fails a converged run with probability ≈ 6.3e-5
 * per quantity (two-sided normal tail beyond 4), ≈ 4e-4 for a run's 6 or 7 quantities; R-hat's were measured
 * ({@link #convergesForTwentySeeds}, tagged heavy, 2026-11-27): 0 of 40 runs of {@code am} and 0 of 20 of {@code
 * rwm} on the regression failed (largest R-hat 1.0057), 1 of 20 of {@code rwm} on arK at 40,000 draws per chain
 * (R-hat 1.013; hence 80,000 for that case).
 */
class WindowedWarmupTest {
    /** The chains job's defaults ({@code ChainsCommand}): scale 1, adaptation on, default acceptance, 1,000 warm-up. */
    static final KernelSettings DEFAULTS = new KernelSettings(1, true, Double.NaN, 1, 1000);
    static final int CHAINS = 8;
    static final int DRAWS = 10_000;

    static LinearModel arK() {
        double[] y = Json.arrays(Path.of("../data/arK/arK.json")).get("y");
        assertEquals(200, y.length);
        return LinearModel.autoregressive(y, 5);
    }

    static LinearModel regression() {
        return LinearModel.badlyScaled(new RandomStreams(6).rng("regression"));
    }

    static LinearModel posterior(String name) {
        return name.equals("arK") ? arK() : regression();
    }

    /**
     * One run's check: what failed (empty when the kernel converged), the largest R-hat, the smallest bulk ESS and
     * the largest |mean − exact| / MCSE over the reported quantities.
     */
    record Check(List<String> failures, double maxRhat, double minEss, double maxErrorInMcse) {
        @Override
        public String toString() {
            return String.format("max R-hat %.4f, min bulk ESS %.0f, max |mean - exact| %.2f MCSE%s", maxRhat,
                    minEss, maxErrorInMcse, failures.isEmpty() ? "" : ", failed: " + failures);
        }
    }

    /** Runs {@code kernel} on {@code target} with the defaults and checks the draws against the exact answer. */
    static Check check(LinearModel target, Kernel<?> kernel, long seed) {
        return check(target, kernel, seed, DRAWS);
    }

    /** {@link #check(LinearModel, Kernel, long)} with {@code draws} kept draws per chain. */
    static Check check(LinearModel target, Kernel<?> kernel, long seed, int draws) {
        RunChains.Result r = RunChains.run(target, kernel, CHAINS, DEFAULTS.warmup(), draws, seed);
        double[][] exact = target.reference();
        List<String> names = target.parameterNames();
        List<String> failed = new ArrayList<>();
        double maxRhat = 0;
        double minEss = Double.POSITIVE_INFINITY;
        double maxError = 0;
        for (int p = 0; p < names.size(); p++) {
            double rhat = r.rhat(p);
            double error = Math.abs(r.mean(p) - exact[p][0]) / r.mcse(p);
            maxRhat = Math.max(maxRhat, rhat);
            minEss = Math.min(minEss, EffectiveSampleSize.bulk(r.draws()[p]));
            maxError = Math.max(maxError, error);
            if (!(rhat < 1.01)) {
                failed.add(names.get(p) + ": R-hat " + rhat);
            }
            if (!(error < 4)) {
                failed.add(names.get(p) + ": mean " + r.mean(p) + " vs exact " + exact[p][0] + " (sd " + exact[p][1]
                        + ", MCSE " + r.mcse(p) + ")");
            }
        }
        return new Check(failed, maxRhat, minEss, maxError);
    }

    /**
     * Our copy of the series is posteriordb's: the exact means agree with posteriordb's reference means of arK-arK
     * (NUTS draws, reference_posteriors/summary_statistics/mean/mean/arK-arK.json) within 4 of their MCSE.
     * Deterministic.
     */
    @Test
    void theSeriesIsPosteriordbs() {
        double[] mean = {-0.000718650251261263, 0.692163279812727, 0.439043080115602, 0.105816025140126,
            -0.0354350382459401, -0.301512065609031, 0.150566659032913};
        double[] mcse = {0.000106240747686088, 0.000722052266688382, 0.000907972815290037, 0.000922855852323399,
            0.000854130749737874, 0.000699559554459409, 7.96546722860024e-05};
        double[][] exact = arK().reference();
        for (int p = 0; p < mean.length; p++) {
            assertEquals(mean[p], exact[p][0], 4 * mcse[p], "parameter " + p);
        }
    }

    /** The regression is as badly scaled as the one held back: coefficient sds ≈ 0.001, log σ's ≈ 0.07. */
    @Test
    void theRegressionIsBadlyScaled() {
        double[][] exact = regression().reference();
        for (int p = 0; p < 5; p++) {
            assertTrue(exact[p][1] > 5e-4 && exact[p][1] < 2e-3, "coefficient sd " + exact[p][1]);
        }
        double sdLogSigma = exact[5][1] / exact[5][0];
        assertTrue(sdLogSigma > 0.05 && sdLogSigma < 0.1, "sd of log sigma " + sdLogSigma);
    }

    /**
     * Each kernel with the defaults, 10,000 draws per chain; {@code rwm} on arK 80,000: its one step size per
     * coordinate cannot follow the strong correlations of the lag coefficients, its bulk ESS is about 0.5% of the
     * draws, and R-hat falls below 1.01 only after 20,000–40,000 draws per chain (measured: 1.025–1.030 at 10,000,
     * seeds 501–505; 1.009–1.013 at 20,000, seeds 501–503; above 1.01 in 1 of 20 seeds at 40,000, in none of those
     * run at 80,000). That is mixing, not the start: its means agree at 10,000 already.
     */
    @ParameterizedTest(name = "{1} on {0}")
    @CsvSource({"arK, am, 501, 10000", "arK, rwm, 502, 80000", "regression, am, 503, 10000",
        "regression, rwm, 504, 10000", "regression, nuts, 505, 10000"})
    void convergesWithTheDefaults(String posterior, String kernelName, long seed, int draws) {
        LinearModel target = posterior(posterior);
        Check c = check(target, KernelCatalog.create(kernelName, DEFAULTS, target), seed, draws);
        System.out.printf("WindowedWarmupTest %s on %s, seed %d, %d draws per chain: %s%n", kernelName, posterior,
                seed, draws, c);
        assertTrue(c.failures().isEmpty(), kernelName + " on " + posterior + ": " + c);
    }

    /**
     * The check can fail: the same windows without the climb sweeps (this kernel before them) leave chains of the
     * regression climbing after warm-up with a frozen covariance learnt on the way (measured: max R-hat 2.27 for am,
     * 1.57 for rwm).
     */
    @ParameterizedTest(name = "diagonal={0}")
    @CsvSource({"false, 503", "true, 504"})
    void withoutClimbSweepsTheRegressionFails(boolean diagonal, long seed) {
        LinearModel target = regression();
        Kernel<?> windowsOnly = AdaptiveMetropolis.withoutSweeps(DEFAULTS.scale(), DEFAULTS.targetAcceptance(),
                diagonal, DEFAULTS.warmup());
        Check c = check(target, windowsOnly, seed);
        System.out.printf("WindowedWarmupTest %s without sweeps on regression, seed %d: %s%n",
                diagonal ? "rwm" : "am", seed, c);
        assertFalse(c.failures().isEmpty());
    }

    /**
     * 20 seeds for each of am and rwm on both posteriors (80 runs, 10–20 minutes; rwm on arK with 80,000 draws per
     * chain as above): at most one failure per kernel and posterior. With ≈ 5e-4 false failures per run, 2 or more of
     * 20 happen with probability ≈ 5e-5 for a kernel that converges; a kernel that strands a chain in one run of ten
     * fails with probability ≈ 0.6.
     */
    @Test
    @Tag("heavy")
    void convergesForTwentySeeds() {
        for (String posterior : List.of("arK", "regression")) {
            LinearModel target = posterior(posterior);
            for (String kernelName : List.of("am", "rwm")) {
                Kernel<?> kernel = KernelCatalog.create(kernelName, DEFAULTS, target);
                int draws = posterior.equals("arK") && kernelName.equals("rwm") ? 80_000 : DRAWS;
                List<String> failedRuns = new ArrayList<>();
                for (long seed = 1; seed <= 20; seed++) {
                    Check c = check(target, kernel, 7000 + seed, draws);
                    System.out.printf("WindowedWarmupTest %s on %s, seed %d: %s%n", kernelName, posterior,
                            7000 + seed, c);
                    if (!c.failures().isEmpty()) {
                        failedRuns.add("seed " + (7000 + seed) + ": " + c);
                    }
                }
                assertTrue(failedRuns.size() <= 1, kernelName + " on " + posterior + ": " + failedRuns);
            }
        }
    }
}
