package org.sparkmc.core.lda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.commons.numbers.gamma.LogGamma;
import org.junit.jupiter.api.Test;

class LogGammaTableTest {
    @Test
    void everyCountGivesLogGammaBitForBit() {
        for (double a : new double[] {0.01, 0.05, 0.5, 50.0, 100 * 0.5}) {
            LogGammaTable t = LogGammaTable.of(a);
            for (int n = 0; n < LogGammaTable.SIZE + 100; n++) {
                assertEquals(Double.doubleToRawLongBits(LogGamma.value(n + a)), Double.doubleToRawLongBits(t.value(n)),
                        "n=" + n + " a=" + a);
            }
            assertEquals(LogGamma.value(1_000_000 + a), t.value(1_000_000));
        }
    }

    @Test
    void tablesAreSharedPerOffsetAndNeedAPositiveOne() {
        assertSame(LogGammaTable.of(0.25), LogGammaTable.of(0.25));
        assertThrows(IllegalArgumentException.class, () -> LogGammaTable.of(0));
        assertThrows(IllegalArgumentException.class, () -> LogGammaTable.of(Double.NaN));
    }
}
