package org.sparkmc.core.bayesnet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.InvalidInputException;

/** The BIF reader on ALARM and on bad input (each error names the source, line and what is wrong). */
class BifReaderTest {
    private static final String SMALL = """
        network test { property "a;b"; }
        // a comment
        variable A { type discrete [ 2 ] { yes, no }; }
        variable B { type discrete [ 3 ] { lo, mid, hi }; property weight 3; }
        /* a block
           comment */
        probability ( A ) { table 0.3, 0.7; }
        probability ( B | A ) {
          (yes) 0.2, 0.3, 0.5;
          (no) 0.6, 0.3, 0.1;
        }
        """;

    static BayesNet read(String text) throws IOException {
        return BifReader.read(new StringReader(text), "test.bif");
    }

    private static String error(String text) {
        return assertThrows(InvalidInputException.class, () -> read(text)).getMessage();
    }

    @Test
    void readsAlarm() {
        BayesNet net = Alarm.network();
        assertEquals(37, net.size());
        int arcs = 0;
        int free = 0;
        for (int i = 0; i < net.size(); i++) {
            arcs += net.parents(i).length;
            free += net.table(i).length / net.cardinality(i) * (net.cardinality(i) - 1);
        }
        assertEquals(46, arcs);
        assertEquals(509, free);
        // Topological: every parent comes before its child.
        int[] position = new int[net.size()];
        int[] order = net.topologicalOrder();
        for (int k = 0; k < order.length; k++) {
            position[order[k]] = k;
        }
        for (int i = 0; i < net.size(); i++) {
            for (int p : net.parents(i)) {
                assertTrue(position[p] < position[i], net.variable(p) + " after " + net.variable(i));
            }
        }
        // HREKG's rows of 0.3333333 (sum 0.9999999) are normalised to sum 1.
        int hrekg = net.requireVariable("HREKG");
        double[] t = net.table(hrekg);
        assertEquals(1, t[0] + t[1] + t[2], 1e-15);
        assertEquals(1.0 / 3, t[0], 1e-15);
        // Rows are keyed by the parents' state names: P(HRBP = NORMAL | ERRLOWOUTPUT = FALSE, HR = LOW) = 0.59.
        int hrbp = net.requireVariable("HRBP");
        int[] a = new int[net.size()];
        a[net.requireVariable("ERRLOWOUTPUT")] = net.requireState(net.requireVariable("ERRLOWOUTPUT"), "FALSE");
        a[net.requireVariable("HR")] = net.requireState(net.requireVariable("HR"), "LOW");
        a[hrbp] = 1;
        assertEquals(0.59, net.probability(hrbp, a), 1e-15);
    }

    @Test
    void readsCommentsPropertiesAndBothEntryForms() throws IOException {
        BayesNet net = read(SMALL);
        assertEquals("test", net.name());
        assertArrayEquals(new String[] {"lo", "mid", "hi"}, net.states(1));
        assertArrayEquals(new double[] {0.3, 0.7}, net.table(0), 1e-15);
        assertArrayEquals(new double[] {0.2, 0.3, 0.5, 0.6, 0.3, 0.1}, net.table(1), 1e-15);
    }

    @Test
    void defaultRowsFillTheRest() throws IOException {
        BayesNet net = read(SMALL.replace("(no) 0.6, 0.3, 0.1;", "default 0.1, 0.1, 0.8;"));
        assertArrayEquals(new double[] {0.2, 0.3, 0.5, 0.1, 0.1, 0.8}, net.table(1), 1e-15);
    }

    @Test
    void normalisesRowsWithinTheToleranceAndRefusesWorseNamingVariableAndRow() throws IOException {
        BayesNet net = read(SMALL.replace("0.6, 0.3, 0.1", "0.6, 0.3, 0.1000005"));
        assertEquals(1, net.table(1)[3] + net.table(1)[4] + net.table(1)[5], 1e-15);
        String m = error(SMALL.replace("0.6, 0.3, 0.1", "0.6, 0.3, 0.11"));
        assertTrue(m.startsWith("test.bif:10: variable B, row (no): probabilities sum to 1.01"), m);
    }

    @Test
    void syntaxErrorsCarryTheLineAndColumn() {
        assertEquals("test.bif:10:12: variable B, row (no): expected ',' after a probability, found '0.3'",
            error(SMALL.replace("(no) 0.6, 0.3, 0.1;", "(no) 0.6 0.3, 0.1;")));
        assertEquals("test.bif:4:12: expected '{', found 'type'", error(SMALL.replace("variable B {", "variable B")));
        assertEquals("test.bif:7:1: expected 'network', 'variable' or 'probability', found 'probabilty'",
            error(SMALL.replace("probability ( A )", "probabilty ( A )")));
        assertEquals("test.bif:12:1: unterminated comment", error(SMALL + "/* never closed"));
        assertEquals("test.bif:10:22: unexpected end of input, expected '}'",
            error(SMALL.substring(0, SMALL.length() - 3)));
    }

    /** {@code F/**}{@code /} and {@code F//…} named the state {@code F/**}{@code /} or {@code F//…}. */
    @Test
    void aCommentRightAfterAWordEndsTheWord() throws IOException {
        for (String list : new String[] {"{ yes, no/**/ }", "{ yes, no//no\n }", "{ yes/* x */, no// trailing\n }"}) {
            assertArrayEquals(new String[] {"yes", "no"}, read(SMALL.replace("{ yes, no }", list)).states(0), list);
        }
        assertArrayEquals(new double[] {0.3, 0.7}, read(SMALL.replace("0.3, 0.7", "0.3/**/, 0.7//x\n")).table(0),
            1e-15);
        // A quoted name keeps what it holds.
        assertArrayEquals(new String[] {"lo", "m//i/*d*/", "hi"},
            read(SMALL.replace("mid", "\"m//i/*d*/\"")).states(1));
    }

    /** A quoted "}" or "," is a name, not the mark (it was read as the list's end); so is a quoted keyword. */
    @Test
    void aQuotedPunctuationMarkOrKeywordIsAName() throws IOException {
        BayesNet net = read(SMALL.replace("{ lo, mid, hi }", "{ \"}\", \",\", table }")
            .replace("(yes)", "(\"yes\")"));
        assertArrayEquals(new String[] {"}", ",", "table"}, net.states(1));
        assertArrayEquals(new double[] {0.2, 0.3, 0.5, 0.6, 0.3, 0.1}, net.table(1), 1e-15);
    }

    @Test
    void emptyNamesAreRefusedAtTheirLineAndColumn() {
        assertEquals("test.bif:4:40: expected a state name, found an empty name \"\"",
            error(SMALL.replace("mid", "\"\"")));
        assertEquals("test.bif:3:10: expected a variable name, found an empty name \"\"",
            error(SMALL.replace("variable A", "variable \"\"")));
    }

    @Test
    void aCycleIsNamedAtTheProbabilityBlockOfItsFirstVariable() {
        String cyclic = SMALL.replace("probability ( A ) { table 0.3, 0.7; }",
            "probability ( A | B ) { (lo) 0.5, 0.5; (mid) 0.5, 0.5; (hi) 0.5, 0.5; }");
        assertEquals("test.bif:7: the network has a directed cycle through [A, B]: the probability block of A lists B"
            + " as a parent", error(cyclic));
        // The cycle in the order of its arcs; D, a child of the cycle, is not on it.
        String three = """
            variable A { type discrete [ 2 ] { t, f }; }
            variable B { type discrete [ 2 ] { t, f }; }
            variable C { type discrete [ 2 ] { t, f }; }
            variable D { type discrete [ 2 ] { t, f }; }
            probability ( D | A ) { default 0.5, 0.5; }
            probability ( B | A ) { default 0.5, 0.5; }
            probability ( A | C ) { default 0.5, 0.5; }
            probability ( C | B ) { default 0.5, 0.5; }
            """;
        assertEquals("test.bif:7: the network has a directed cycle through [A, B, C]: the probability block of A"
            + " lists C as a parent", error(three));
    }

    @Test
    void aRowOfTheWrongLengthOrSumSaysSoPlainly() {
        assertEquals("test.bif:10:21: variable B, row (no): expected 3 probabilities, found more",
            error(SMALL.replace("0.6, 0.3, 0.1;", "0.6, 0.3, 0.1, 0.2;")));
        assertEquals("test.bif:7:30: variable A, table: expected 2 probabilities, found only 1 value",
            error(SMALL.replace("table 0.3, 0.7;", "table 1.0;")));
        String m = error(SMALL.replace("0.6, 0.3, 0.1", "0.6, 0.2, 0.1"));
        assertTrue(m.startsWith("test.bif:10: variable B, row (no): probabilities sum to 0.9, expected 1"), m);
    }

    @Test
    void inconsistentContentIsRefusedWithAClearMessage() {
        assertTrue(error(SMALL.replace("(no) 0.6, 0.3, 0.1;", "")).contains(
            "variable B: the probability block has no row for parent configuration (no)"));
        assertTrue(error(SMALL.replace("(no)", "(maybe)")).contains("parent A has no state 'maybe' (its states: yes, no)"));
        assertTrue(error(SMALL.replace("(no) 0.6, 0.3, 0.1;", "(no) 0.6, 0.4;")).contains(
            "variable B, row (no): expected 3 probabilities, found only 2 values"));
        assertTrue(error(SMALL.replace("(no)", "(yes)")).contains("row (yes) is given twice"));
        assertTrue(error(SMALL.replace("table 0.3, 0.7;", "table 0.3, 0.7; table 0.5, 0.5;")).contains(
            "variable A: 'table' is given twice"));
        assertTrue(error(SMALL.replace("(no) 0.6, 0.3, 0.1;", "default 0.6, 0.3, 0.1; default 0.2, 0.2, 0.6;"))
            .contains("variable B: 'default' is given twice"));
        assertTrue(error(SMALL.replace("probability ( B | A )", "probability ( B | C )")).contains(
            "variable C is not declared"));
        assertTrue(error(SMALL.replace("[ 3 ]", "[ 4 ]")).contains("declares 4 states but lists 3"));
        assertTrue(error(SMALL.replace("variable A { type discrete [ 2 ] { yes, no }; }", "variable A { type discrete "
            + "[ 2 ] { yes, no };\n type discrete [ 3 ] { x, y, z }; }")).startsWith("test.bif:4: variable A has a "
            + "second 'type' line; give its states once"));
        assertTrue(error(SMALL.replace("table 0.3, 0.7;", "table 0.3f, 0.7;")).contains(
            "variable A, table: expected a probability, found '0.3f'"));
        assertTrue(error(SMALL.replace("0.2, 0.3, 0.5", "-0.2, 0.7, 0.5")).contains("is not in [0, 1]"));
        assertTrue(error(SMALL.replace("probability ( A ) { table 0.3, 0.7; }", "")).contains(
            "variable A has no probability block"));
        assertTrue(error(SMALL.replace("(yes) 0.2, 0.3, 0.5;\n  (no) 0.6, 0.3, 0.1;", "table 0.2, 0.3, 0.5, 0.6, 0.3, 0.1;"))
            .contains("'table' entry for a variable with parents is not supported"));
        assertTrue(error(SMALL.replace("discrete [ 2 ]", "continuous [ 2 ]")).contains("only discrete variables"));
    }

    @Test
    void refusesATableBeyondTheLimitBeforeAllocatingIt() throws IOException {
        int line = 2 * 26 + 3;
        assertEquals("test.bif:" + line + ": variable V26 with 26 parents needs a table of 134,217,728 probabilities "
            + "(1.00 GB) (134,217,780 with the tables before it); a network's tables may hold at most 16,777,216 "
            + "(128 MB) together", error(WideNetwork.bif(26)));
        String overflow = error(WideNetwork.bif(40));
        assertTrue(overflow.startsWith("test.bif:" + (2 * 40 + 3) + ": variable V40 with 40 parents needs a table of "
            + "2,199,023,255,552 probabilities"), overflow);
        // 23 binary parents (16,777,216 entries with the child's 2 states, plus the roots' 46) is just over; 22 fit.
        assertTrue(error(WideNetwork.bif(23)).contains("at most 16,777,216"));
        assertEquals(23, read(WideNetwork.bif(22)).size());
    }
}
