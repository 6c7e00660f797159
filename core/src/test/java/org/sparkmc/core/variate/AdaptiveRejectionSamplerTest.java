package org.sparkmc.core.variate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.DoubleUnaryOperator;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.statistics.distribution.GammaDistribution;
import org.apache.commons.statistics.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.random.RandomStreams;

/**
 * Adaptive rejection sampling, both forms, against exact distributions: Gamma with non-integer shape, the
 * standard normal, a truncated normal, and a 1-d logistic-regression posterior (exact CDF by quadrature). Pattern
 * (a) of {@link GoodnessOfFit} (≈0.16% false alarms) unless stated otherwise.
 */
class AdaptiveRejectionSamplerTest {
    private static final RandomStreams STREAMS = new RandomStreams(4242);

    /** Gamma(2.7, 1): h = 1.7 ln x − x, h' = 1.7/x − 1. */
    private static final DifferentiableLogDensity GAMMA = DifferentiableLogDensity.of(
        x -> 1.7 * Math.log(x) - x, x -> 1.7 / x - 1);
    private static final DifferentiableLogDensity NORMAL = DifferentiableLogDensity.of(x -> -0.5 * x * x, x -> -x);

    private static void assertFits(java.util.function.LongFunction<org.apache.commons.rng.sampling.distribution
            .ContinuousSampler> s, DoubleUnaryOperator cdf) {
        int failed = GoodnessOfFit.failedRepetitions(s, cdf);
        assertTrue(failed <= GoodnessOfFit.ALLOWED_FAILURES, failed + " repetitions failed");
    }

    @Test
    void tangentFormSamplesAGammaWithNonIntegerShape() {
        GammaDistribution exact = GammaDistribution.of(2.7, 1);
        assertFits(rep -> AdaptiveRejectionSampler.of(STREAMS.stream("t-gamma", rep), GAMMA, 0,
            Double.POSITIVE_INFINITY, 1, 4), exact::cumulativeProbability);
    }

    @Test
    void secantFormSamplesAGammaWithNonIntegerShape() {
        GammaDistribution exact = GammaDistribution.of(2.7, 1);
        assertFits(rep -> AdaptiveRejectionSampler.derivativeFree(STREAMS.stream("s-gamma", rep), GAMMA, 0,
            Double.POSITIVE_INFINITY, 0.5, 2, 5), exact::cumulativeProbability);
    }

    @Test
    void bothFormsSampleTheNormalOnTheWholeLine() {
        NormalDistribution exact = NormalDistribution.of(0, 1);
        assertFits(rep -> AdaptiveRejectionSampler.of(STREAMS.stream("t-normal", rep), NORMAL,
            Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, -1, 1), exact::cumulativeProbability);
        assertFits(rep -> AdaptiveRejectionSampler.derivativeFree(STREAMS.stream("s-normal", rep), NORMAL,
            Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, -2, 0.3, 1.5), exact::cumulativeProbability);
    }

    /** N(0,1) truncated to (0.5, 2): bounded support, the envelope's end pieces end at the bounds. */
    @Test
    void bothFormsSampleATruncatedNormal() {
        NormalDistribution n = NormalDistribution.of(0, 1);
        double lo = n.cumulativeProbability(0.5);
        double mass = n.cumulativeProbability(2) - lo;
        DoubleUnaryOperator cdf = x -> (n.cumulativeProbability(x) - lo) / mass;
        assertFits(rep -> AdaptiveRejectionSampler.of(STREAMS.stream("t-trunc", rep), NORMAL, 0.5, 2, 1), cdf);
        assertFits(rep -> AdaptiveRejectionSampler.derivativeFree(STREAMS.stream("s-trunc", rep), NORMAL, 0.5, 2,
            0.7, 1, 1.5), cdf);
    }

    /**
     * A log-concave posterior as a Gibbs full conditional: β with prior N(0, 2²) and logistic likelihood
     * Π σ(β x_i)^{y_i} (1 − σ(β x_i))^{1−y_i}. Each draw builds a fresh sampler through the
     * {@link FullConditionalSampler} interface, as a Gibbs sweep would. 20 repetitions of 5,000 draws, chi-square
     * at 1%, at most 2 failures: false-alarm rate P(Bin(20, 0.01) &gt; 2) ≈ 0.1%.
     */
    @Test
    void logisticRegressionFullConditionalThroughTheGibbsInterface() {
        double[] x = {-1.5, -0.7, -0.2, 0.1, 0.4, 0.9, 1.3, 2.0, -1.1, 0.6};
        int[] y = {0, 0, 1, 0, 1, 1, 1, 1, 0, 0};
        DifferentiableLogDensity h = DifferentiableLogDensity.of(b -> {
            double s = -b * b / 8;
            for (int i = 0; i < x.length; i++) {
                double eta = b * x[i];
                s += y[i] * eta - Math.log1p(Math.exp(eta));
            }
            return s;
        }, b -> {
            double s = -b / 4;
            for (int i = 0; i < x.length; i++) {
                s += (y[i] - 1 / (1 + Math.exp(-b * x[i]))) * x[i];
            }
            return s;
        });
        DoubleUnaryOperator cdf = quadratureCdf(h, -15, 15, 200_000);
        for (FullConditionalSampler method : new FullConditionalSampler[] {AdaptiveRejectionSampler.TANGENT,
                AdaptiveRejectionSampler.SECANT}) {
            int failed = GoodnessOfFit.failedRepetitions(rep -> {
                UniformRandomProvider rng = STREAMS.stream(method == AdaptiveRejectionSampler.TANGENT ? "t-lr" : "s-lr",
                    rep);
                return () -> method.sample(rng, h, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, -3, 0.5, 4);
            }, cdf, 20, 5000);
            assertTrue(failed <= 2, failed + " of 20 repetitions failed");
        }
    }

    /** The CDF of exp(h) on [a, b] by the trapezoid rule on a fine grid, interpolated linearly. */
    private static DoubleUnaryOperator quadratureCdf(LogDensity h, double a, double b, int n) {
        double step = (b - a) / n;
        double[] c = new double[n + 1];
        double prev = Math.exp(h.value(a));
        for (int i = 1; i <= n; i++) {
            double cur = Math.exp(h.value(a + i * step));
            c[i] = c[i - 1] + 0.5 * (prev + cur) * step;
            prev = cur;
        }
        double z = c[n];
        return t -> {
            if (t <= a) {
                return 0;
            }
            if (t >= b) {
                return 1;
            }
            double pos = (t - a) / step;
            int i = (int) Math.min(n - 1, Math.floor(pos));
            return (c[i] + (pos - i) * (c[i + 1] - c[i])) / z;
        };
    }

    /** A well-separated normal mixture is bimodal, not log-concave: both forms must refuse to sample it. */
    @Test
    void detectsADensityThatIsNotLogConcave() {
        LogDensity v = t -> Math.log(0.5 * Math.exp(-0.5 * (t + 3) * (t + 3)) + 0.5 * Math.exp(-0.5 * (t - 3) * (t - 3)));
        LogDensity d = t -> {
            double a = Math.exp(-0.5 * (t + 3) * (t + 3));
            double b = Math.exp(-0.5 * (t - 3) * (t - 3));
            return (-(t + 3) * a - (t - 3) * b) / (a + b);
        };
        DifferentiableLogDensity mixture = DifferentiableLogDensity.of(v, d);
        for (int variant = 0; variant < 2; variant++) {
            UniformRandomProvider rng = STREAMS.stream("bimodal", variant);
            AdaptiveRejectionSampler s = variant == 0
                ? AdaptiveRejectionSampler.of(rng, mixture, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, -4, 4)
                : AdaptiveRejectionSampler.derivativeFree(rng, mixture, Double.NEGATIVE_INFINITY,
                    Double.POSITIVE_INFINITY, -4, -3.5, 4);
            assertThrows(NotLogConcaveException.class, () -> {
                for (int i = 0; i < 10_000; i++) {
                    s.sample();
                }
            });
        }
        // Initial abscissae alone can show it: h' rises from about −0.5 at x = −2.5 to 0 at x = 0 …
        assertThrows(NotLogConcaveException.class, () -> AdaptiveRejectionSampler.of(STREAMS.stream("init"), mixture,
            Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, -3.5, -2.5, 0, 3.5));
        // … and so can the chords of the derivative-free form.
        assertThrows(NotLogConcaveException.class, () -> AdaptiveRejectionSampler.derivativeFree(
            STREAMS.stream("init"), mixture, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, -4, -3, 0, 3, 4));
    }

    /** Log-convex tails (Student t with 2 degrees of freedom) are caught too, not sampled with a biased hull. */
    @Test
    void detectsHeavyTails() {
        DifferentiableLogDensity t2 = DifferentiableLogDensity.of(x -> -1.5 * Math.log1p(x * x / 2),
            x -> -1.5 * x / (1 + x * x / 2));
        for (int variant = 0; variant < 2; variant++) {
            UniformRandomProvider rng = STREAMS.stream("t2", variant);
            AdaptiveRejectionSampler s = variant == 0
                ? AdaptiveRejectionSampler.of(rng, t2, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, -1, 1)
                : AdaptiveRejectionSampler.derivativeFree(rng, t2, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
                    -1, 0.2, 1);
            assertThrows(NotLogConcaveException.class, () -> {
                for (int i = 0; i < 100_000; i++) {
                    s.sample();
                }
            });
        }
    }

    @Test
    void unboundedSupportNeedsAbscissaeOnBothSidesOfTheMode() {
        UniformRandomProvider rng = STREAMS.stream("ends");
        assertThrows(IllegalArgumentException.class, () -> AdaptiveRejectionSampler.of(rng, NORMAL,
            Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, 1, 2));
        assertThrows(IllegalArgumentException.class, () -> AdaptiveRejectionSampler.derivativeFree(rng, NORMAL,
            Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, -3, -2, -1));
        assertThrows(IllegalArgumentException.class, () -> AdaptiveRejectionSampler.derivativeFree(rng, NORMAL,
            -1, 1, 0, 0.5));
        assertThrows(IllegalArgumentException.class, () -> AdaptiveRejectionSampler.of(rng, GAMMA, 0, 10, -1));
        assertThrows(IllegalArgumentException.class, () -> AdaptiveRejectionSampler.TANGENT.sample(rng,
            t -> -t * t, -1, 1, 0));
    }

    /** The envelope adapts: after warm-up almost every proposal is accepted and few need h. */
    @Test
    void theEnvelopeTightens() {
        AdaptiveRejectionSampler s = AdaptiveRejectionSampler.of(STREAMS.stream("adapt"), GAMMA, 0,
            Double.POSITIVE_INFINITY, 1, 4);
        for (int i = 0; i < 20_000; i++) {
            s.sample();
        }
        assertTrue(s.acceptanceRate() > 0.97, "acceptance " + s.acceptanceRate());
        assertTrue(s.evaluations() < 400, "evaluations " + s.evaluations());
        assertTrue(s.abscissae() > 5);
    }

    /**
     * The standard normal truncated to (a, ∞) far in its tail: mean λ and variance 1 + aλ − λ² with λ = φ(a)/Q(a),
     * here λ = a + t from the continued fraction Q(a)/φ(a) = 1/(a + 1/(a + 2/(a + 3/(a + …)))) (λ − a = t without
     * cancellation). Each case draws 200,000 independent values by the tangent form (whose close abscissae made
     * the tangents' intersection cancel catastrophically, and threw NotLogConcaveException for a = 100, 20 and 10)
     * and tests the sample mean and variance at 4.5 standard errors (the variance's from the draws' fourth central
     * moment): false-failure rate about 2 × 6.8e-6 per case, 4e-5 for the three. Fixed seeds.
     */
    @Test
    void tangentFormSamplesTheFarTailOfTheNormal() {
        for (double a : new double[] {10, 20, 100}) {
            double t = 0;
            for (int k = 400; k >= 1; k--) {
                t = k / (a + t);
            }
            // t = 1/(a + 2/(a + …)) = λ − a
            double mean = a + t;
            double variance = 1 - a * t - t * t;
            AdaptiveRejectionSampler s = AdaptiveRejectionSampler.of(STREAMS.stream("far-tail", (long) a), NORMAL, a,
                Double.POSITIVE_INFINITY, a + 0.5);
            int n = 200_000;
            double[] x = new double[n];
            double sum = 0;
            for (int i = 0; i < n; i++) {
                x[i] = s.sample();
                assertTrue(x[i] > a, "draw " + x[i] + " outside (" + a + ", ∞)");
                sum += x[i] - a;
            }
            double m = a + sum / n;
            double m2 = 0;
            double m4 = 0;
            for (double v : x) {
                double d = v - m;
                m2 += d * d;
                m4 += d * d * d * d;
            }
            m2 /= n - 1;
            m4 /= n;
            assertEquals(mean, m, 4.5 * Math.sqrt(variance / n), "mean, a = " + a);
            assertEquals(variance, m2, 4.5 * Math.sqrt((m4 - m2 * m2) / n), "variance, a = " + a);
        }
    }

    /**
     * The case reported to throw: the normal truncated to (30, 30.01), where adaptation packs abscissae closer than
     * 1e-7 with h near −450. Every draw must lie in the interval; no exception.
     */
    @Test
    void tangentFormSamplesANarrowIntervalFarOut() {
        for (int rep = 0; rep < 3; rep++) {
            AdaptiveRejectionSampler s = AdaptiveRejectionSampler.of(STREAMS.stream("narrow", rep), NORMAL, 30, 30.01,
                30.005);
            for (int i = 0; i < 200_000; i++) {
                double x = s.sample();
                assertTrue(x > 30 && x < 30.01, "draw " + x);
            }
        }
    }
}
