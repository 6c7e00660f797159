package org.sparkmc.core.diagnostics;

/**
 * In-place iterative radix-2 Cooley–Tukey fast Fourier transform of a complex sequence held in two arrays.
 * Package-private: only {@link Autocovariance} needs it.
 */
final class Fft {
    private Fft() {
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
     *
     * @param re real parts; its length M must be a power of two
     * @param im imaginary parts, same length
     */
    static void transform(double[] re, double[] im, boolean inverse) {
        int size = re.length;
        if (size != im.length || Integer.bitCount(size) != 1) {
            throw new IllegalArgumentException("FFT length must be a power of two, got " + size);
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
        // twiddle factors exp(-+2 pi i k / size), k < size/2, each computed directly for accuracy
        int half = size >> 1;
        double[] cos = new double[half];
        double[] sin = new double[half];
        double sign = inverse ? 1.0 : -1.0;
        for (int k = 0; k < half; k++) {
            double angle = 2.0 * Math.PI * k / size;
            cos[k] = Math.cos(angle);
            sin[k] = sign * Math.sin(angle);
        }
        for (int len = 2; len <= size; len <<= 1) {
            int halfLen = len >> 1;
            int step = size / len;
            for (int start = 0; start < size; start += len) {
                for (int k = 0; k < halfLen; k++) {
                    double wr = cos[k * step];
                    double wi = sin[k * step];
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
