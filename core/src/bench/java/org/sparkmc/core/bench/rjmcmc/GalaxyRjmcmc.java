package org.sparkmc.core.bench.rjmcmc;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.sparkmc.core.diagnostics.EffectiveSampleSize;
import org.sparkmc.core.diagnostics.PooledStatistics;
import org.sparkmc.core.diagnostics.Rhat;
import org.sparkmc.core.mcmc.ChainRound;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.RoundResult;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.rjmcmc.MixturePrior;
import org.sparkmc.core.rjmcmc.ModelProbabilities;
import org.sparkmc.core.rjmcmc.MoveRate;
import org.sparkmc.core.rjmcmc.NormalMixture;
import org.sparkmc.core.rjmcmc.PredictiveDensity;
import org.sparkmc.core.rjmcmc.RjmcmcKernel;

/**
 * Richardson &amp; Green's galaxy analysis with the project's RJMCMC, run as the chains job runs it (ChainRound per
 * chain, streams keyed by (chain, round)) but in a plain loop on {@code threads} threads: prints p(k | y) for
 * k = 1..15 with MCSE next to R&amp;G's Table 1, R-hat and bulk ESS of k and of label-invariant quantities, per-move
 * acceptance rates, sweeps per second per thread and ESS of k per second; writes the predictive density with 90%
 * pointwise bands as a PNG (the {@code chains} job's report draws the same plot as SVG).
 *
 * <p>Usage: {@code mvn -B -o -Pbench -pl core test-compile exec:java
 * -Dexec.mainClass=org.sparkmc.core.bench.rjmcmc.GalaxyRjmcmc -Dexec.classpathScope=test
 * -Dexec.args="chains warmup sweeps threads out.png"} (defaults 16 20000 200000 2 target/galaxy-predictive.png).
 */
public final class GalaxyRjmcmc {
    /** Richardson &amp; Green (1997), Table 1, galaxy column: p(k | y) for k = 3..10 (their prior, kmax = 30). */
    static final double[] RG_TABLE1 = {0.061, 0.128, 0.182, 0.199, 0.160, 0.109, 0.071, 0.040};

    private GalaxyRjmcmc() {
    }

    public static void main(String[] args) throws Exception {
        int chains = args.length > 0 ? Integer.parseInt(args[0]) : 16;
        int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        int sweeps = args.length > 2 ? Integer.parseInt(args[2]) : 200_000;
        int threads = args.length > 3 ? Integer.parseInt(args[3]) : 2;
        Path png = Path.of(args.length > 4 ? args[4] : "target/galaxy-predictive.png");
        double[] y = readGalaxies(sharedData().resolve("galaxy/galaxies_corrected_obs78_26960.csv"));
        for (int i = 0; i < y.length; i++) {
            y[i] /= 1000;
        }
        double[] grid = NormalMixture.evenGrid(5, 40, 71);
        NormalMixture target = new NormalMixture(y, MixturePrior.richardsonGreen(y, 30), grid);
        org.sparkmc.core.mcmc.ObservedKernel<Void> kernel = RjmcmcKernel.ofTargetSweep().counted();
        RandomStreams streams = new RandomStreams(20261122);
        System.out.printf(Locale.ROOT, "galaxy (n=%d, corrected obs 78, 1000 km/s), %s%n%d chains × (%d warm-up + %d) "
                + "sweeps on %d threads, %s, %d cores%n", y.length, target.prior(), chains, warmup, sweeps, threads,
                java.time.LocalDate.now(), Runtime.getRuntime().availableProcessors());

        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<long[]>> timings = new ArrayList<>();
        RoundResult[] results = new RoundResult[chains];
        long wall0 = System.nanoTime();
        for (int c = 0; c < chains; c++) {
            int chain = c;
            timings.add(pool.submit(() -> {
                ChainState s = ChainRound.start(chain + 1, target, kernel, streams);
                long t0 = System.nanoTime();
                s = ChainRound.run(target, kernel, s, 1, warmup, true, false, streams).state();
                long t1 = System.nanoTime();
                results[chain] = ChainRound.run(target, kernel, s, 2, sweeps, false, true, streams);
                long t2 = System.nanoTime();
                return new long[] {t1 - t0, t2 - t1};
            }));
        }
        double cpuSampling = 0;
        double cpuWarmup = 0;
        for (Future<long[]> f : timings) {
            long[] t = f.get();
            cpuWarmup += t[0] / 1e9;
            cpuSampling += t[1] / 1e9;
        }
        pool.shutdown();
        double wall = (System.nanoTime() - wall0) / 1e9;

        List<String> names = target.parameterNames();
        double[][][] draws = new double[names.size()][chains][];
        List<ChainState> states = new ArrayList<>();
        for (int c = 0; c < chains; c++) {
            for (int p = 0; p < names.size(); p++) {
                draws[p][c] = results[c].draws()[p];
            }
            states.add(results[c].state());
        }
        double[][] k = draws[0];
        System.out.println("\n| k | p(k|y) | MCSE | R&G 1997 Table 1 |");
        System.out.println("|---|---|---|---|");
        for (ModelProbabilities.Row r : ModelProbabilities.of(k, 1, 15)) {
            String rg = r.model() >= 3 && r.model() <= 10 ? String.format(Locale.ROOT, "%.3f",
                    RG_TABLE1[r.model() - 3]) : "";
            System.out.printf(Locale.ROOT, "| %d | %.4f | %s | %s |%n", r.model(), r.probability(),
                    Double.isNaN(r.mcse()) ? "–" : String.format(Locale.ROOT, "%.4f", r.mcse()), rg);
        }
        System.out.println("\n| quantity | mean | R-hat | bulk ESS |");
        System.out.println("|---|---|---|---|");
        int[] shown = {0, 1, 2, 3, 4 + index(grid, 10), 4 + index(grid, 20), 4 + index(grid, 23), 4 + index(grid, 33)};
        double worstRhat = 0;
        for (int p = 0; p < names.size(); p++) {
            worstRhat = Math.max(worstRhat, Rhat.rhat(draws[p]));
        }
        for (int p : shown) {
            String name = names.get(p) + (p >= 4 ? String.format(Locale.ROOT, " (t=%.2f)", grid[p - 4]) : "");
            System.out.printf(Locale.ROOT, "| %s | %.4g | %.4f | %.0f |%n", name, PooledStatistics.mean(draws[p]),
                    Rhat.rhat(draws[p]), EffectiveSampleSize.bulk(draws[p]));
        }
        System.out.printf(Locale.ROOT, "max R-hat over all %d reported quantities: %.4f%n", names.size(), worstRhat);
        System.out.println("\nacceptance per move (sampling): "
                + org.sparkmc.core.rjmcmc.MoveCounter.rates(kernel, target, states, false));
        double essK = EffectiveSampleSize.bulk(k);
        System.out.printf(Locale.ROOT, "%nsweeps/s per thread: %.0f in warm-up (sweeps only), %.0f in sampling "
                + "(sweep + recording %d quantities); wall %.1f s%nbulk ESS of k: %.0f from %d draws; ESS of k per "
                + "second of sampling thread time: %.1f%n", (double) chains * warmup / cpuWarmup,
                (double) chains * sweeps / cpuSampling, names.size(), wall, essK, chains * sweeps, essK / cpuSampling);

        PredictiveDensity pd = PredictiveDensity.of(grid, java.util.Arrays.copyOfRange(draws, 4, draws.length), 0.05,
                0.95);
        Files.createDirectories(png.toAbsolutePath().getParent());
        PngPlot.write(pd, y, String.format(Locale.ROOT, "Galaxy data: RJMCMC predictive density (%d chains × %d "
                + "sweeps)", chains, sweeps), png);
        System.out.println("wrote " + png.toAbsolutePath());
    }

    private static int index(double[] grid, double t) {
        int best = 0;
        for (int i = 0; i < grid.length; i++) {
            if (Math.abs(grid[i] - t) < Math.abs(grid[best] - t)) {
                best = i;
            }
        }
        return best;
    }

    static Path sharedData() {
        String p = System.getProperty("sparkmc.shared.data");
        for (String c : new String[] {p, System.getenv("SPARKMC_SHARED_DATA"), "../../shared/data", "../shared/data",
            "/work/shared/data"}) {
            if (c != null && Files.isDirectory(Path.of(c).resolve("galaxy"))) {
                return Path.of(c);
            }
        }
        throw new IllegalStateException("shared data (galaxy/) not found; set -Dsparkmc.shared.data");
    }

    static double[] readGalaxies(Path csv) throws IOException {
        List<String> lines = Files.readAllLines(csv);
        return lines.stream().skip(1).filter(l -> !l.isBlank()).mapToDouble(l -> Double.parseDouble(l.trim()))
                .toArray();
    }
}
