package org.sparkmc.core.diagnostics;

import java.lang.ref.SoftReference;
import org.jtransforms.fft.DoubleFFT_1D;
import pl.edu.icm.jlargearrays.ConcurrencyUtils;

/**
 * Biased sample autocovariances of a sequence at every lag, computed with a zero-padded FFT: the autocovariance at
 * lag t is {@code (1/N) sum_{i<N-t} (x_i − mean)(x_{i+t} − mean)}, the "biased" estimate Geyer (1992) recommends
 * and the one R's {@code posterior} uses in its ESS.
 *
 * <p>The sequence is centred, padded with zeros to a power of two of at least 2N (so the circular correlation
 * equals the linear one), transformed, its power spectrum inverse-transformed and divided by N. The result equals
 * the direct O(N²) sum up to rounding. The transforms are JTransforms' real FFT, on the calling thread: the
 * library's own thread pool is switched off, because the callers already run one summary per thread. Reference:
 * C. J. Geyer (1992), "Practical Markov chain Monte Carlo", <i>Statistical Science</i> 7(4), 473–483.
 */
public final class Autocovariance {
    static {
        // JTransforms splits long transforms over a global pool sized to the cores; the diagnostics parallelise by
        // parameter instead, and a single-threaded loop must stay single-threaded.
        ConcurrencyUtils.setNumberOfThreads(1);
    }

    private Autocovariance() {
    }

    /**
     * Biased autocovariances of {@code x} at lags 0 … N−1 (all zero for a constant sequence).
     *
     * @param x a sequence of at least one finite value
     * @return array of length N; element t is the autocovariance at lag t
     * @throws IllegalArgumentException if {@code x} is null or empty
     */
    public static double[] of(double[] x) {
        if (x == null || x.length == 0) {
            throw new IllegalArgumentException("autocovariance needs at least one value");
        }
        return meanOverChains(new double[][] {x});
    }

    /**
     * The average over chains of each chain's biased autocovariance (each chain centred at its own mean), at lags
     * 0 … N−1. Each chain's power spectrum is added up, and one inverse transform of the summed spectrum gives the
     * summed autocovariances, since the transform is linear.
     *
     * @param chains equal-length chains, at least one
     */
    static double[] meanOverChains(double[][] chains) {
        double[] means = new double[chains.length];
        for (int c = 0; c < chains.length; c++) {
            means[c] = Draws.mean(chains[c]);
        }
        return meanOverChains(chains, means);
    }

    /** As {@link #meanOverChains(double[][])}, with each chain's mean ({@link Draws#mean}) already known. */
    static double[] meanOverChains(double[][] chains, double[] means) {
        int m = chains.length;
        int n = chains[0].length;
        int size = powerOfTwoAtLeast(2 * n); // at least 2: n ≥ 1
        Workspace space = Workspace.of(size);
        DoubleFFT_1D fft = space.fft;
        int half = size / 2;
        // power[k] for k = 0 … size/2; the spectrum of a real sequence is symmetric
        double[] power = space.power;
        java.util.Arrays.fill(power, 0.0);
        double[] work = space.work;
        double lagZero = 0.0;
        for (int c = 0; c < m; c++) {
            java.util.Arrays.fill(work, n, size, 0.0);
            lagZero += centre(chains[c], means[c], work);
            fft.realForward(work); // packed: work[0] = X_0, work[1] = X_{size/2}, (work[2k], work[2k+1]) = X_k
            power[0] += work[0] * work[0];
            power[half] += work[1] * work[1];
            for (int k = 1; k < half; k++) {
                power[k] += work[2 * k] * work[2 * k] + work[2 * k + 1] * work[2 * k + 1];
            }
        }
        work[0] = power[0];
        work[1] = power[half];
        for (int k = 1; k < half; k++) {
            work[2 * k] = power[k];
            work[2 * k + 1] = 0.0;
        }
        fft.realInverse(work, false);
        double[] acov = new double[n];
        // realInverse leaves half the unnormalised inverse: sum_k P_k cos(2 pi k t / size) over k = 0 … size/2 pairs
        double scale = 2.0 / ((double) size * n * m);
        for (int t = 0; t < n; t++) {
            acov[t] = work[t] * scale;
        }
        // lag 0 is the mean of the chains' biased variances: use the exact sum of squares
        acov[0] = lagZero / ((double) n * m);
        return acov;
    }

    /**
     * One thread's transform and buffers for one size, kept (softly) for that thread's next call: a summary takes
     * several ESS of the same length, and each fresh set is megabytes of short-lived arrays.
     */
    private static final class Workspace {
        private static final ThreadLocal<SoftReference<Workspace>> LAST = new ThreadLocal<>();
        final DoubleFFT_1D fft;
        final double[] work;
        final double[] power;

        private Workspace(int size) {
            fft = new DoubleFFT_1D(size);
            work = new double[size];
            power = new double[size / 2 + 1];
        }

        static Workspace of(int size) {
            SoftReference<Workspace> ref = LAST.get();
            Workspace space = ref == null ? null : ref.get();
            if (space == null || space.work.length != size) {
                space = new Workspace(size);
                LAST.set(new SoftReference<>(space));
            }
            return space;
        }
    }

    /** The smallest power of two that is at least {@code n} (and at least 1). */
    static int powerOfTwoAtLeast(int n) {
        if (n > (1 << 30)) {
            throw new IllegalArgumentException("sequence too long for the FFT: " + n);
        }
        return n <= 1 ? 1 : Integer.highestOneBit(n - 1) << 1;
    }

    /** Writes {@code x − mean} into the start of {@code target}; returns the sum of squared deviations. */
    private static double centre(double[] x, double mean, double[] target) {
        double ss = 0.0;
        for (int i = 0; i < x.length; i++) {
            double d = x[i] - mean;
            target[i] = d;
            ss += d * d;
        }
        return ss;
    }
}
