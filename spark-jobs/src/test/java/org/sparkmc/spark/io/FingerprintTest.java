package org.sparkmc.spark.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** How a fingerprint spells records: names, values, nesting, exclusions, and what it refuses. */
class FingerprintTest {
    enum Scheme { SYSTEMATIC, SUB_STEP }

    record Inner(double essThreshold, Scheme scheme) {
    }

    record Settings(int roundSize, @NotInFingerprint int partitions, Inner options, String timeColumn,
            boolean adapt) {
    }

    record Other(long seed) {
    }

    record WithObject(Object model) {
    }

    record WithList(List<String> columns) {
    }

    record Twice(int roundSize) {
    }

    @Test
    void componentsInOrderNestedFlattenedExcludedLeftOut() {
        String f = Fingerprint.of(new Settings(100, 4, new Inner(0.5, Scheme.SUB_STEP), null, true), new Other(7));
        assertEquals(Fingerprint.FORM + " round-size=100 ess-threshold=0.5 scheme=sub-step time-column=none adapt=true "
                + "seed=7", f);
        assertTrue(Fingerprint.isCurrent(f));
        assertFalse(Fingerprint.isCurrent("model=a seed=1"));
        assertEquals(f, Fingerprint.of(new Settings(100, 8, new Inner(0.5, Scheme.SUB_STEP), null, true),
                new Other(7)), "partitions is not in it");
    }

    /** What it cannot spell, and two settings of one name, are refused rather than left out silently. */
    @Test
    void refusesObjectsCollectionsAndRepeatedNames() {
        IllegalArgumentException object = assertThrows(IllegalArgumentException.class,
                () -> Fingerprint.of(new WithObject(new Object())));
        assertTrue(object.getMessage().contains("component 'model'") && object.getMessage()
                .contains("@NotInFingerprint"), object.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Fingerprint.of(new WithList(List.of("a"))));
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> Fingerprint.of(new Other(1), new Settings(1, 1, new Inner(0, Scheme.SYSTEMATIC), "t", false),
                        new Twice(2)));
        assertTrue(twice.getMessage().contains("two settings named 'round-size'"), twice.getMessage());
    }

    @Test
    void namesAreTheOptionsSpelling() {
        assertEquals("left-to-right-moves", Fingerprint.optionName("leftToRightMoves"));
        assertEquals("params-sha256", Fingerprint.optionName("paramsSha256"));
        assertEquals("seed", Fingerprint.optionName("seed"));
    }

    @Test
    void mapsHashInKeyOrder() {
        assertEquals(Fingerprint.sha256(Map.of("a", 1, "b", List.of(2.0))),
                Fingerprint.sha256(new java.util.LinkedHashMap<>(Map.of("b", List.of(2.0), "a", 1))));
        assertEquals(CheckpointStates.sha256("{a=1, b=[2.0]}"), Fingerprint.sha256(Map.of("a", 1, "b", List.of(2.0))));
    }
}
