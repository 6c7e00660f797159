package org.sparkmc.core.smc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.InvalidInputException;

/** Parsing observation files, and the errors users see for bad ones (deterministic). */
class ObservationCsvTest {
    private static Observations read(String text, ObservationCsv.Options options) {
        return ObservationCsv.read(new StringReader(text), "obs.csv", options);
    }

    private static String error(String text, ObservationCsv.Options options) {
        return assertThrows(InvalidInputException.class, () -> read(text, options)).getMessage();
    }

    @Test
    void theNileFileWithAQuotedHeaderAndANamedTimeColumn() {
        Observations nile = NileData.load();
        assertEquals(List.of("flow"), nile.columns());
        assertEquals(100, nile.size());
        assertEquals(1970, nile.time(99));
        assertEquals(740, nile.value(99)[0]);
    }

    @Test
    void timeColumnIsFoundByNameAndSeveralColumnsAreRead() {
        Observations o = read("# comment\nt,a,b\n\n1,0.5,2\n2,-1e3,3.25\n", ObservationCsv.Options.defaults());
        assertEquals(List.of("a", "b"), o.columns());
        assertEquals(2, o.time(1));
        assertArrayEquals(new double[] {-1000, 3.25}, o.value(1));
        Observations chosen = read("t,a,b\n1,0.5,2\n", ObservationCsv.Options.defaults().withValueColumns(List.of("b")));
        assertArrayEquals(new double[] {2}, chosen.value(0));
    }

    @Test
    void withoutHeaderColumnsAreNumberedAndTimesCount() {
        Observations o = read("1.5,2\n3,4\n", ObservationCsv.Options.defaults());
        assertEquals(List.of("y1", "y2"), o.columns());
        assertEquals(1, o.time(1));
        assertArrayEquals(new double[] {3, 4}, o.value(1));
    }

    /**
     * A one-column series written by pandas has a blank line for each NaN: that step stays in place (it was dropped,
     * shifting every later observation one step earlier). Blank lines elsewhere are still skipped.
     */
    @Test
    void aBlankLineInAOneColumnFileIsAMissingValue() {
        String text = "flow\n1120\n1160\n\n963\n1210\n\n";
        Observations skipped = read(text, ObservationCsv.Options.defaults().withMissing(MissingObservations.SKIP));
        assertEquals(5, skipped.size(), "the trailing blank line is not a step");
        assertTrue(Double.isNaN(skipped.value(2)[0]));
        assertEquals(963, skipped.value(3)[0]);
        String failed = error(text, ObservationCsv.Options.defaults());
        assertTrue(failed.contains("obs.csv line 4: column 'flow' is missing ('': a blank line"), failed);
        assertEquals(2, read("\nflow\n\n1120\n1160\n", ObservationCsv.Options.defaults()).size(),
                "blank lines before the first row are not steps");
    }

    @Test
    void malformedInputNamesSourceLineAndColumn() {
        ObservationCsv.Options d = ObservationCsv.Options.defaults();
        String bad = error("t,y\n1,2\n\n2,abc\n", d);
        assertTrue(bad.contains("obs.csv line 4") && bad.contains("'y'") && bad.contains("abc"), bad);
        String ragged = error("t,y\n1,2\n2,3,4\n", d);
        assertTrue(ragged.contains("line 3") && ragged.contains("3 fields, expected 2"), ragged);
        String noRows = error("t,y\n", d);
        assertTrue(noRows.contains("no observation rows"), noRows);
        String unknown = error("t,y\n1,2\n", d.withTimeColumn("year"));
        assertTrue(unknown.contains("no time column 'year'") && unknown.contains("t,y"), unknown);
        String infinite = error("t,y\n1,Infinity\n", d);
        assertTrue(infinite.contains("finite"), infinite);
        String quote = error("t,y\n1,\"2\n", d);
        assertTrue(quote.contains("line 2: field 2 opens a quote that the line does not close"), quote);
        String glued = error("t,y\n1,\"11\"20\n", d); // it was read as 1120
        assertTrue(glued.contains("line 2: field 2 has text after its closing quote"), glued);
        String noTime = error("t,y\n1,2\nNA,3\n", d);
        assertTrue(noTime.contains("line 3") && noTime.contains("time"), noTime);
        // the time column refuses NA, so its message does not offer it; an observation column's does
        String date = error("date,flow\n1871-01-01,1120\n", d.withTimeColumn("date"));
        assertTrue(date.contains("obs.csv line 2: column 'date' holds '1871-01-01', expected a number (the time "
                + "column takes numbers only, not dates") && !date.contains("NA"), date);
        String word = error("t,y\n1,abc\n", d);
        assertTrue(word.contains("column 'y' holds 'abc', expected a number (or NA for a missing value)"), word);
        // two columns of one name: which would --time-column year mean?
        String twice = error("# Nile\nyear,year\n1871,1120\n", d.withTimeColumn("year"));
        assertTrue(twice.contains("obs.csv line 2: columns 1 and 2 are both named 'year'"), twice);
        // an empty name (a header ending in a comma) was a column '' whose empty fields made every row missing
        String nameless = error("t,a,\n1,1,\n2,2,\n", d);
        assertTrue(nameless.contains("obs.csv line 1: column 3 has no name (does the header end in a comma?)"),
                nameless);
        // Java's own number forms are no numbers here: 1120d, hexadecimal
        for (String java : List.of("1120d", "0x460p0", "2F")) {
            String suffix = error("t,y\n1," + java + "\n", d);
            assertTrue(suffix.contains("line 2: column 'y' holds '" + java + "', expected a number"), suffix);
        }
        // a first row with one stray word is a bad data row, not a header
        String stray = error("1,abc\n2,3\n", d);
        assertTrue(stray.contains("line 1"), stray);
    }

    @Test
    void missingValuesFailUnlessSkipping() {
        String text = "t,y\n1,2\n2,NA\n3,\n4,nan\n5,6\n";
        String failed = error(text, ObservationCsv.Options.defaults());
        assertTrue(failed.contains("obs.csv line 3") && failed.contains("skip"), failed);
        Observations o = read(text, ObservationCsv.Options.defaults().withMissing(MissingObservations.SKIP));
        assertEquals(5, o.size());
        assertEquals(3, o.missingCount());
        assertTrue(Double.isNaN(o.value(1)[0]));
        assertEquals(6, o.value(4)[0]);
    }

    @Test
    void aFirstRowOfMissingValuesIsDataNotAHeader() {
        String text = "NA\n1120\n1160\n";
        String failed = error(text, ObservationCsv.Options.defaults());
        assertTrue(failed.contains("obs.csv line 1"), failed);
        Observations o = read(text, ObservationCsv.Options.defaults().withMissing(MissingObservations.SKIP));
        assertEquals(3, o.size());
        assertEquals(List.of("y1"), o.columns());
        assertTrue(Double.isNaN(o.value(0)[0]));
        assertEquals(1160, o.value(2)[0]);
    }
}
