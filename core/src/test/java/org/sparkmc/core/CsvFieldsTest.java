package org.sparkmc.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Quoted fields keep their commas and doubled quotes; broken quoting is refused, naming the field. */
class CsvFieldsTest {
    @Test
    void fieldsPlainAndQuoted() {
        assertArrayEquals(new String[] {"a", "b", "c"}, CsvFields.split("a, b ,c"));
        assertArrayEquals(new String[] {"chain", "draw", "theta[1,1]", "theta[1,2]"},
                CsvFields.split("chain,draw,\"theta[1,1]\",\"theta[1,2]\""));
        assertArrayEquals(new String[] {"say \"hi\"", ""}, CsvFields.split("\"say \"\"hi\"\"\" ,"));
        assertArrayEquals(new String[] {"t", "a", ""}, CsvFields.split("t,a,"));
        assertArrayEquals(new String[] {""}, CsvFields.split(""));
        assertArrayEquals(new String[] {"", ""}, CsvFields.split(","));
    }

    @Test
    void brokenQuotingIsRefusedNamingTheField() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CsvFields.split("1,\"11\"20"))
                .getMessage().startsWith("field 2 has text after its closing quote"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CsvFields.split("1,\"2"))
                .getMessage().startsWith("field 2 opens a quote that the line does not close"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> CsvFields.split("a,b\"c"))
                .getMessage().startsWith("field 2 has a quote inside it but does not start with one"));
    }
}
