package org.sparkmc.spark.bn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.bayesnet.BayesNet;
import org.sparkmc.core.bayesnet.Evidence;
import org.sparkmc.core.bayesnet.WideNetwork;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.cli.BadInputTest;
import org.sparkmc.spark.cli.ExitCode;

/** Bad input to the bn job exits with code 2, one message saying what and where, and nothing written. */
class BnBadInputTest extends SparkTestBase {
    /** Evidence ALARM gives probability zero: P(PVSAT=NORMAL | FIO2=LOW, VENTALV=ZERO) = 0 in its table. */
    static final String IMPOSSIBLE = "FIO2=LOW,VENTALV=ZERO,PVSAT=NORMAL";
    /** What every method says of it before Spark starts: PVSAT's own table rules it out. */
    static final String RULED_OUT = "the evidence FIO2=LOW,PVSAT=NORMAL,VENTALV=ZERO has probability zero under the "
            + "network unknown: PVSAT=NORMAL has probability 0 in its table given FIO2=LOW, VENTALV=ZERO";
    /**
     * B is always T, and C is T only when B is F: C=T has probability zero, but C's table alone (C=T possible when
     * B=F) does not rule it out, so the samplers are the ones to find it.
     */
    static final String CHAIN = "network chain {\n}\nvariable B {\n  type discrete [ 2 ] { T, F };\n}\n"
            + "variable C {\n  type discrete [ 2 ] { T, F };\n}\nprobability ( B ) {\n  table 1.0, 0.0;\n}\n"
            + "probability ( C | B ) {\n  (T) 0.0, 1.0;\n  (F) 1.0, 0.0;\n}\n";

    @TempDir
    Path tmp;

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("unknown evidence variable", new String[] {"--evidence", "HISTORI=TRUE", "--query",
                    "LVFAILURE"}, new String[] {"--evidence: unknown variable 'HISTORI'", "HISTORY, CVP, PCWP",
                        "37 variables"}),
                Arguments.of("unknown evidence state", new String[] {"--evidence", "CVP=MEDIUM", "--query",
                    "LVFAILURE"}, new String[] {"--evidence", "no state MEDIUM", "LOW, NORMAL, HIGH"}),
                Arguments.of("malformed evidence", new String[] {"--evidence", "CVP", "--query", "LVFAILURE"},
                        new String[] {"not of the form VARIABLE=STATE"}),
                // A trailing comma was accepted while ',,' was refused; empty names were not quoted.
                Arguments.of("evidence with a trailing comma", new String[] {"--evidence", "HISTORY=TRUE,", "--query",
                    "LVFAILURE"}, new String[] {"evidence 'HISTORY=TRUE,' has an empty entry (a comma too many?)"}),
                Arguments.of("evidence without a state", new String[] {"--evidence", "HISTORY=", "--query",
                    "LVFAILURE"}, new String[] {"evidence 'HISTORY=' names no state; expected VARIABLE=STATE"}),
                Arguments.of("evidence without a variable", new String[] {"--evidence", "=TRUE", "--query",
                    "LVFAILURE"}, new String[] {"evidence '=TRUE' names no variable"}),
                Arguments.of("unknown query variable", new String[] {"--query", "LVFAILURE,STROKE"},
                        new String[] {"--query: unknown variable 'STROKE'", "STROKEVOLUME"}),
                Arguments.of("no query", new String[] {}, new String[] {"--query VARIABLE is required"}),
                Arguments.of("query with a trailing comma", new String[] {"--query", "CO,"},
                        new String[] {"--query 'CO,' has an empty entry (a comma too many?); expected VAR[,VAR...]"}),
                Arguments.of("query with an empty name", new String[] {"--query", "CO, ,CVP"},
                        new String[] {"--query 'CO, ,CVP' has an empty entry"}),
                Arguments.of("query twice", new String[] {"--query", "CO", "--query", "CO"},
                        new String[] {"variable CO twice"}),
                Arguments.of("query fixed by the evidence", new String[] {"--query", "CO,CVP", "--evidence",
                    "CVP=LOW", "--method", "gibbs"}, new String[] {"--query names CVP, which --evidence fixes "
                        + "(CVP=LOW); its posterior is that state with probability 1: leave it out of --query"}),
                Arguments.of("a decimal number in Java's own form", new String[] {"--query", "CO", "--max-rhat",
                    "1.01d"}, new String[] {"--max-rhat", "1.01d"}),
                Arguments.of("zero samples", new String[] {"--query", "CO", "--samples", "0"},
                        new String[] {"--samples must be ≥ 1, is 0"}),
                Arguments.of("negative samples", new String[] {"--query", "CO", "--samples", "-5"},
                        new String[] {"--samples must be ≥ 1, is -5"}),
                Arguments.of("empty blocks", new String[] {"--query", "CO", "--block-size", "0"},
                        new String[] {"--block-size must be ≥ 1, is 0"}),
                Arguments.of("R-hat bound at 1", new String[] {"--query", "CO", "--method", "gibbs", "--max-rhat",
                    "0.5"}, new String[] {"--max-rhat must be > 1, is 0.5"}),
                Arguments.of("negative warm-up", new String[] {"--query", "CO", "--method", "gibbs", "--warmup",
                    "-1"}, new String[] {"--warmup must be ≥ 0, is -1"}),
                Arguments.of("one chain", new String[] {"--query", "CO", "--method", "gibbs", "--chains", "1"},
                        new String[] {"--chains must be ≥ 2 for R-hat, is 1"}),
                Arguments.of("Gibbs draws beyond the driver's limit (was: out of memory)", new String[] {"--query",
                    "CO", "--method", "gibbs", "--draws", "2000000000"}, new String[] {"--method gibbs keeps every kept "
                        + "draw on the driver for R-hat and ESS: 4 chains × 2,000,000,000 draws × 3 query states = "
                        + "24,000,000,000, above the limit 16,000,000; lower --draws or --chains"}),
                Arguments.of("unknown method", new String[] {"--query", "CO", "--method", "mcmc"},
                        new String[] {"--method must be one of lw, rejection, gibbs, exact, is 'mcmc'"}),
                Arguments.of("bad --exact", new String[] {"--query", "CO", "--exact=maybe"},
                        new String[] {"--exact must be auto, always or never"}),
                Arguments.of("impossible evidence, with the exact answer on", new String[] {"--query", "CO",
                    "--evidence", IMPOSSIBLE}, new String[] {RULED_OUT}),
                Arguments.of("impossible evidence, likelihood weighting", new String[] {"--query", "CO", "--evidence",
                    IMPOSSIBLE, "--exact=never", "--samples", "20000"}, new String[] {RULED_OUT}),
                Arguments.of("impossible evidence, rejection", new String[] {"--query", "CO", "--evidence",
                    IMPOSSIBLE, "--exact=never", "--samples", "20000", "--method", "rejection"},
                        new String[] {RULED_OUT}),
                Arguments.of("impossible evidence, Gibbs", new String[] {"--query", "CO", "--evidence", IMPOSSIBLE,
                    "--exact=never", "--method", "gibbs"}, new String[] {RULED_OUT}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void exitsTwoWithAClearMessage(String name, String[] args, String[] expected) {
        Path out = tmp.resolve("out");
        String[] all = Stream.concat(Stream.of("bn", "--network", BnRuns.alarmPath(), "--out", out.toString()),
                Stream.of(args)).toArray(String[]::new);
        assertBadInput(out, all, expected);
    }

    /**
     * Evidence of probability zero that no one table rules out is found by the samplers (every weight zero, or no
     * consistent start for Gibbs) or by exact inference, still exit 2 with nothing written.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("samplersFindingZeroEvidence")
    void zeroEvidenceNoTableRulesOutIsFoundBySampling(String method, String expected) throws IOException {
        Path bif = Files.writeString(tmp.resolve("chain.bif"), CHAIN);
        Path out = tmp.resolve("out");
        String exact = method.equals("exact") ? "--exact=always" : "--exact=never";
        assertBadInput(out, new String[] {"bn", "--network", bif.toString(), "--query", "B", "--evidence", "C=T",
            exact, "--samples", "5000", "--method", method, "--out", out.toString()}, new String[] {expected});
    }

    static Stream<Arguments> samplersFindingZeroEvidence() {
        return Stream.of(Arguments.of("lw", "all 5000 likelihood-weighting weights are zero"),
                Arguments.of("rejection", "all 5000 rejection weights are zero"),
                Arguments.of("gibbs", "no state consistent with the evidence"),
                Arguments.of("exact", "has probability zero under the network chain"));
    }

    /** Only Gibbs needs two chains (for R-hat): one chain, or none asked for, is no error for the other methods. */
    @Test
    void oneChainIsRefusedOnlyForGibbs() {
        BayesNet net = BnRuns.alarm();
        Evidence none = Evidence.parse(net, "");
        int[] query = {net.requireVariable("CO")};
        for (BnMethod method : new BnMethod[] {BnMethod.LW, BnMethod.REJECTION, BnMethod.EXACT}) {
            assertEquals(1, config(net, none, query, method, 1).chains(), method.name());
        }
        InvalidInputException gibbs = assertThrows(InvalidInputException.class,
                () -> config(net, none, query, BnMethod.GIBBS, 1));
        assertEquals("--chains must be ≥ 2 for R-hat, is 1", gibbs.getMessage());
        assertThrows(InvalidInputException.class, () -> config(net, none, query, BnMethod.LW, 0));
    }

    private static BnConfig config(BayesNet net, Evidence evidence, int[] query, BnMethod method, int chains) {
        return new BnConfig(BnRuns.alarmPath(), net, evidence, query, method, ExactMode.AUTO, 1000, 100, chains, 10,
                100, 50, 1, 1, 1.01, 400);
    }

    @Test
    void bifSyntaxErrorNamesFileAndLine() throws IOException {
        Path bif = tmp.resolve("broken.bif");
        Files.writeString(bif, "network tiny {\n}\nvariable A {\n  type discrete [ 2 ] { T, F }\n}\n");
        Path out = tmp.resolve("out");
        assertBadInput(out, new String[] {"bn", "--network", bif.toString(), "--query", "A", "--out",
            out.toString()}, new String[] {bif + ":5:", "expected"});
    }

    @Test
    void badTableNamesTheVariable() throws IOException {
        Path bif = tmp.resolve("rows.bif");
        Files.writeString(bif, "network tiny {\n}\nvariable A {\n  type discrete [ 2 ] { T, F };\n}\n"
                + "probability ( A ) {\n  table 0.5, 0.4;\n}\n");
        Path out = tmp.resolve("out");
        assertBadInput(out, new String[] {"bn", "--network", bif.toString(), "--query", "A", "--out",
            out.toString()}, new String[] {bif.toString(), "A"});
    }

    /** A node with 26 binary parents ran out of memory in WeightedSamplingJob.run (exit 1). */
    @Test
    void tableBeyondTheLimitNamesFileLineVariableSizeAndLimit() throws IOException {
        Path bif = tmp.resolve("wide.bif");
        Files.writeString(bif, WideNetwork.bif(26));
        Path out = tmp.resolve("out");
        assertBadInput(out, new String[] {"bn", "--network", bif.toString(), "--query", "V0", "--out",
            out.toString()}, new String[] {bif + ":55: variable V26 with 26 parents needs a table of 134,217,728 "
                + "probabilities (1.00 GB)", "may hold at most 16,777,216 (128 MB) together"});
    }

    @Test
    void missingNetworkFile() {
        Path out = tmp.resolve("out");
        assertBadInput(out, new String[] {"bn", "--network", "/nonexistent/net.bif", "--query", "A", "--out",
            out.toString()}, new String[] {"network file '/nonexistent/net.bif' does not exist"});
    }

    @Test
    void unknownConfigKeyNamesFileAndLine() throws IOException {
        Path conf = tmp.resolve("typo.conf");
        Files.writeString(conf, "query = CO\nsampels = 10\n");
        Path out = tmp.resolve("out");
        assertBadInput(out, new String[] {"bn", "--conf", conf.toString(), "--network", BnRuns.alarmPath(),
            "--out", out.toString()}, new String[] {"typo.conf:2", "unknown key 'sampels'"});
    }

    private static void assertBadInput(Path out, String[] args, String[] expected) {
        BadInputTest.Result r = BadInputTest.runCapturing(args);
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        for (String e : expected) {
            assertTrue(r.err().contains(e), "expected '" + e + "' in: " + r.err());
        }
        assertFalse(r.err().contains("\tat "), "no stack trace for bad input: " + r.err());
        assertFalse(Files.exists(out), "nothing written");
        try (Stream<Path> siblings = Files.list(out.getParent())) {
            assertTrue(siblings.noneMatch(p -> p.getFileName().toString().contains("sparkmc-tmp")),
                    "no staging directory left behind");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Options another method reads are warned of (they were taken without a word); the method's own are not. */
    @Test
    void optionsTheMethodDoesNotUseAreWarnedOf() throws Exception {
        String out = tmp.resolve("o").toString();
        // --query NOPE stops the run after the warnings, before Spark.
        assertEquals(java.util.List.of("--samples has no effect with --method exact",
                "--chains has no effect with --method exact",
                "--require-convergence has no effect with --method exact"),
                org.sparkmc.spark.LoggedLines.of(BnCommand.class, () -> BadInputTest.runCapturing("bn", "--network",
                        BnRuns.alarmPath(), "--method", "exact", "--samples", "5", "--chains", "7",
                        "--require-convergence", "--query", "NOPE", "--out", out)));
        assertEquals(java.util.List.of("--samples has no effect with --method gibbs"),
                org.sparkmc.spark.LoggedLines.of(BnCommand.class, () -> BadInputTest.runCapturing("bn", "--network",
                        BnRuns.alarmPath(), "--method", "gibbs", "--samples", "5", "--chains", "7", "--query", "NOPE",
                        "--out", out)));
        // A config file may hold the settings of several methods, as conf/bn-alarm.conf does: not warned of.
        Path conf = Files.writeString(tmp.resolve("both.conf"), "samples = 5\nchains = 7\nwarmup = 10\n");
        BadInputTest.Result[] run = new BadInputTest.Result[1];
        assertEquals(java.util.List.of(), org.sparkmc.spark.LoggedLines.of(BnCommand.class,
                () -> run[0] = BadInputTest.runCapturing("bn", "--conf", conf.toString(), "--network",
                        BnRuns.alarmPath(), "--method", "exact", "--query", "NOPE", "--out", out)));
        assertTrue(run[0].err().contains("unknown variable 'NOPE'"), "the config file was read: " + run[0].err());
    }
}
