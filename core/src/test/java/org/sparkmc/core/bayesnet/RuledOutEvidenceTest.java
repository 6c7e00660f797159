package org.sparkmc.core.bayesnet;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringReader;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.InvalidInputException;

/**
 * Evidence one table rules out ({@link BayesNet#rulesOut}, {@link Evidence#requireNotRuledOut}), against exact
 * inference: every evidence it refuses has probability zero by variable elimination, and evidence of probability zero
 * that only two tables together rule out passes it.
 */
class RuledOutEvidenceTest {
    /** B is always T; C is T only when B is F. */
    private static final String CHAIN = "network chain {\n}\nvariable B {\n  type discrete [ 2 ] { T, F };\n}\n"
            + "variable C {\n  type discrete [ 2 ] { T, F };\n}\nprobability ( B ) {\n  table 1.0, 0.0;\n}\n"
            + "probability ( C | B ) {\n  (T) 0.0, 1.0;\n  (F) 1.0, 0.0;\n}\n";

    private static BayesNet chain() throws IOException {
        return BifReader.read(new StringReader(CHAIN), "chain.bif");
    }

    @Test
    void alarmsZeroRowIsRuledOutWithItsParentsNamed() {
        BayesNet alarm = Alarm.network();
        Evidence impossible = Evidence.parse(alarm, "FIO2=LOW,VENTALV=ZERO,PVSAT=NORMAL");
        assertTrue(alarm.rulesOut(alarm.requireVariable("PVSAT"), impossible));
        assertEquals("the evidence FIO2=LOW,PVSAT=NORMAL,VENTALV=ZERO has probability zero under the network unknown:"
                + " PVSAT=NORMAL has probability 0 in its table given FIO2=LOW, VENTALV=ZERO",
                assertThrows(InvalidInputException.class, () -> impossible.requireNotRuledOut(alarm)).getMessage());
        assertEquals(0.0, VariableElimination.probabilityOfEvidence(alarm, impossible));
        // With one parent free, another row of PVSAT's table allows NORMAL: not ruled out, and indeed possible.
        Evidence possible = Evidence.parse(alarm, "FIO2=LOW,PVSAT=NORMAL");
        assertDoesNotThrow(() -> possible.requireNotRuledOut(alarm));
        assertTrue(VariableElimination.probabilityOfEvidence(alarm, possible) > 0);
        assertDoesNotThrow(() -> Evidence.parse(alarm, "HISTORY=TRUE,CVP=LOW").requireNotRuledOut(alarm));
        assertDoesNotThrow(() -> Evidence.none(alarm).requireNotRuledOut(alarm));
    }

    @Test
    void oneTableRulesOutWhatItCanAndNoMore() throws IOException {
        BayesNet net = chain();
        assertEquals("the evidence B=F has probability zero under the network chain: B=F has probability 0 in its "
                + "table", assertThrows(InvalidInputException.class,
                        () -> Evidence.parse(net, "B=F").requireNotRuledOut(net)).getMessage());
        assertTrue(assertThrows(InvalidInputException.class, () -> Evidence.parse(net, "B=T,C=T")
                .requireNotRuledOut(net)).getMessage().endsWith("C=T has probability 0 in its table given B=T"));
        // C=T alone has probability zero (B is never F), but C's table allows it when B=F: two tables rule it out.
        Evidence cTrue = Evidence.parse(net, "C=T");
        assertFalse(net.rulesOut(net.requireVariable("C"), cTrue));
        assertDoesNotThrow(() -> cTrue.requireNotRuledOut(net));
        assertEquals(0.0, VariableElimination.probabilityOfEvidence(net, cTrue));
    }
}
