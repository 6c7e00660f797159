package org.sparkmc.core.variate;

import java.util.Arrays;
import java.util.Objects;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;

/**
 * Adaptive rejection sampling for log-concave densities: exact draws from p ∝ exp(h) on (lower, upper) with h
 * concave, by rejection from a piecewise-exponential envelope exp(u) that is refined with every rejected point.
 *
 * <ul>
 *   <li><b>Tangent form</b> (Gilks &amp; Wild 1992, {@link #of}): u is the minimum of the tangents of h at the
 *   abscissae x₁ &lt; … &lt; x_n (h′ supplied); neighbouring tangents meet at
 *   z_j = x_j + (h_{j+1} − h_j − h′_{j+1}(x_{j+1} − x_j))/(h′_j − h′_{j+1}), an intersection outside
 *   [x_j, x_{j+1}] by more than the rounding of h over h′_j − h′_{j+1} showing that h is not concave.</li>
 *   <li><b>Derivative-free (secant) form</b> (Gilks 1992, {@link #derivativeFree}): on [x_i, x_{i+1}] u is the
 *   lower of the chords through (x_{i−1}, x_i) and (x_{i+1}, x_{i+2}) extended into the interval (only one of
 *   them exists in the first and last intervals, and beyond x₁, x_n the outer chords are extended); by
 *   concavity an extended chord lies above h. Needs n ≥ 3.</li>
 * </ul>
 * In both, the squeeze l is the chord interpolation of h between abscissae (−∞ outside [x₁, x_n]); a draw x
 * from exp(u) is accepted without evaluating h when U ≤ exp(l(x) − u(x)), else when U ≤ exp(h(x) − u(x)), and
 * then x joins the abscissae (up to {@value #MAX_ABSCISSAE}).
 *
 * <p>On an unbounded side the initial abscissae must straddle the mode (h′(x₁) &gt; 0 or a rising first chord
 * if lower = −∞; falling at the right if upper = +∞). Non-log-concavity is detected where it shows — slopes
 * that increase between abscissae, or h above its hull or below its squeeze at a draw — and reported as a
 * {@link NotLogConcaveException} instead of biased draws. Not thread-safe.
 */
public final class AdaptiveRejectionSampler implements ContinuousSampler {
    /** The most abscissae kept; beyond this the envelope stops adapting. */
    public static final int MAX_ABSCISSAE = 100;

    /** One draw from a full conditional by the tangent form; the log density must be differentiable. */
    public static final FullConditionalSampler TANGENT = (rng, h, lower, upper, x0) -> {
        if (!(h instanceof DifferentiableLogDensity)) {
            throw new IllegalArgumentException("tangent adaptive rejection sampling needs a DifferentiableLogDensity;"
                + " use SECANT for a log density without derivative");
        }
        return of(rng, (DifferentiableLogDensity) h, lower, upper, x0).sample();
    };

    /** One draw from a full conditional by the derivative-free (secant) form. */
    public static final FullConditionalSampler SECANT = (rng, h, lower, upper, x0) ->
        derivativeFree(rng, h, lower, upper, x0).sample();

    private final UniformRandomProvider rng;
    private final LogDensity h;
    private final DifferentiableLogDensity dh;
    private final double lower;
    private final double upper;

    private final double[] xs = new double[MAX_ABSCISSAE];
    private final double[] hs = new double[MAX_ABSCISSAE];
    private final double[] ds = new double[MAX_ABSCISSAE];
    private int n;

    // The envelope: piece j covers [left[j], right[j]] with u(x) = value[j] + slope[j]·(x − anchor[j]).
    private final double[] left = new double[2 * MAX_ABSCISSAE + 2];
    private final double[] right = new double[left.length];
    private final double[] anchor = new double[left.length];
    private final double[] value = new double[left.length];
    private final double[] slope = new double[left.length];
    private final double[] cumulative = new double[left.length];
    private int pieces;

    private long proposals;
    private long accepted;
    private long evaluations;

    private AdaptiveRejectionSampler(UniformRandomProvider rng, LogDensity h, DifferentiableLogDensity dh,
            double lower, double upper, double[] initial) {
        this.rng = rng;
        this.h = h;
        this.dh = dh;
        this.lower = lower;
        this.upper = upper;
        double[] sorted = initial.clone();
        Arrays.sort(sorted);
        for (double x : sorted) {
            if (!(x > lower && x < upper)) {
                throw new IllegalArgumentException("initial abscissa " + x + " is not inside the support ("
                    + lower + ", " + upper + ")");
            }
            if (n > 0 && x == xs[n - 1]) {
                continue;
            }
            if (n == MAX_ABSCISSAE) {
                throw new IllegalArgumentException("at most " + MAX_ABSCISSAE + " initial abscissae");
            }
            double hx = h.value(x);
            double dx = dh == null ? 0 : dh.derivative(x);
            if (!Double.isFinite(hx) || !Double.isFinite(dx)) {
                throw new IllegalArgumentException("the log density (or its derivative) is not finite at the initial"
                    + " abscissa " + x + ": " + hx + (dh == null ? "" : ", " + dx));
            }
            xs[n] = x;
            hs[n] = hx;
            ds[n] = dx;
            n++;
        }
        int needed = dh == null ? 3 : 1;
        if (n < needed) {
            throw new IllegalArgumentException("need at least " + needed + " distinct initial abscissae, got " + n);
        }
        if (dh == null) {
            checkSecantEnds();
        } else {
            checkTangentEnds();
        }
        build();
    }

    /**
     * The tangent form (Gilks &amp; Wild 1992).
     *
     * @param h ln p̃ and its derivative, concave on (lower, upper)
     * @param initialAbscissae at least one point in (lower, upper); with lower = −∞ one where h′ &gt; 0, with
     *     upper = +∞ one where h′ &lt; 0
     */
    public static AdaptiveRejectionSampler of(UniformRandomProvider rng, DifferentiableLogDensity h, double lower,
            double upper, double... initialAbscissae) {
        checkArguments(rng, h, lower, upper, initialAbscissae);
        return new AdaptiveRejectionSampler(rng, h, h, lower, upper, initialAbscissae);
    }

    /**
     * The derivative-free form (Gilks 1992).
     *
     * @param h ln p̃, concave on (lower, upper)
     * @param initialAbscissae at least three distinct points in (lower, upper); with lower = −∞ the first chord
     *     must rise, with upper = +∞ the last must fall
     */
    public static AdaptiveRejectionSampler derivativeFree(UniformRandomProvider rng, LogDensity h, double lower,
            double upper, double... initialAbscissae) {
        checkArguments(rng, h, lower, upper, initialAbscissae);
        return new AdaptiveRejectionSampler(rng, h, null, lower, upper, initialAbscissae);
    }

    private static void checkArguments(UniformRandomProvider rng, LogDensity h, double lower, double upper,
            double[] initial) {
        Objects.requireNonNull(rng, "rng");
        Objects.requireNonNull(h, "h");
        Objects.requireNonNull(initial, "initialAbscissae");
        if (!(lower < upper) || lower == Double.POSITIVE_INFINITY || upper == Double.NEGATIVE_INFINITY) {
            throw new IllegalArgumentException("support (" + lower + ", " + upper + ") is empty");
        }
    }

    private void checkTangentEnds() {
        if (lower == Double.NEGATIVE_INFINITY && !(ds[0] > 0)) {
            throw new IllegalArgumentException("with an unbounded lower end the smallest initial abscissa must lie"
                + " left of the mode (h'(" + xs[0] + ") = " + ds[0] + " is not > 0)");
        }
        if (upper == Double.POSITIVE_INFINITY && !(ds[n - 1] < 0)) {
            throw new IllegalArgumentException("with an unbounded upper end the largest initial abscissa must lie"
                + " right of the mode (h'(" + xs[n - 1] + ") = " + ds[n - 1] + " is not < 0)");
        }
    }

    private void checkSecantEnds() {
        if (lower == Double.NEGATIVE_INFINITY && !(chord(0) > 0)) {
            throw new IllegalArgumentException("with an unbounded lower end the first initial chord must rise (the"
                + " first two abscissae left of the mode); its slope is " + chord(0));
        }
        if (upper == Double.POSITIVE_INFINITY && !(chord(n - 2) < 0)) {
            throw new IllegalArgumentException("with an unbounded upper end the last initial chord must fall (the"
                + " last two abscissae right of the mode); its slope is " + chord(n - 2));
        }
    }

    private double chord(int i) {
        return (hs[i + 1] - hs[i]) / (xs[i + 1] - xs[i]);
    }

    /** Rebuilds the envelope from the abscissae, checking concavity on the way. */
    private void build() {
        pieces = 0;
        if (dh != null) {
            buildTangent();
        } else {
            buildSecant();
        }
        // Initial abscissae were checked to straddle the mode on unbounded sides; a wrong slope there now means
        // that a later point broke concavity.
        if (left[0] == Double.NEGATIVE_INFINITY && !(slope[0] > 0)) {
            throw new NotLogConcaveException("not log-concave: the envelope's slope below " + right[0] + " is "
                + slope[0] + ", not rising toward the mode");
        }
        if (right[pieces - 1] == Double.POSITIVE_INFINITY && !(slope[pieces - 1] < 0)) {
            throw new NotLogConcaveException("not log-concave: the envelope's slope above " + left[pieces - 1]
                + " is " + slope[pieces - 1] + ", not falling away from the mode");
        }
        // Piece probabilities, accumulated on a log scale shifted by the largest.
        double max = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < pieces; j++) {
            cumulative[j] = logArea(j);
            max = Math.max(max, cumulative[j]);
        }
        if (!(max < Double.POSITIVE_INFINITY)) {
            throw new IllegalStateException("the envelope has infinite area: is the density proper on ("
                + lower + ", " + upper + ")?");
        }
        double total = 0;
        for (int j = 0; j < pieces; j++) {
            total += Math.exp(cumulative[j] - max);
            cumulative[j] = total;
        }
        for (int j = 0; j < pieces; j++) {
            cumulative[j] /= total;
        }
    }

    private void buildTangent() {
        double z = lower;
        for (int j = 0; j < n; j++) {
            double next = upper;
            if (j < n - 1) {
                double d0 = ds[j];
                double d1 = ds[j + 1];
                if (d0 < d1 && d1 - d0 > 1e-9 * (Math.abs(d0) + Math.abs(d1))) {
                    throw new NotLogConcaveException("not log-concave: h'(" + xs[j] + ") = " + d0 + " < h'("
                        + xs[j + 1] + ") = " + d1);
                }
                if (d0 - d1 <= 1e-12 * (Math.abs(d0) + Math.abs(d1))) {
                    next = 0.5 * (xs[j] + xs[j + 1]);
                } else {
                    // measured from x_j: the form that multiplies h' by the abscissae themselves cancels terms
                    // of size |x h'| down to a difference that close abscissae make smaller than their rounding
                    double width = xs[j + 1] - xs[j];
                    next = xs[j] + (hs[j + 1] - hs[j] - d1 * width) / (d0 - d1);
                    // the values of h carry rounding of about ulp(h) each, divided here by h'_j − h'_{j+1}: where
                    // that reaches the interval the intersection says nothing about concavity (any tangent lies
                    // above a concave h, so the clamp below keeps a valid envelope)
                    double rounding = 0x1.0p-48 * (Math.abs(hs[j]) + Math.abs(hs[j + 1]) + Math.abs(d1) * width)
                        / (d0 - d1);
                    double slack = 1e-9 * width + 1e-12 * (Math.abs(xs[j]) + Math.abs(xs[j + 1])) + rounding;
                    if (!(next >= xs[j] - slack && next <= xs[j + 1] + slack)) {
                        throw new NotLogConcaveException("not log-concave: the tangents at " + xs[j] + " and "
                            + xs[j + 1] + " meet at " + next + ", outside the interval");
                    }
                    next = Math.min(xs[j + 1], Math.max(xs[j], next));
                }
            }
            addPiece(z, next, xs[j], hs[j], ds[j]);
            z = next;
        }
    }

    private void buildSecant() {
        for (int i = 0; i + 2 < n; i++) {
            double m0 = chord(i);
            double m1 = chord(i + 1);
            double tol = 1e-9 * (Math.abs(m0) + Math.abs(m1))
                + 1e-13 * (1 + Math.abs(hs[i]) + Math.abs(hs[i + 1]) + Math.abs(hs[i + 2]))
                    / Math.min(xs[i + 1] - xs[i], xs[i + 2] - xs[i + 1]);
            if (m0 < m1 - tol) {
                throw new NotLogConcaveException("not log-concave: the chord slope rises from " + m0 + " on ["
                    + xs[i] + ", " + xs[i + 1] + "] to " + m1 + " on [" + xs[i + 1] + ", " + xs[i + 2] + "]");
            }
        }
        addPiece(lower, xs[0], xs[0], hs[0], chord(0));
        addPiece(xs[0], xs[1], xs[1], hs[1], chord(1));
        for (int i = 1; i + 2 < n; i++) {
            double ma = chord(i - 1); // chord (x_{i-1}, x_i) extended right
            double mb = chord(i + 1); // chord (x_{i+1}, x_{i+2}) extended left
            double z;
            if (ma - mb <= 1e-12 * (Math.abs(ma) + Math.abs(mb))) {
                z = 0.5 * (xs[i] + xs[i + 1]);
            } else {
                z = (hs[i + 1] - hs[i] - mb * xs[i + 1] + ma * xs[i]) / (ma - mb);
                z = Math.min(xs[i + 1], Math.max(xs[i], z));
            }
            addPiece(xs[i], z, xs[i], hs[i], ma);
            addPiece(z, xs[i + 1], xs[i + 1], hs[i + 1], mb);
        }
        addPiece(xs[n - 2], xs[n - 1], xs[n - 2], hs[n - 2], chord(n - 3));
        addPiece(xs[n - 1], upper, xs[n - 1], hs[n - 1], chord(n - 2));
    }

    private void addPiece(double l, double r, double a, double v, double s) {
        if (!(r > l)) {
            return;
        }
        left[pieces] = l;
        right[pieces] = r;
        anchor[pieces] = a;
        value[pieces] = v;
        slope[pieces] = s;
        pieces++;
    }

    /** ln ∫ over piece j of exp(value + slope·(x − anchor)). */
    private double logArea(int j) {
        double s = slope[j];
        double w = right[j] - left[j];
        if (s == 0) {
            return value[j] + Math.log(w);
        }
        if (s > 0) {
            return value[j] + s * (right[j] - anchor[j]) + Math.log(-Math.expm1(-s * w)) - Math.log(s);
        }
        return value[j] + s * (left[j] - anchor[j]) + Math.log(-Math.expm1(s * w)) - Math.log(-s);
    }

    /** A draw from the piece's truncated exponential density by inversion. */
    private double sampleInPiece(int j, double u) {
        double s = slope[j];
        double l = left[j];
        double r = right[j];
        double x;
        if (s == 0) {
            x = l + u * (r - l);
        } else if (s > 0) {
            x = r + Math.log1p((1 - u) * Math.expm1(-s * (r - l))) / s;
        } else {
            x = l + Math.log1p(u * Math.expm1(s * (r - l))) / s;
        }
        return Math.min(r, Math.max(l, x));
    }

    /** The squeeze: chord interpolation of h between abscissae, −∞ outside [x₁, x_n]. */
    private double squeeze(double x) {
        if (x < xs[0] || x > xs[n - 1]) {
            return Double.NEGATIVE_INFINITY;
        }
        int i = Arrays.binarySearch(xs, 0, n, x);
        if (i >= 0) {
            return hs[i];
        }
        int k = -i - 2; // xs[k] < x < xs[k + 1]
        return hs[k] + (hs[k + 1] - hs[k]) * (x - xs[k]) / (xs[k + 1] - xs[k]);
    }

    /**
     * @throws NotLogConcaveException when the draws reveal that h is not concave
     */
    @Override
    public double sample() {
        while (true) {
            proposals++;
            double u = rng.nextDouble();
            int j = 0;
            while (j < pieces - 1 && cumulative[j] <= u) {
                j++;
            }
            double x = sampleInPiece(j, InverseCdfSampler.openUniform(rng));
            double envelope = value[j] + slope[j] * (x - anchor[j]);
            double logU = Math.log(InverseCdfSampler.openUniform(rng));
            double low = squeeze(x);
            if (logU <= low - envelope) {
                accepted++;
                return x;
            }
            double hx = h.value(x);
            evaluations++;
            if (Double.isNaN(hx) || hx == Double.POSITIVE_INFINITY) {
                throw new IllegalStateException("ln p̃(" + x + ") = " + hx);
            }
            double tol = 1e-9 * (1 + Math.abs(hx));
            if (hx > envelope + tol) {
                throw new NotLogConcaveException("not log-concave: h(" + x + ") = " + hx + " lies above the hull "
                    + envelope);
            }
            if (hx < low - tol) {
                throw new NotLogConcaveException("not log-concave: h(" + x + ") = " + hx + " lies below the chord "
                    + low);
            }
            boolean accept = logU <= hx - envelope;
            if (accept) {
                accepted++;
            }
            insert(x, hx);
            if (accept) {
                return x;
            }
        }
    }

    private void insert(double x, double hx) {
        if (n == MAX_ABSCISSAE || !Double.isFinite(hx)) {
            return;
        }
        int i = Arrays.binarySearch(xs, 0, n, x);
        if (i >= 0) {
            return;
        }
        double dx = 0;
        if (dh != null) {
            dx = dh.derivative(x);
            if (!Double.isFinite(dx)) {
                return;
            }
        }
        int at = -i - 1;
        System.arraycopy(xs, at, xs, at + 1, n - at);
        System.arraycopy(hs, at, hs, at + 1, n - at);
        System.arraycopy(ds, at, ds, at + 1, n - at);
        xs[at] = x;
        hs[at] = hx;
        ds[at] = dx;
        n++;
        build();
    }

    /** The current number of abscissae. */
    public int abscissae() {
        return n;
    }

    public long proposals() {
        return proposals;
    }

    /** Evaluations of h after construction (proposals the squeeze could not decide). */
    public long evaluations() {
        return evaluations;
    }

    /** Accepted / proposed so far (NaN before the first draw). */
    public double acceptanceRate() {
        return proposals == 0 ? Double.NaN : (double) accepted / proposals;
    }
}
