package org.sparkmc.core.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.sparkmc.core.catalog.KernelCatalog;
import org.sparkmc.core.mcmc.ChainRound;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.Kernel;
import org.sparkmc.core.mcmc.KernelSettings;
import org.sparkmc.core.mcmc.RunningMeanObserver;
import org.sparkmc.core.model.IsingDenoising;
import org.sparkmc.core.random.RandomStreams;

/**
 * Chromatic parallel Gibbs on a 1000×1000 Ising denoising grid (J = 1, σ = 2, synthetic image): seconds per sweep
 * with 1 and 2 threads (one chain, warm-up not timed) for the bare kernel (median of 3) and with the running mean
 * image the chains job accumulates, the speed-ups, and the posterior mean images compared: 1 vs 2
 * threads (bit-identical by construction), and colour Gibbs vs the single-site raster-scan Gibbs sampler (different
 * chains: they agree up to Monte Carlo error, judged against the difference between two colour-Gibbs runs with
 * different seeds). Writes the images as PNGs to target/.
 *
 * <p>Usage, from the project root:
 * {@code submit/bench core org.sparkmc.core.bench.IsingParallelBenchmark [side=1000] [warmup=50] [sweeps=200]}
 */
public final class IsingParallelBenchmark {
    public static void main(String[] args) throws Exception {
        int side = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        int sweeps = args.length > 2 ? Integer.parseInt(args[2]) : 200;
        IsingDenoising model = IsingDenoising.synthetic(side, side, 1, 2, 1, false);
        System.out.printf("%nIsing %d×%d, %d warm-up + %d timed sweeps, 1 chain; %s; %d cores available%n%n", side,
                side, warmup, sweeps, java.time.LocalDate.now(), Runtime.getRuntime().availableProcessors());
        System.out.println("| kernel | threads | s/sweep | site updates/s | speed-up vs 1 thread |");
        System.out.println("|---|---|---|---|---|");
        // The bare kernel: the parallel sweep plus its serial log-density pass.
        double bareOne = 0;
        for (int threads : new int[] {1, 2}) {
            double seconds = median(() -> timeBare(model, threads, warmup, sweeps));
            if (threads == 1) {
                bareOne = seconds;
            }
            System.out.printf("| colour-gibbs, sweep only | %d | %.4f | %,.0f | %.2f |%n", threads, seconds / sweeps,
                    (double) side * side * sweeps / seconds, bareOne / seconds);
        }
        // As the chains job runs it: plus the Rao-Blackwellised running mean image (a serial tanh per site).
        double[] one = null;
        double secondsOne = 0;
        for (int threads : new int[] {1, 2}) {
            double[] r = new double[1];
            double[] mean = run(model, "colour-gibbs", threads, warmup, sweeps, 7, r);
            if (threads == 1) {
                one = mean;
                secondsOne = r[0];
            } else if (!java.util.Arrays.equals(one, mean)) {
                throw new IllegalStateException("1 and 2 threads gave different images");
            }
            System.out.printf("| colour-gibbs + running mean | %d | %.4f | %,.0f | %.2f |%n", threads, r[0] / sweeps,
                    (double) side * side * sweeps / r[0], secondsOne / r[0]);
        }
        double[] r = new double[1];
        double[] otherSeed = run(model, "colour-gibbs", 2, warmup, sweeps, 8, r);
        double[] raster = run(model, "gibbs", 1, warmup, sweeps, 9, r);
        System.out.printf("| gibbs (raster scan) | 1 | %.4f | %,.0f | – |%n", r[0] / sweeps,
                (double) side * side * sweeps / r[0]);
        System.out.printf("%nposterior mean image, 1 vs 2 threads: bit-identical%n");
        System.out.printf("mean |difference| colour vs colour (other seed): %.5f, max %.4f%n", meanAbs(one, otherSeed),
                maxAbs(one, otherSeed));
        System.out.printf("mean |difference| colour vs raster-scan Gibbs:    %.5f, max %.4f%n", meanAbs(one, raster),
                maxAbs(one, raster));
        double[] clean = model.clean();
        double[] noisy = model.noisy();
        System.out.printf("pixel error rate: thresholded noisy image %.4f, thresholded posterior mean %.4f%n",
                errorRate(noisy, clean), errorRate(one, clean));
        Path dir = Path.of("target");
        Files.createDirectories(dir);
        Files.write(dir.resolve("ising-noisy.png"), org.sparkmc.core.model.GrayscalePng.encode(noisy, side, side, -3, 3));
        Files.write(dir.resolve("ising-posterior-mean.png"), model.posteriorMeanPng(one));
        System.out.println("images: target/ising-noisy.png, target/ising-posterior-mean.png");
    }

    interface Timed {
        double seconds();
    }

    /** Median of 3 timings. */
    static double median(Timed t) {
        double[] s = {t.seconds(), t.seconds(), t.seconds()};
        java.util.Arrays.sort(s);
        return s[1];
    }

    /** Seconds for {@code sweeps} sweeps of the bare colour-Gibbs kernel after {@code warmup} untimed ones. */
    static double timeBare(IsingDenoising model, int threads, int warmup, int sweeps) {
        org.sparkmc.core.mcmc.Kernel<?> kernel = org.sparkmc.core.mcmc.ColourGibbs.of(threads);
        RandomStreams streams = new RandomStreams(7);
        ChainState s = ChainRound.start(1, model, kernel, streams);
        s = ChainRound.run(model, kernel, s, 1, warmup, true, false, streams).state();
        long t0 = System.nanoTime();
        ChainRound.run(model, kernel, s, 2, sweeps, false, false, streams);
        return (System.nanoTime() - t0) / 1e9;
    }

    static double[] run(IsingDenoising model, String kernelName, int threads, int warmup, int sweeps, long seed,
            double[] seconds) {
        Kernel<?> kernel = KernelCatalog.create(kernelName, new KernelSettings(1, true, Double.NaN, threads),
                model);
        RandomStreams streams = new RandomStreams(seed);
        ChainState s = ChainRound.start(1, model, kernel, streams);
        s = ChainRound.run(model, kernel, s, 1, warmup, true, false, streams).state();
        long t0 = System.nanoTime();
        s = ChainRound.run(model, kernel, s, 2, sweeps, false, false, streams).state();
        seconds[0] = (System.nanoTime() - t0) / 1e9;
        return RunningMeanObserver.pooledMean(kernel, List.of(s));
    }

    static double meanAbs(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += Math.abs(a[i] - b[i]);
        }
        return s / a.length;
    }

    static double maxAbs(double[] a, double[] b) {
        double m = 0;
        for (int i = 0; i < a.length; i++) {
            m = Math.max(m, Math.abs(a[i] - b[i]));
        }
        return m;
    }

    static double errorRate(double[] x, double[] clean) {
        int e = 0;
        for (int i = 0; i < x.length; i++) {
            e += Math.signum(x[i]) != clean[i] ? 1 : 0;
        }
        return (double) e / x.length;
    }
}
