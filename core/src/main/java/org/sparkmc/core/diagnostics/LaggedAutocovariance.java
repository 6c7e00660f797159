package org.sparkmc.core.diagnostics;

/**
 * The mean over chains of each chain's biased autocovariance (as {@link Autocovariance#meanOverChains}), computed
 * only up to the lags asked for. Geyer's truncation in {@link GeyerEss} usually stops after a few lags, so the
 * first lags are summed directly, four per pass over the draws; once the lags asked for would cost more than one
 * FFT of all of them, the rest come from that FFT. Direct sums and the FFT agree up to rounding.
 */
final class LaggedAutocovariance implements ChainAutocovariance {
    /** Lags summed per pass over the draws. */
    private static final int BLOCK = 4;
    /**
     * Direct lags costing as much as the FFT of all lags, per unit of {@link #fftCostInLags}: measured on 16 chains
     * of 10^3 to 2·10^5 draws, the FFT took as long as 2.4 to 9 times the lags that estimate gives (the short
     * transforms pay for their set-up); the lower end is taken.
     */
    private static final double DIRECT_PER_FFT = 2.5;

    private final double[][] chains;
    private final double[] means;
    private final int n;
    private final double scale;
    private final int directLimit;
    private final double[] direct;
    private int known;
    /** Each chain less its mean, made for the first block: the lags' products then need no subtraction. */
    private double[][] centered;
    private double[] fromFft;
    /** {@link #slowlyMixing()}, once decided. */
    private Boolean slow;

    /** @param chains equal-length chains of finite draws, at least one, each at least one draw long */
    LaggedAutocovariance(double[][] chains) {
        this(chains, (int) Math.ceil(DIRECT_PER_FFT * fftCostInLags(chains.length, chains[0].length)));
    }

    /** As {@link #LaggedAutocovariance(double[][])}, summing lags below {@code directLimit} directly. */
    LaggedAutocovariance(double[][] chains, int directLimit) {
        this.chains = chains;
        this.n = chains[0].length;
        this.means = new double[chains.length];
        for (int c = 0; c < chains.length; c++) {
            means[c] = Draws.mean(chains[c]);
        }
        this.scale = 1.0 / ((double) n * chains.length);
        this.directLimit = Math.min(n, directLimit);
        this.direct = new double[Math.min(n, this.directLimit + BLOCK)];
    }

    /**
     * The FFT of all lags (M real forward transforms and one inverse of size P ≥ 2N, each (P/2)·log₂P butterflies)
     * in units of one direct lag (M·N multiply-adds).
     */
    static double fftCostInLags(int chainCount, int n) {
        int size = Autocovariance.powerOfTwoAtLeast(2 * n);
        double butterflies = (chainCount + 1) * (size / 2.0) * (31 - Integer.numberOfLeadingZeros(size));
        return butterflies / ((double) chainCount * n);
    }

    /** Chain {@code c}'s mean ({@link Draws#mean}). */
    @Override
    public double mean(int c) {
        return means[c];
    }

    /** The mean biased autocovariance at {@code lag} (0 ≤ lag < N). */
    @Override
    public double at(int lag) {
        if (lag < known) {
            return direct[lag];
        }
        if (fromFft == null && lag < directLimit && !(lag >= BLOCK && slowlyMixing())) {
            while (known <= lag) {
                sumBlock(known, Math.min(known + BLOCK, n));
            }
            return direct[lag];
        }
        if (fromFft == null) {
            fromFft = Autocovariance.meanOverChains(chains, means);
        }
        return fromFft[lag];
    }

    /**
     * Whether the first block's decay says Geyer's truncation lies beyond the direct limit, so the FFT is cheaper
     * from here on: with r = (acov_3/acov_0)^{1/3} the autocorrelation falls to the noise level 1/√(MN) near lag
     * ln(1/√(MN))/ln r (exact for an AR(1) chain). Decided once, after the first block.
     */
    private boolean slowlyMixing() {
        if (slow == null && known >= BLOCK) {
            double ratio = direct[BLOCK - 1] / direct[0];
            double r = Math.pow(Math.min(ratio, 1.0), 1.0 / (BLOCK - 1));
            slow = ratio > 0 && (r >= 1.0 || -0.5 * Math.log((double) n * chains.length) / Math.log(r) > directLimit);
        }
        return Boolean.TRUE.equals(slow);
    }

    /**
     * Sums lags [from, to) over every chain in one pass, over the chains less their means (made once, by the same
     * subtraction the products would repeat for every lag, so the sums are the same to the last bit).
     */
    private void sumBlock(int from, int to) {
        if (centered == null) {
            centered = new double[chains.length][];
            for (int c = 0; c < chains.length; c++) {
                centered[c] = Draws.centered(chains[c], means[c]);
            }
        }
        double[] sums = new double[BLOCK];
        int width = to - from;
        for (double[] x : centered) {
            int full = Math.max(n - (to - 1), 0); // positions where every lag of the block has a partner
            if (width == BLOCK) {
                double s0 = 0.0;
                double s1 = 0.0;
                double s2 = 0.0;
                double s3 = 0.0;
                for (int i = 0; i < full; i++) {
                    double d = x[i];
                    s0 += d * x[i + from];
                    s1 += d * x[i + from + 1];
                    s2 += d * x[i + from + 2];
                    s3 += d * x[i + from + 3];
                }
                sums[0] += s0;
                sums[1] += s1;
                sums[2] += s2;
                sums[3] += s3;
            } else {
                for (int k = 0; k < width; k++) {
                    double s = 0.0;
                    for (int i = 0; i < full; i++) {
                        s += x[i] * x[i + from + k];
                    }
                    sums[k] += s;
                }
            }
            for (int k = 0; k < width; k++) {
                int lag = from + k;
                double s = 0.0;
                for (int i = full; i < n - lag; i++) {
                    s += x[i] * x[i + lag];
                }
                sums[k] += s;
            }
        }
        for (int k = 0; k < width; k++) {
            direct[from + k] = sums[k] * scale;
        }
        known = to;
    }
}
