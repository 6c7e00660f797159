package org.sparkmc.core.smc;

import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.AhrensDieterMarsagliaTsangGammaSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.sparkmc.core.random.RandomStreams;

/** The draws behind each {@link ResamplingScheme}. Positions are compared exactly, without rounding in the test. */
final class ResamplingDraws {
    /** Stream purpose: the systematic uniform and the multinomial bin totals, keyed by step. */
    static final String RESAMPLE_STREAM = "smc-resample";
    /** Stream purpose: stratified uniforms, keyed by (step, chunk of {@value #STRATA_CHUNK} strata). */
    static final String STRATA_STREAM = "smc-strata";
    /** Stream purpose: exponential spacings of multinomial points, keyed by (step, bin). */
    static final String SPACINGS_STREAM = "smc-spacings";
    static final int STRATA_CHUNK = 1024;
    static final int SPACINGS_BIN = 4096;
    private static final double BELOW_ONE = Math.nextDown(1.0);

    private ResamplingDraws() {
    }

    /**
     * F(y) for points k + U_k on [0, n) (U_k a uniform in [0, 1)), at x = y·n: j = ⌊x⌋ points of strata below j
     * plus stratum j's if U_j &lt; x − j (exact: x − ⌊x⌋ has no rounding error).
     */
    private static long stratifiedBelow(double y, long n, StrataUniforms u) {
        double x = y * n;
        if (x >= n) {
            return n;
        }
        if (!(x > 0)) {
            return 0;
        }
        long j = (long) x;
        return j + (u.get(j) < x - j ? 1 : 0);
    }

    private interface StrataUniforms {
        double get(long stratum);
    }

    /** Systematic (Carpenter, Clifford &amp; Fearnhead 1999; Kitagawa 1996): points (k + U)/n, one U. */
    static final class Systematic implements ResamplingDraw {
        private static final long serialVersionUID = 1L;
        private long n;
        private double u;

        /** For serialization frameworks only. */
        Systematic() {
        }

        Systematic(long n, RandomStreams streams, long step) {
            this.n = n;
            this.u = streams.stream(RESAMPLE_STREAM, step).nextDouble();
        }

        @Override
        public long points() {
            return n;
        }

        @Override
        public PointCounter counter(double yFrom) {
            StrataUniforms same = k -> u;
            return y -> stratifiedBelow(y, n, same);
        }
    }

    /** Stratified (Kitagawa 1996): points (k + U_k)/n with independent U_k. */
    static final class Stratified implements ResamplingDraw {
        private static final long serialVersionUID = 1L;
        private long n;
        private RandomStreams streams;
        private long step;

        /** For serialization frameworks only. */
        Stratified() {
        }

        Stratified(long n, RandomStreams streams, long step) {
            this.n = n;
            this.streams = streams;
            this.step = step;
        }

        @Override
        public long points() {
            return n;
        }

        @Override
        public PointCounter counter(double yFrom) {
            StrataUniforms u = new StrataUniforms() {
                private final double[] chunk = new double[STRATA_CHUNK];
                private long loaded = -1;

                @Override
                public double get(long stratum) {
                    long c = stratum / STRATA_CHUNK;
                    if (c != loaded) {
                        UniformRandomProvider rng = streams.stream(STRATA_STREAM, step, c);
                        for (int i = 0; i < STRATA_CHUNK; i++) {
                            chunk[i] = rng.nextDouble();
                        }
                        loaded = c;
                    }
                    return chunk[(int) (stratum - c * STRATA_CHUNK)];
                }
            };
            return y -> stratifiedBelow(y, n, u);
        }
    }

    /**
     * Multinomial: n sorted i.i.d. uniforms as normalised cumulative sums of n + 1 exponentials, V_(k) = Γ_k /
     * Γ_{n+1} (e.g. Devroye 1986, ch. V). The exponentials come in bins of {@value #SPACINGS_BIN}: the driver
     * draws each bin's total G_b ~ Gamma(size, 1); a partition regenerates only the bins its range needs, each
     * from its own keyed stream, as G_b times normalised exponentials (given their sum, normalised exponentials
     * are Dirichlet(1, …, 1) and independent of the sum, so the points are exactly sorted uniforms).
     */
    static final class Multinomial implements ResamplingDraw {
        private static final long serialVersionUID = 1L;
        private long n;
        private RandomStreams streams;
        private long step;
        private double[] gamma;
        private double[] prefix;

        /** For serialization frameworks only. */
        Multinomial() {
        }

        Multinomial(long n, RandomStreams streams, long step) {
            this.n = n;
            this.streams = streams;
            this.step = step;
            long exponentials = n + 1;
            int bins = Math.toIntExact((exponentials + SPACINGS_BIN - 1) / SPACINGS_BIN);
            gamma = new double[bins];
            prefix = new double[bins + 1];
            UniformRandomProvider rng = streams.stream(RESAMPLE_STREAM, step);
            for (int b = 0; b < bins; b++) {
                gamma[b] = AhrensDieterMarsagliaTsangGammaSampler.of(rng, binSize(b), 1).sample();
                prefix[b + 1] = prefix[b] + gamma[b];
            }
        }

        private int binSize(int b) {
            return (int) Math.min(SPACINGS_BIN, n + 1 - (long) b * SPACINGS_BIN);
        }

        /** Points in bin b: its exponentials' partial sums, except the very last one (Γ_{n+1} itself). */
        private int pointsIn(int b) {
            return b == gamma.length - 1 ? binSize(b) - 1 : binSize(b);
        }

        @Override
        public long points() {
            return n;
        }

        @Override
        public PointCounter counter(double yFrom) {
            double total = prefix[gamma.length];
            // skip bins all of whose points are ≤ P_{b+1}/total < yFrom
            int lo = 0;
            int hi = gamma.length - 1;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (prefix[mid + 1] / total < yFrom) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            int startBin = lo;
            return new PointCounter() {
                private int bin = -1;
                private double[] points = new double[0];
                private int index;
                private long before;

                {
                    load(startBin);
                }

                private void load(int b) {
                    bin = b;
                    before = (long) b * SPACINGS_BIN;
                    int size = binSize(b);
                    double[] partial = new double[size];
                    ZigguratSampler.Exponential exp = ZigguratSampler.Exponential.of(
                            streams.stream(SPACINGS_STREAM, step, b));
                    double q = 0;
                    for (int j = 0; j < size; j++) {
                        q += exp.sample();
                        partial[j] = q;
                    }
                    int m = pointsIn(b);
                    if (points.length != m) {
                        points = new double[m];
                    }
                    for (int j = 0; j < m; j++) {
                        double cumulative = prefix[b] + gamma[b] * (partial[j] / q);
                        points[j] = Math.min(cumulative / total, BELOW_ONE);
                    }
                    index = 0;
                }

                @Override
                public long below(double y) {
                    if (y >= 1) {
                        return n; // every point is clamped below 1
                    }
                    while (true) {
                        if (index < points.length) {
                            if (points[index] < y) {
                                index++;
                                continue;
                            }
                            return before + index;
                        }
                        if (bin + 1 < gamma.length && prefix[bin + 1] / total < y) {
                            load(bin + 1);
                            continue;
                        }
                        // the next bin's points are all ≥ prefix[bin+1]/total ≥ y (y < 1, so no clamping)
                        return before + index;
                    }
                }
            };
        }
    }
}
