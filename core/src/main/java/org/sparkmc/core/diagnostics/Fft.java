package org.sparkmc.core.diagnostics;

/**
 * In-place iterative radix-2 Cooley–Tukey fast Fourier transform of complex sequences of one power-of-two length,
 * held in two arrays; the twiddle factors are computed once per instance. Package-private: only
 * {@link Autocovariance} needs it.
 */
final class Fft {
    private final int size;
    private final double[] cos;
    private final double[] sin;

    /** A transform of length {@code size}, a power of two. */
    Fft(int size) {
        if (size < 1 || Integer.bitCount(size) != 1) {
            throw new IllegalArgumentException("FFT length must be a power of two, got " + size);
        }
        this.size = size;
        int half = Math.max(size >> 1, 1);
        this.cos = new double[half];
        this.sin = new double[half];
        for (int k = 0; k < half; k++) {
            // each factor exp(-2 pi i k / size) computed directly, for accuracy
            double angle = 2.0 * Math.PI * k / size;
            cos[k] = Math.cos(angle);
            sin[k] = Math.sin(angle);
        }
    }

    /** The smallest power of two that is at least {@code n} (and at least 1). */
    static int powerOfTwoAtLeast(int n) {
        if (n > (1 << 30)) {
            throw new IllegalArgumentException("sequence too long for the FFT: " + n);
        }
        int size = 1;
        while (size < n) {
            size <<= 1;
        }
        return size;
    }

    /**
     * Transforms {@code (re, im)} in place: the forward transform {@code X_k = sum_j x_j exp(-2 pi i jk/M)}, or
     * with {@code inverse} the same with {@code +i} (unnormalised, as R's {@code fft(inverse = TRUE)}).
     */
    void transform(double[] re, double[] im, boolean inverse) {
        if (re.length != size || im.length != size) {
            throw new IllegalArgumentException("expected arrays of length " + size);
        }
        // bit-reversal permutation
        for (int i = 1, j = 0; i < size; i++) {
            int bit = size >> 1;
            for (; (j & bit) != 0; bit >>= 1) {
                j ^= bit;
            }
            j ^= bit;
            if (i < j) {
                double t = re[i];
                re[i] = re[j];
                re[j] = t;
                t = im[i];
                im[i] = im[j];
                im[j] = t;
            }
        }
        double sign = inverse ? 1.0 : -1.0;
        for (int len = 2; len <= size; len <<= 1) {
            int halfLen = len >> 1;
            int step = size / len;
            for (int start = 0; start < size; start += len) {
                for (int k = 0; k < halfLen; k++) {
                    double wr = cos[k * step];
                    double wi = sign * sin[k * step];
                    int a = start + k;
                    int b = a + halfLen;
                    double xr = re[b] * wr - im[b] * wi;
                    double xi = re[b] * wi + im[b] * wr;
                    re[b] = re[a] - xr;
                    im[b] = im[a] - xi;
                    re[a] += xr;
                    im[a] += xi;
                }
            }
        }
    }
}
