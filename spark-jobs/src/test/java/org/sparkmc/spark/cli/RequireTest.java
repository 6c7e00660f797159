package org.sparkmc.spark.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.sparkmc.core.InvalidInputException;

/** Each check takes its bound, refuses what is beyond it (NaN and infinities where a number is finite) by name. */
class RequireTest {

    @Test
    void countsAtTheirBoundPassAndBelowAreNamed() {
        assertEquals(1, Require.atLeast(1, 1, "--sweeps"));
        assertEquals(0L, Require.atLeast(0L, 0L, "--driver-draws-limit"));
        assertRefused("--sweeps must be ≥ 1, is 0", () -> Require.atLeast(0, 1, "--sweeps"));
        assertRefused("--rows must be ≥ 1, is -9000000000", () -> Require.atLeast(-9_000_000_000L, 1, "--rows"));
        assertEquals(2, Require.atLeast(2, 2, "--chains", "for R-hat"));
        assertRefused("--chains must be ≥ 2 for R-hat, is 1", () -> Require.atLeast(1, 2, "--chains", "for R-hat"));
    }

    @Test
    void numbersAtLeastABoundAreFinite() {
        assertEquals(0.0, Require.atLeast(0.0, 0, "--min-ess"));
        assertRefused("--min-ess must be a finite number ≥ 0, is -0.5", () -> Require.atLeast(-0.5, 0, "--min-ess"));
        assertRefused("--min-ess must be a finite number ≥ 0, is NaN", () -> Require.atLeast(Double.NaN, 0, "--min-ess"));
        assertRefused("--min-ess must be a finite number ≥ 0, is Infinity",
                () -> Require.atLeast(Double.POSITIVE_INFINITY, 0, "--min-ess"));
    }

    @Test
    void aboveIsStrictAndTakesInfinity() {
        assertEquals(1.01, Require.above(1.01, 1, "--max-rhat"));
        assertEquals(Double.POSITIVE_INFINITY, Require.above(Double.POSITIVE_INFINITY, 1, "--max-rhat"));
        assertRefused("--max-rhat must be > 1, is 1", () -> Require.above(1, 1, "--max-rhat"));
        assertRefused("--max-rhat must be > 1, is NaN", () -> Require.above(Double.NaN, 1, "--max-rhat"));
    }

    @Test
    void positiveIsFiniteAndAboveZero() {
        assertEquals(1e-300, Require.positive(1e-300, "--prior-sd"));
        assertRefused("--prior-sd must be a finite number > 0, is 0", () -> Require.positive(0, "--prior-sd"));
        assertRefused("--prior-sd must be a finite number > 0, is Infinity",
                () -> Require.positive(Double.POSITIVE_INFINITY, "--prior-sd"));
    }

    @Test
    void rangesIncludeTheirEnds() {
        assertEquals(0.0, Require.inRange(0, 0, 1, "--ess-threshold"));
        assertEquals(1.0, Require.inRange(1, 0, 1, "--ess-threshold"));
        assertRefused("--ess-threshold must be in [0, 1], is 1.5", () -> Require.inRange(1.5, 0, 1, "--ess-threshold"));
        assertRefused("--ess-threshold must be in [0, 1], is NaN",
                () -> Require.inRange(Double.NaN, 0, 1, "--ess-threshold"));
    }

    @Test
    void halfOpenRangesIncludeTheirLeastOnly() {
        assertEquals(0.0, Require.inHalfOpenRange(0, 0, 1, "--background"));
        assertEquals(0.5, Require.inHalfOpenRange(0.5, 0, 1, "--background"));
        assertRefused("--background must be in [0, 1), is 1", () -> Require.inHalfOpenRange(1, 0, 1, "--background"));
        assertRefused("--background must be in [0, 1), is NaN",
                () -> Require.inHalfOpenRange(Double.NaN, 0, 1, "--background"));
    }

    @Test
    void openRangesExcludeTheirEnds() {
        assertEquals(0.8, Require.inOpenRange(0.8, 0, 1, "--target-accept"));
        assertRefused("--target-accept must be in (0, 1), is 0", () -> Require.inOpenRange(0, 0, 1, "--target-accept"));
        assertRefused("--target-accept must be in (0, 1), is 1", () -> Require.inOpenRange(1, 0, 1, "--target-accept"));
        assertRefused("--target-accept must be in (0, 1), is NaN",
                () -> Require.inOpenRange(Double.NaN, 0, 1, "--target-accept"));
    }

    @Test
    void wordsComeFromTheirList() {
        assertEquals("csv", Require.oneOf("csv", List.of("parquet", "csv"), "--format"));
        assertRefused("--format must be one of parquet, csv, is 'CSV'",
                () -> Require.oneOf("CSV", List.of("parquet", "csv"), "--format"));
    }

    private static void assertRefused(String message, Executable check) {
        assertEquals(message, assertThrows(InvalidInputException.class, check).getMessage());
    }
}
