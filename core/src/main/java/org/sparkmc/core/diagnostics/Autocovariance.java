package org.sparkmc.core.diagnostics;

/**
 * Biased sample autocovariances of a sequence at every lag, computed with a zero-padded FFT: the autocovariance at
 * lag t is {@code (1/N) sum_{i<N-t} (x_i − mean)(x_{i+t} − mean)}, the "biased" estimate Geyer (1992) recommends
 * and the one R's {@code posterior} uses in its ESS.
 *
 * <p>The sequence is centred, padded with zeros to a power of two of at least 2N (so the circular correlation
 * equals the linear one), transformed, its power spectrum inverse-transformed and divided by N. The result equals
 * the direct O(N²) sum up to rounding. Reference: C. J. Geyer (1992), "Practical Markov chain Monte Carlo",
 * <i>Statistical Science</i> 7(4), 473–483.
 */
public final class Autocovariance {
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
     * 0 … N−1. Chains are transformed two at a time (one as the real part, one as the imaginary part); the sum
     * of their power spectra is {@code (|Z_k|² + |Z_{M−k}|²)/2}, and one inverse transform of the summed
     * spectrum gives the summed autocovariances, since the transform is linear.
     *
     * @param chains equal-length chains, at least one
     */
    static double[] meanOverChains(double[][] chains) {
        int m = chains.length;
        int n = chains[0].length;
        int size = Fft.powerOfTwoAtLeast(2 * n);
        Fft fft = new Fft(size);
        double[] spectrum = new double[size];
        double lagZero = 0.0;
        double[] re = new double[size];
        double[] im = new double[size];
        for (int c = 0; c < m; c += 2) {
            java.util.Arrays.fill(re, 0.0);
            java.util.Arrays.fill(im, 0.0);
            lagZero += centre(chains[c], re);
            if (c + 1 < m) {
                lagZero += centre(chains[c + 1], im);
            }
            fft.transform(re, im, false);
            for (int k = 0; k < size; k++) {
                int mirror = (size - k) & (size - 1);
                double p = re[k] * re[k] + im[k] * im[k];
                double q = re[mirror] * re[mirror] + im[mirror] * im[mirror];
                spectrum[k] += 0.5 * (p + q);
            }
        }
        java.util.Arrays.fill(im, 0.0);
        fft.transform(spectrum, im, true);
        double[] acov = new double[n];
        double scale = 1.0 / ((double) size * n * m);
        for (int t = 0; t < n; t++) {
            acov[t] = spectrum[t] * scale;
        }
        // lag 0 is the mean of the chains' biased variances: use the exact sum of squares
        acov[0] = lagZero / ((double) n * m);
        return acov;
    }

    /** Writes {@code x − mean(x)} into the start of {@code target}; returns the sum of squared deviations. */
    private static double centre(double[] x, double[] target) {
        double mean = Draws.mean(x);
        double ss = 0.0;
        for (int i = 0; i < x.length; i++) {
            double d = x[i] - mean;
            target[i] = d;
            ss += d * d;
        }
        return ss;
    }
}
