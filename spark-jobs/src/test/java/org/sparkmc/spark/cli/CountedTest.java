package org.sparkmc.spark.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Counts in messages: "1 sampling rounds" and "1 waves" were printed. */
class CountedTest {
    @Test
    void oneIsSingularEveryOtherCountPlural() {
        assertEquals("1 sampling round", Counted.of(1, "sampling round"));
        assertEquals("0 waves", Counted.of(0, "wave"));
        assertEquals("3 partitions", Counted.of(3, "partition"));
    }
}
