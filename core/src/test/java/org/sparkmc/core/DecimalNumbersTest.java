package org.sparkmc.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Decimal text parses as Double.parseDouble parses it; Java's suffixes and hexadecimal do not. */
class DecimalNumbersTest {
    @Test
    void decimalTextParsesAsJavaParsesIt() {
        for (String text : List.of("0", "-1.5", "+2", ".5", "5.", "1e3", "-2.5E-7", " 3.25 ", "NaN", "Infinity",
                "-Infinity", "1e999")) {
            assertEquals(Double.parseDouble(text), DecimalNumbers.parse(text), text);
        }
    }

    @Test
    void javaOnlyFormsAreNoNumbers() {
        for (String text : List.of("1120d", "1120D", "2f", "2.5F ", "0x460p0", "0X1P-1", "1e3d", "abc", "", "1,5")) {
            assertThrows(NumberFormatException.class, () -> DecimalNumbers.parse(text), text);
        }
    }
}
