package org.sparkmc.spark.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Axis ticks: round 1-2-5 steps, distinct labels, axes that cover the data, and no negative zero. */
class TicksTest {

    @Test
    void stepsAreOneTwoOrFiveTimesAPowerOfTen() {
        assertEquals(0.002, Ticks.step(0.009, 5), 1e-15);
        assertEquals(0.5, Ticks.step(2.1, 5), 1e-15);
        assertEquals(1, Ticks.step(5, 5), 1e-15);
        assertEquals(2000, Ticks.step(9000, 5), 1e-9);
        assertEquals(5e-5, Ticks.step(1.7e-4, 4), 1e-18);
        assertEquals(20, Ticks.step(95, 4), 1e-12);
        for (double span : new double[] {1e-6, 3.3e-4, 0.07, 1, 7.77, 123, 98765, 3e9}) {
            for (int intervals = 2; intervals <= 11; intervals++) {
                double step = Ticks.step(span, intervals);
                double mantissa = step / Math.pow(10, Math.floor(Math.log10(step) + 1e-9));
                assertTrue(List.of(1.0, 2.0, 5.0).stream().anyMatch(m -> Math.abs(m - mantissa) < 1e-9),
                        span + "/" + intervals + " gave step " + step);
                assertTrue(span / step <= intervals * 1.59 && span / step >= intervals / 1.59,
                        "about " + intervals + " intervals: " + span / step);
            }
        }
    }

    /** The reviewer's case: max R-hat between 1.0012 and the threshold 1.01 gave five labels "1.01". */
    @Test
    void rhatAxisLabelsAreDistinctRoundNumbers() {
        Ticks t = Ticks.covering(1.0012, 1.01, 5);
        assertEquals(List.of("1.000", "1.002", "1.004", "1.006", "1.008", "1.010"), labels(t));
        Ticks close = Ticks.covering(1.00013, 1.00041, 3);
        assertEquals(List.of("1.0001", "1.0002", "1.0003", "1.0004", "1.0005"), labels(close));
        assertDistinct(close);
    }

    @Test
    void labelsAreDistinctWhateverTheRange() {
        double[] starts = {-3.7, 0, 0.00123, 1, 1871, 1e6};
        double[] spans = {1e-5, 3e-4, 0.0099, 0.5, 7, 1234, 8e6};
        for (double lo : starts) {
            for (double span : spans) {
                for (int intervals : new int[] {2, 4, 5, 11}) {
                    assertDistinct(Ticks.covering(lo, lo + span, intervals));
                    assertDistinct(Ticks.within(lo, lo + span, intervals));
                }
            }
        }
    }

    @Test
    void coveringAxisBeginsAndEndsOnATickAroundTheData() {
        Ticks t = Ticks.covering(456.3, 1370, 5);
        assertEquals(200, t.step());
        assertEquals(400, t.lo());
        assertEquals(1400, t.hi());
        assertArrayEquals(new double[] {400, 600, 800, 1000, 1200, 1400}, t.values());
    }

    @Test
    void withinKeepsTheRangeAndPutsTicksInside() {
        Ticks t = Ticks.within(1871, 1970, 5);
        assertEquals(1871, t.lo());
        assertEquals(1970, t.hi());
        assertEquals(List.of("1880", "1900", "1920", "1940", "1960"), labels(t));
    }

    /** A non-negative quantity's axis that starts at 0 stays at 0: no "-0.0013" for seconds or densities. */
    @Test
    void nonNegativeRangesNeverGoBelowZero() {
        for (double hi : new double[] {1e-9, 0.0013, 0.02, 0.999, 3, 12345}) {
            Ticks t = Ticks.covering(0, hi, 4);
            assertEquals(0, t.lo());
            assertTrue(t.hi() >= hi);
            assertTrue(Arrays.stream(t.values()).allMatch(v -> v >= 0));
            assertFalse(labels(t).stream().anyMatch(l -> l.startsWith("-")), labels(t).toString());
        }
        assertEquals(List.of("-1.0", "-0.5", "0.0", "0.5", "1.0"), labels(Ticks.covering(-0.9, 0.9, 4)));
    }

    @Test
    void constantAndNonFiniteRangesStillGiveAnAxis() {
        Ticks one = Ticks.covering(1, 1, 4);
        assertTrue(one.lo() < 1 && one.hi() > 1);
        assertDistinct(one);
        assertTrue(Ticks.covering(0, 0, 4).hi() > 0);
        assertEquals(new Ticks(0, 1, 0.2), Ticks.covering(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 5));
    }

    /** Draws near 1e-310 (subnormal) threw "ticks need lo < hi"; near 1e200 their labels had 200 digits. */
    @Test
    void extremeRangesGetTicksAndScientificLabels() {
        Ticks tiny = Ticks.covering(1.1e-310, 1.9e-310, 4);
        assertEquals(List.of("1.0e-310", "1.2e-310", "1.4e-310", "1.6e-310", "1.8e-310", "2.0e-310"), labels(tiny));
        Ticks huge = Ticks.covering(1.1e200, 1.9e200, 4);
        assertEquals(List.of("1.0e+200", "1.2e+200", "1.4e+200", "1.6e+200", "1.8e+200", "2.0e+200"), labels(huge));
        Ticks constant = Ticks.covering(1e-310, 1e-310, 4);
        assertTrue(constant.hi() > constant.lo() && labels(constant).stream().distinct().count() >= 2);
    }

    /**
     * Finite draws at the ends of the doubles threw (the probe's diagnose inputs: the constants 4.9e-324 and 1.79e308,
     * draws alternating ±Double.MAX_VALUE, draws in [1.69e308, 1.79e308]), failing the whole run: the span or the
     * rounded ends overflowed, or 1% of a subnormal rounded to 0. Each now gets an axis inside the doubles.
     */
    @Test
    void rangesAtTheEndsOfTheDoublesGetAFiniteAxis() {
        double max = Double.MAX_VALUE;
        double[][] ranges = {{Double.MIN_VALUE, Double.MIN_VALUE}, {1e-322, 1e-322}, {1.79e308, 1.79e308},
            {max, max}, {-max, -max}, {-max, max}, {1.69e308, 1.79e308}, {-1.79e308, -1.69e308}};
        for (double[] r : ranges) {
            for (Ticks t : List.of(Ticks.covering(r[0], r[1], 5), Ticks.within(r[0], r[1], 5))) {
                String what = Arrays.toString(r) + " gave " + t;
                assertTrue(Double.isFinite(t.lo()) && Double.isFinite(t.hi()) && t.lo() < t.hi(), what);
                assertTrue(t.lo() <= r[0] && t.hi() >= r[1], what);
                assertDistinct(t);
                for (double v : t.values()) {
                    assertTrue(Double.isFinite(v) && t.fraction(v) >= -1e-9 && t.fraction(v) <= 1 + 1e-9, what);
                }
            }
        }
        Ticks widest = Ticks.within(-max, max, 4);
        assertEquals(0.5, widest.fraction(0), 1e-12);
        assertEquals(1, widest.fraction(max), 1e-12);
    }

    private static List<String> labels(Ticks t) {
        return Arrays.stream(t.values()).mapToObj(t::label).toList();
    }

    private static void assertDistinct(Ticks t) {
        List<String> labels = labels(t);
        Set<String> unique = new HashSet<>(labels);
        assertEquals(labels.size(), unique.size(), t + " gave " + labels);
        assertTrue(labels.size() >= 2, t + " gave " + labels);
    }
}
