package org.sparkmc.spark.bn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.spark.LoggedLines;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.cli.BadInputTest;
import org.sparkmc.spark.cli.ExitCode;

/**
 * Gibbs sampling on small networks whose tables hold zeros, where its chains can be cut off from part of the state
 * space (reducible), and the job's verdict against the exact answer (variable elimination) on them.
 *
 * <p>Deterministic for the fixed seeds below; where a check compares an estimate with an exact value it allows
 * {@link GibbsExactCheck#FAR} SEs (false-failure rates in {@link GibbsExactCheck}: at most about 1e-5 a state).
 */
class BnGibbsExactCheckTest extends SparkTestBase {
    /** B copies A; with E = T the posterior puts 0.05 on A = T ... but every chain started at A = T stays there. */
    private static final String TRAP = """
            network trap { }
            variable A { type discrete [ 2 ] { T, F }; }
            variable B { type discrete [ 2 ] { T, F }; }
            variable D { type discrete [ 2 ] { T, F }; }
            variable E { type discrete [ 2 ] { T, F }; }
            probability ( A ) { table 0.99, 0.01; }
            probability ( B | A ) { (T) 1, 0; (F) 0, 1; }
            probability ( D | A ) { (T) 0.5, 0.5; (F) 0.05, 0.95; }
            probability ( E | B ) { (T) 0.001, 0.999; (F) 0.9, 0.1; }
            """;
    /** B is T whatever A is: its indicators are constant in every draw, and exactly 1 and 0. */
    private static final String CERTAIN = """
            network chain { }
            variable A { type discrete [ 2 ] { T, F }; }
            variable B { type discrete [ 2 ] { T, F }; }
            variable C { type discrete [ 2 ] { T, F }; }
            probability ( A ) { table 0.4, 0.6; }
            probability ( B | A ) { (T) 1, 0; (F) 1, 0; }
            probability ( C | B ) { (T) 0, 1; (F) 1, 0; }
            """;
    /** A is always T, whatever the seed: its indicators are constant, and B's too. */
    private static final String STUCK = parentAndChild("det", "B", "1.0, 0.0", "(T) 0.3, 0.7; (F) 0.5, 0.5;");
    private static final String TWO = parentAndChild("ab", "B", "0.3, 0.7", "(T) 0.9, 0.1; (F) 0.2, 0.8;");

    /** C copies A, and A = T has probability 10^-6: a likelihood-weighting start almost never finds C = T. */
    private static final String RARE = parentAndChild("rare", "C", "0.000001, 0.999999", "(T) 1, 0; (F) 0, 1;");

    @TempDir
    Path tmp;

    /** A network of A → child, both of states T and F, with A's table and the child's rows. */
    private static String parentAndChild(String network, String child, String tableA, String rows) {
        return "network " + network + " { }\n"
                + "variable A { type discrete [ 2 ] { T, F }; }\n"
                + "variable " + child + " { type discrete [ 2 ] { T, F }; }\n"
                + "probability ( A ) { table " + tableA + "; }\n"
                + "probability ( " + child + " | A ) { " + rows + " }\n";
    }

    private Path bif(String name, String text) throws Exception {
        return Files.writeString(tmp.resolve(name + ".bif"), text);
    }

    /**
     * Every chain stuck in A = T agrees with every other, so R-hat and ESS passed and the run said "converged" (exit
     * 0 with --require-convergence) with P(D = T | E = T) = 0.50 against an exact 0.095, 163 SEs away. The exact
     * answer now fails the verdict.
     */
    @Test
    void anEstimateFarFromTheExactAnswerIsNotConverged() throws Exception {
        Path out = tmp.resolve("trap");
        BadInputTest.Result[] r = new BadInputTest.Result[1];
        List<String> warnings = LoggedLines.of(BnJob.class, Level.WARN, () -> r[0] = BadInputTest.runCapturingOut(
                "bn", "--network", bif("trap", TRAP).toString(), "--evidence", "E=T", "--query", "D", "--method",
                "gibbs", "--require-convergence", "--out", out.toString()));
        assertEquals(ExitCode.NOT_CONVERGED, r[0].code(), r[0].err());
        assertTrue(r[0].err().contains("NOT converged"), r[0].err());
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("D=T: ") && warnings.get(0).contains(" SE from the exact 0.0946 (the "
                + "SE √(p(1 − p)/ESS) at the exact p; the chains may not reach every state: a table with zero "
                + "entries"), warnings.get(0));
        assertFalse(summary(out).get("converged").asBoolean());
    }

    /** Without an exact answer nothing can catch the trap, so the zeros in the tables are warned of up front. */
    @Test
    void withoutAnExactAnswerTablesWithZerosAreWarnedOf() throws Exception {
        Path net = bif("trap", TRAP);
        List<String> warnings = LoggedLines.of(BnJob.class, Level.WARN, () -> BadInputTest.runCapturingOut("bn",
                "--network", net.toString(), "--evidence", "E=T", "--query", "D", "--method", "gibbs",
                "--exact=never", "--draws", "200", "--warmup", "100"));
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("the tables of 1 of 4 variables have zero entries (B): Gibbs chains may "
                + "be unable to reach every state"), warnings.get(0));
        List<String> none = LoggedLines.of(BnJob.class, Level.WARN, () -> BadInputTest.runCapturingOut("bn",
                "--network", net.toString(), "--evidence", "E=T", "--query", "D", "--method", "gibbs"));
        assertTrue(none.stream().noneMatch(w -> w.contains("zero entries (B)")), "with the exact answer: " + none);
    }

    /**
     * B = T in every draw, and the exact answer says it is certain: the constant indicator passes (it failed with
     * exit 3 though the exact answer proved it). Its SE is NA, not 0, in the printout and in both files.
     */
    @Test
    void aStateTheExactAnswerMakesCertainPassesWithAnUndefinedSe() throws Exception {
        Path out = tmp.resolve("certain");
        BadInputTest.Result r = BadInputTest.runCapturingOut("bn", "--network", bif("certain", CERTAIN).toString(),
                "--query", "B,A", "--method", "gibbs", "--require-convergence", "--out", out.toString());
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertTrue(r.err().contains(" ± NA ") && r.err().contains("NA: the state was in every kept draw of every "
                + "chain or in none"), r.err());
        assertFalse(r.err().contains("NaN"), r.err());
        JsonNode summary = summary(out);
        assertTrue(summary.get("converged").asBoolean(), summary.toString());
        for (JsonNode state : BnRuns.states(summary, "B")) {
            assertTrue(state.get("se").isNull(), state.toString());
        }
        assertTrue(Files.readString(out.resolve("summary.csv")).contains("B,T,1.0,NA,"),
                Files.readString(out.resolve("summary.csv")));
    }

    /** A constant: P(A = T) printed as 1 ± 0 with "(NaN SE)", "R-hat NaN" and "ESS NaN"; now NA throughout. */
    @Test
    void aStuckChainPrintsNaNowhere() throws Exception {
        BadInputTest.Result r = BadInputTest.runCapturingOut("bn", "--network", bif("stuck", STUCK).toString(),
                "--query", "A", "--method", "gibbs", "--draws", "2000", "--warmup", "200");
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertFalse(r.err().contains("NaN"), r.err());
        assertTrue(r.err().contains("ESS NA") && r.err().contains("(NA SE)   R-hat NA"), r.err());
    }

    /**
     * {@code --round-size 2147483647}: the rounds were counted in int, overflowed to a negative count, and the run
     * "kept" 40,000 draws that were never sampled (P(A = T | B = T) = 1 against an exact 0.66). One round now.
     */
    @Test
    void aRoundSizeNearIntMaxIsOneRound() throws Exception {
        Path out = tmp.resolve("huge-round");
        BadInputTest.Result r = BadInputTest.runCapturingOut("bn", "--network", bif("two", TWO).toString(),
                "--query", "A", "--evidence", "B=T", "--method", "gibbs", "--round-size", "2147483647", "--warmup",
                "100", "--draws", "2000", "--out", out.toString(), "--chains", "2");
        assertEquals(ExitCode.OK, r.code(), r.err());
        JsonNode summary = summary(out);
        assertEquals(2, summary.get("history").size(), "a warm-up round and a sampling round: " + summary);
        JsonNode t = BnRuns.states(summary, "A").get(0);
        assertEquals(t.get("exact").asDouble(), t.get("probability").asDouble(),
                GibbsExactCheck.FAR * t.get("se").asDouble(), t.toString());
    }

    /**
     * Evidence of probability 10^-6 that the chains' start cannot find: it said "probability zero or extremely rare"
     * though the exact answer, computed already, knew P(e). Exit 2 now names P(e) and what to use instead.
     */
    @Test
    void evidenceTooRareForTheStartIsNamedWithItsExactProbability() throws Exception {
        BadInputTest.Result r = BadInputTest.runCapturingOut("bn", "--network", bif("rare", RARE).toString(),
                "--evidence", "C=T", "--query", "A", "--method", "gibbs");
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("no state consistent with the evidence C=T was found to start the Gibbs chains "
                + "from (likelihood-weighting draws): its exact probability is 1.00e-06, too rare for that start; "
                + "--method exact gives its answer"), r.err());
    }

    /** bn writes nothing without --out, so --overwrite there has no effect; it was taken without a word. */
    @Test
    void overwriteWithoutOutIsWarnedOf() throws Exception {
        Path net = bif("two", TWO);
        List<String> warnings = LoggedLines.of(BnCommand.class, Level.WARN, () -> BadInputTest.runCapturingOut("bn",
                "--network", net.toString(), "--query", "A", "--method", "exact", "--overwrite"));
        assertEquals(List.of("--overwrite has no effect without --out (nothing is written)"), warnings);
    }

    private static JsonNode summary(Path out) throws Exception {
        return new ObjectMapper().readTree(out.resolve("summary.json").toFile());
    }
}
