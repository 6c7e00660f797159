package org.sparkmc.core.bench.smc;

import java.io.IOException;
import java.io.Reader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.NormalizedGaussianSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.smc.ObservationCsv;
import org.sparkmc.core.smc.ParticleFilter;
import org.sparkmc.core.smc.ParticleKernel;
import org.sparkmc.core.smc.SmcOptions;
import org.sparkmc.core.smc.models.KalmanFilter;
import org.sparkmc.core.smc.models.LocalLevelModel;

/**
 * The bootstrap filter on the Nile local-level model, one thread: (1) particle-steps per second of
 * {@link ParticleFilter} (systematic, τ = 0.5, blocks of 4096) and of a plain single-array loop with the same
 * generator, for N = 10^4..10^6; (2) the error of log p̂ against the Kalman filter's exact log-likelihood as N grows
 * (10^3..10^6). Prints two tables.
 *
 * <p>Run from the worktree: {@code mvn -B -o -Pbench -pl core test-compile dependency:build-classpath
 * -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.cp}, then {@code cd core && java -cp
 * target/test-classes:target/classes:$(cat target/bench.cp) org.sparkmc.core.bench.smc.NileBootstrapBenchmark}
 * (argument "quick" runs fewer repetitions). {@code exec:java} would do too where the exec plugin resolves.
 */
public final class NileBootstrapBenchmark {
    private NileBootstrapBenchmark() {
    }

    public static void main(String[] args) throws IOException {
        boolean quick = args.length > 0 && args[0].equals("quick");
        Path file = Path.of(System.getProperty("sparkmc.shared.data", "../../shared/data"), "nile", "nile.csv");
        if (!Files.exists(file)) {
            file = Path.of("/work/shared/data/nile/nile.csv");
        }
        double[][] y;
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            y = ObservationCsv.read(r, file.toString(), ObservationCsv.Options.defaults().withTimeColumn("year"))
                    .values();
        }
        LocalLevelModel model = LocalLevelModel.nile();
        double exact = KalmanFilter.run(model.asLinearGaussian(), y).logLikelihood();
        ParticleKernel kernel = ParticleKernel.bootstrap(model);
        SmcOptions options = SmcOptions.defaults();
        System.out.printf(Locale.ROOT, "Nile, T = %d, Kalman log p = %.4f; %s, %d cores, max heap %d MiB%n", y.length,
                exact, System.getProperty("java.vm.version"), Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20);

        System.out.println();
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        System.out.println("Rates per CPU-second of the benchmark thread (wall-clock rates in brackets: the machine is"
                + " shared, so wall time includes waiting for a core).");
        System.out.println("| N | ParticleFilter M particle-steps/s, median (min–max) [wall] | plain loop, same | reps |");
        System.out.println("|---|---|---|---|");
        for (int n : new int[] {10_000, 100_000, 1_000_000}) {
            int reps = quick ? 3 : (n >= 1_000_000 ? 5 : 10);
            // warm-up
            for (int w = 0; w < (n >= 1_000_000 ? 1 : 3); w++) {
                ParticleFilter.run(kernel, n, options, new RandomStreams(-1 - w), y);
                plainLoop(model, y, n, new RandomStreams(-1 - w).stream("plain"));
            }
            double[] rate = new double[reps];
            double[] plain = new double[reps];
            double[] rateWall = new double[reps];
            double[] plainWall = new double[reps];
            double work = (double) n * y.length / 1e6;
            for (int r = 0; r < reps; r++) {
                long c0 = cpu.getCurrentThreadCpuTime();
                long t0 = System.nanoTime();
                ParticleFilter.run(kernel, n, options, new RandomStreams(r), y);
                rate[r] = work / ((cpu.getCurrentThreadCpuTime() - c0) * 1e-9);
                rateWall[r] = work / ((System.nanoTime() - t0) * 1e-9);
                c0 = cpu.getCurrentThreadCpuTime();
                t0 = System.nanoTime();
                plainLoop(model, y, n, new RandomStreams(r).stream("plain"));
                plain[r] = work / ((cpu.getCurrentThreadCpuTime() - c0) * 1e-9);
                plainWall[r] = work / ((System.nanoTime() - t0) * 1e-9);
            }
            System.out.printf(Locale.ROOT, "| %,d | %.1f (%.1f–%.1f) [%.1f] | %.1f (%.1f–%.1f) [%.1f] | %d |%n", n,
                    median(rate), min(rate), max(rate), median(rateWall), median(plain), min(plain), max(plain),
                    median(plainWall), reps);
        }

        System.out.println();
        System.out.println("| N | runs | mean(log p̂ − log p) | sd(log p̂) | RMSE | sd·√N |");
        System.out.println("|---|---|---|---|---|---|");
        for (int n : new int[] {1_000, 10_000, 100_000, 1_000_000}) {
            int runs = quick ? 5 : (n >= 1_000_000 ? 10 : (n >= 100_000 ? 20 : 100));
            double[] err = new double[runs];
            for (int r = 0; r < runs; r++) {
                err[r] = ParticleFilter.run(kernel, n, options, new RandomStreams(10_000 + r), y).logLikelihood() - exact;
            }
            double mean = Arrays.stream(err).average().orElseThrow();
            double sd = Math.sqrt(Arrays.stream(err).map(e -> (e - mean) * (e - mean)).sum() / (runs - 1));
            double rmse = Math.sqrt(Arrays.stream(err).map(e -> e * e).average().orElseThrow());
            System.out.printf(Locale.ROOT, "| %,d | %d | %+.4f | %.4f | %.4f | %.2f |%n", n, runs, mean, sd, rmse,
                    sd * Math.sqrt(n));
        }
    }

    /**
     * The peer: a bootstrap filter as one tight loop over single arrays (no blocks, no summaries, no offsets),
     * systematic resampling at ESS &lt; N/2, the same xoshiro256++ generator and Ziggurat normals. Returns log p̂.
     */
    static double plainLoop(LocalLevelModel m, double[][] y, int n, UniformRandomProvider rng) {
        NormalizedGaussianSampler normal = ZigguratSampler.NormalizedGaussian.of(rng);
        double r = 15099;
        double q = Math.sqrt(1469.1);
        double[] x = new double[n];
        double[] xNew = new double[n];
        double[] lw = new double[n];
        double[] w = new double[n];
        double logLik = 0;
        double norm = -0.5 * Math.log(2 * Math.PI * r);
        for (int i = 0; i < n; i++) {
            x[i] = 1120 + Math.sqrt(1e7) * normal.sample();
        }
        for (int t = 0; t < y.length; t++) {
            if (t > 0) {
                for (int i = 0; i < n; i++) {
                    x[i] += q * normal.sample();
                }
            }
            double max = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < n; i++) {
                double e = y[t][0] - x[i];
                lw[i] += norm - 0.5 * e * e / r;
                max = Math.max(max, lw[i]);
            }
            double sum = 0;
            double sumSq = 0;
            for (int i = 0; i < n; i++) {
                w[i] = Math.exp(lw[i] - max);
                sum += w[i];
                sumSq += w[i] * w[i];
            }
            double logSum = max + Math.log(sum);
            logLik += logSum;
            for (int i = 0; i < n; i++) {
                lw[i] -= logSum;
            }
            if (sum * sum / sumSq < 0.5 * n) {
                double u = rng.nextDouble();
                double c = 0;
                int k = 0;
                for (int i = 0; i < n; i++) {
                    c += w[i];
                    double upper = c / sum * n;
                    while (k < n && k + u < upper) {
                        xNew[k++] = x[i];
                    }
                }
                while (k < n) {
                    xNew[k++] = x[n - 1];
                }
                double[] tmp = x;
                x = xNew;
                xNew = tmp;
                Arrays.fill(lw, -Math.log(n));
            }
        }
        return logLik;
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : 0.5 * (s[s.length / 2 - 1] + s[s.length / 2]);
    }

    private static double min(double[] v) {
        return Arrays.stream(v).min().orElseThrow();
    }

    private static double max(double[] v) {
        return Arrays.stream(v).max().orElseThrow();
    }
}
