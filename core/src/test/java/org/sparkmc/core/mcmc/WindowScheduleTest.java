package org.sparkmc.core.mcmc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Stan's windowed warm-up schedule, against the windows Stan prints ("75 / 25 / 50" buffers and doubling windows:
 * for 1,000 iterations slow windows of 25, 50, 100, 200 and 500) and its rescaling for short warm-ups.
 * Deterministic.
 */
class WindowScheduleTest {

    @Test
    void stansDefaultWindowsForAThousandIterations() {
        WindowSchedule w = WindowSchedule.of(1000);
        assertArrayEquals(new int[] {99, 149, 249, 449, 949}, w.windowEnds());
        assertFalse(w.inSlowWindow(74));
        assertTrue(w.inSlowWindow(75));
        assertTrue(w.inSlowWindow(949));
        assertFalse(w.inSlowWindow(950), "the terminal fast interval");
        assertTrue(w.beforeFinalInterval(0), "the initial fast interval");
        assertTrue(w.beforeFinalInterval(949));
        assertFalse(w.beforeFinalInterval(950));
        assertTrue(w.endsWindow(449));
        assertFalse(w.endsWindow(450));
    }

    @Test
    void shortWarmupsAreRescaledAsStanDoes() {
        // 75 + 25 + 50 > 100: 15% initial, 10% terminal, one window of the rest
        assertArrayEquals(new int[] {89}, WindowSchedule.of(100).windowEnds());
        assertTrue(WindowSchedule.of(100).inSlowWindow(15));
        assertFalse(WindowSchedule.of(100).inSlowWindow(14));
        // 2,000 iterations: the last window stretched to the end of the slow phase
        assertArrayEquals(new int[] {99, 149, 249, 449, 849, 1949}, WindowSchedule.of(2000).windowEnds());
        assertArrayEquals(new int[0], WindowSchedule.of(19).windowEnds(), "no adaptation below 20");
        // the largest warm-up: doubling windows computed without int overflow (an endless loop before)
        int[] ends = WindowSchedule.of(Integer.MAX_VALUE).windowEnds();
        assertTrue(ends.length < 40 && ends[ends.length - 1] == Integer.MAX_VALUE - 51, java.util.Arrays.toString(ends));
    }
}
