package org.sparkmc.spark.bn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sparkmc.core.bayesnet.BayesNet;
import org.sparkmc.core.bayesnet.BlockPlan;
import org.sparkmc.core.bayesnet.Evidence;
import org.sparkmc.core.bayesnet.LikelihoodWeighting;
import org.sparkmc.core.bayesnet.Marginal;
import org.sparkmc.core.bayesnet.VariableElimination;
import org.sparkmc.core.bayesnet.WeightedCounts;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.LoggedLines;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.cli.BadInputTest;
import org.sparkmc.spark.cli.ExitCode;

/**
 * The bn job end to end on ALARM in local mode: each method's posterior marginals agree with variable elimination
 * within 4 of the job's own standard errors (pattern (b), fixed seeds), and the outputs say what they should.
 *
 * <p>False-failure rate: 4 SE is 6e-5 two-sided per state for a normal estimate; the checks below compare about
 * 30 states (not all independent), so about 0.2% for a correct job (a bit more for Gibbs, whose MCSE is itself
 * estimated from 4 × 4,000 draws).
 */
class BnJobTest extends SparkTestBase {
    private static final String QUERY = "LVFAILURE,HYPOVOLEMIA,CO";
    /** The least samples a task draws on ALARM's 37 variables. */
    private static final double ALARM_TASK = WeightedSamplingJob.MIN_TASK_DRAWS / 37;

    @TempDir
    Path tmp;

    private final BayesNet net = BnRuns.alarm();

    /**
     * {@code --samples 10^10 --block-size 1}: the driver built a list of the first wave's 10^9 block ids and ran out
     * of memory (exit 1). Now the job ships one number per task, a task per partition and wave, however many blocks
     * there are, and each task draws its own run of blocks.
     */
    @Test
    void hugeSampleCountsDoNotHoldTheBlocksOnTheDriver() {
        BlockPlan plan = new BlockPlan(10_000_000_000L, 1);
        assertEquals(WeightedSamplingJob.MAX_WAVES, WeightedSamplingJob.waves(plan, 2, ALARM_TASK));
        assertEquals(2 * WeightedSamplingJob.MAX_WAVES, WeightedSamplingJob.tasks(plan, 2, ALARM_TASK));
        assertEquals(500_000_000L, WeightedSamplingJob.shareStart(0, plan.blocks(), 1, 20));
        BlockPlan few = new BlockPlan(3 * 100_000_000L, 100_000_000L);
        assertEquals(1, WeightedSamplingJob.waves(few, 8, ALARM_TASK), "fewer blocks than partitions: one wave");
        assertEquals(3, WeightedSamplingJob.tasks(few, 8, ALARM_TASK), "never more tasks than blocks");
        BlockPlan seven = new BlockPlan(7 * 100_000_000L, 100_000_000L);
        assertEquals(3, WeightedSamplingJob.waves(seven, 2, ALARM_TASK),
                "7 blocks over 2 partitions: 3 waves of 2 tasks");
        assertEquals(6, WeightedSamplingJob.tasks(seven, 2, ALARM_TASK));
    }

    /**
     * A task gets at least {@code MIN_TASK_DRAWS} variables to draw where there is that much work: 10^7 samples of
     * ALARM's 37 variables over 2 partitions run in 3 waves of 1.67·10^6 samples a task, not 10 of 5·10^5; 10^8 run
     * in the full 10 waves, and a run smaller than one task's least work in one wave of a task per partition.
     */
    @Test
    void shortRunsGetFewerLongerTasks() {
        BlockPlan alarm7 = new BlockPlan(10_000_000L, 100_000L);
        assertEquals(3, WeightedSamplingJob.waves(alarm7, 2, ALARM_TASK));
        assertEquals(6, WeightedSamplingJob.tasks(alarm7, 2, ALARM_TASK));
        assertEquals(WeightedSamplingJob.MAX_WAVES, WeightedSamplingJob.waves(new BlockPlan(100_000_000L, 100_000L),
                2, ALARM_TASK));
        assertEquals(1, WeightedSamplingJob.waves(new BlockPlan(200_000L, 10_000L), 2, ALARM_TASK));
        assertEquals(2, WeightedSamplingJob.tasks(new BlockPlan(200_000L, 10_000L), 2, ALARM_TASK));
        assertEquals(4, WeightedSamplingJob.waves(new BlockPlan(10_000_000L, 100_000L), 2,
                WeightedSamplingJob.MIN_TASK_DRAWS / 40), "more variables, more waves for the same samples");
    }

    /**
     * Many waves of short tasks, over 1, 4 and 7 partitions, give the estimate one wave gives and core's plain loop
     * gives, bit for bit, with a progress step per wave: the tasks' shares arrive in any order and are merged wave by
     * wave. Deterministic: fixed seed.
     */
    @Test
    void severalWavesGiveTheSameEstimateAsOne() {
        Evidence evidence = Evidence.parse(net, "HISTORY=TRUE,CVP=LOW");
        int[] query = {net.requireVariable("LVFAILURE"), net.requireVariable("CO")};
        BnConfig config = new BnConfig(BnRuns.alarmPath(), net, evidence, query, BnMethod.LW, ExactMode.NEVER,
                230_000, 10_000, 4, 100, 1000, 500, 99, 2, 1.01, 400);
        WeightedCounts plain = LikelihoodWeighting.of(net, evidence, query)
                .run(new RandomStreams(99), new BlockPlan(230_000, 10_000));
        WeightedSamplingJob.Outcome oneWave = new WeightedSamplingJob(jsc(), config, 2).run();
        assertEquals(1, oneWave.history().size());
        assertEquals(plain, oneWave.counts());
        int[][] partitionsAndWaves = {{1, 10}, {4, 5}, {7, 3}};
        for (int[] pw : partitionsAndWaves) {
            WeightedSamplingJob.Outcome waves = new WeightedSamplingJob(jsc(), config, pw[0], 1).run();
            assertEquals(pw[1], waves.history().size(), pw[0] + " partitions");
            assertEquals(plain, waves.counts(), pw[0] + " partitions");
        }
    }

    @Test
    void sharesCoverTheBlocksWithoutOverflow() {
        long from = 5;
        long to = Long.MAX_VALUE - 3;
        long previous = from;
        for (int i = 1; i <= 7; i++) {
            long next = WeightedSamplingJob.shareStart(from, to, i, 7);
            long length = next - previous;
            assertTrue(length == (to - from) / 7 || length == (to - from) / 7 + 1, "share " + i + ": " + length);
            previous = next;
        }
        assertEquals(to, previous);
        assertEquals(4, WeightedSamplingJob.shareStart(0, 10, 1, 3), "10 blocks in 3 shares: 4, 3, 3");
    }

    @ParameterizedTest(name = "evidence [{0}]")
    @ValueSource(strings = {"", "HISTORY=TRUE,CVP=LOW"})
    void likelihoodWeightingAgreesWithVariableElimination(String evidence) throws Exception {
        Path out = tmp.resolve("lw");
        JsonNode summary = BnRuns.run(out, "--evidence", evidence, "--query", QUERY, "--samples", "300000",
                "--block-size", "20000", "--seed", "11");
        assertEquals("lw", summary.get("method").asText());
        assertEquals(300_000, summary.get("samples").asLong());
        assertEquals(evidence, summary.get("evidence").asText());
        assertTrue(summary.get("exact_computed").asBoolean(), "ALARM is cheap for variable elimination");
        assertAgrees(summary, Evidence.parse(net, evidence), true);
        double ess = summary.get("ess").asDouble();
        assertTrue(ess > 0 && ess <= 300_000, "Kish ESS " + ess);
        if (evidence.isEmpty()) {
            assertEquals(300_000, ess, 1e-6, "no evidence: every weight is 1");
        }
        // P(e): the mean weight against the exact probability of the evidence, within 4 of its SE.
        JsonNode pe = summary.get("evidence_probability");
        assertTrue(Math.abs(pe.get("estimate").asDouble() - pe.get("exact").asDouble())
                <= 4 * Math.max(pe.get("se").asDouble(), 1e-12), pe.toString());
        String csv = Files.readString(out.resolve("summary.csv"));
        assertTrue(csv.startsWith("variable,state,probability,se,ess,rhat,exact\nLVFAILURE,TRUE,"), csv);
        assertEquals(1 + 2 + 2 + 3, csv.split("\n").length, csv);
        String html = Files.readString(out.resolve("report.html"));
        assertTrue(html.contains("P(CO | evidence)") && html.contains("<svg"), "a bar chart per query variable");
        assertTrue(Files.exists(out.resolve("_SUCCESS")));
    }

    @Test
    void rejectionSamplingAgreesWithVariableElimination() throws Exception {
        String evidence = "HISTORY=TRUE,CVP=LOW";
        JsonNode summary = BnRuns.run(tmp.resolve("rejection"), "--method", "rejection", "--evidence", evidence,
                "--query", QUERY, "--samples", "400000", "--seed", "12");
        assertAgrees(summary, Evidence.parse(net, evidence), true);
        // The acceptance rate estimates P(e) ≈ 0.042 (binomial SE).
        JsonNode pe = summary.get("evidence_probability");
        assertEquals(pe.get("exact").asDouble(), pe.get("estimate").asDouble(), 4 * pe.get("se").asDouble());
        assertEquals(summary.get("ess").asDouble(), pe.get("estimate").asDouble() * 400_000, 1e-6,
                "0/1 weights: the ESS is the number accepted");
    }

    @Test
    void gibbsAgreesWithVariableEliminationAndReportsRhat() throws Exception {
        String evidence = "HISTORY=TRUE,CVP=LOW";
        Path out = tmp.resolve("gibbs");
        JsonNode summary = BnRuns.run(out, "--method", "gibbs", "--evidence", evidence, "--query", QUERY,
                "--chains", "4", "--warmup", "500", "--draws", "4000", "--round-size", "2000", "--seed", "13");
        assertEquals(16_000, summary.get("samples").asLong());
        assertEquals(2, summary.get("history").size() - 1, "one warm-up round, then two sampling rounds");
        for (JsonNode state : BnRuns.states(summary, "CO")) {
            double rhat = state.get("rhat").asDouble();
            assertTrue(rhat > 0.99 && rhat < 1.02, "R-hat " + rhat);
        }
        assertTrue(summary.get("converged").asBoolean(), summary.toString());
        assertEquals(7, summary.get("indicators").size());
        assertAgrees(summary, Evidence.parse(net, evidence), false);
        assertTrue(Files.readString(out.resolve("report.html")).contains("Convergence by round"));
    }

    /**
     * Gibbs progress: a warm-up round keeps no draws, so its line says so instead of printing "max R-hat NaN min ESS
     * NaN"; sampling rounds show the figures, and no NaN even where an indicator's tail ESS is NA; every round splits
     * its Spark job into the busiest partition's compute and the rest (issue 17).
     */
    @Test
    void gibbsWarmUpProgressShowsNoDiagnostics() throws Exception {
        List<String> lines = LoggedLines.of(GibbsJob.class, () -> BnRuns.run(tmp.resolve("progress"), "--method",
                "gibbs", "--query", "CO", "--chains", "2", "--warmup", "100", "--draws", "200", "--round-size", "100",
                "--seed", "13"));
        List<String> rounds = lines.stream().filter(l -> l.startsWith("round ")).toList();
        assertTrue(rounds.get(0).startsWith("round 1/3 warmup   draws/chain 0  no diagnostics in warm-up  "),
                rounds.toString());
        assertFalse(rounds.get(0).contains("NaN"), rounds.get(0));
        // An indicator's tail ESS can be NA (as in R's posterior): min ESS is over the values that exist, never NaN.
        assertTrue(rounds.get(rounds.size() - 1).matches("round 3/3 sampling draws/chain 200  max R-hat \\d\\.\\d{4}  "
                + "min ESS \\d+  \\d+ sweeps/s  compute \\d+\\.\\d\\d s  sync \\d+\\.\\d\\d s"), rounds.toString());
        assertTrue(rounds.stream().noneMatch(l -> l.contains("NaN")), rounds.toString());
    }

    /** Likelihood weighting's wave lines split each wave's Spark job into the busiest task's compute and the rest. */
    @Test
    void weightingWavesSplitComputeAndSync() throws Exception {
        List<String> lines = LoggedLines.of(WeightedSamplingJob.class, () -> BnRuns.run(tmp.resolve("waves"),
                "--query", "CO", "--samples", "200000", "--block-size", "10000", "--seed", "13"));
        List<String> waves = lines.stream().filter(l -> l.startsWith("wave ")).toList();
        assertTrue(!waves.isEmpty() && waves.get(waves.size() - 1).matches("wave (\\d+)/\\1 .*"), waves.toString());
        for (String wave : waves) {
            assertTrue(wave.matches(".*  compute \\d+\\.\\d\\d s  sync \\d+\\.\\d\\d s"), wave);
        }
    }

    /**
     * A Gibbs run that stops short of the thresholds (without --require-convergence) still exits 0 and writes, but
     * logs one WARN line naming the failing indicators with their R-hat/ESS against the thresholds, as chains does.
     */
    @Test
    void gibbsNotConvergedWarnsNamingTheIndicators() throws Exception {
        JsonNode[] summaries = new JsonNode[1];
        List<String> warnings = LoggedLines.of(BnJob.class, org.apache.logging.log4j.Level.WARN,
                () -> summaries[0] = BnRuns.run(tmp.resolve("short"), "--method", "gibbs", "--query", "CO",
                        "--chains", "2", "--warmup", "50", "--draws", "200", "--round-size", "200", "--min-ess", "1e6",
                        "--seed", "13"));
        JsonNode summary = summaries[0];
        assertFalse(summary.get("converged").asBoolean(), summary.toString());
        assertEquals(1, warnings.size(), warnings.toString());
        String w = warnings.get(0);
        assertTrue(w.contains("bn: Gibbs NOT converged after 200 kept sweeps per chain (2 chains): 3 of 3 indicators "
                + "fail R-hat < 1.01 and bulk/tail ESS ≥ 1000000: "), w);
        for (String state : new String[] {"CO=LOW: ", "CO=NORMAL: ", "CO=HIGH: "}) {
            assertTrue(w.contains(state), state + " missing: " + w);
        }
        assertTrue(w.contains("bulk ESS ") && w.contains(" < 1000000"), w);
    }

    /**
     * An indicator the same in every draw of every chain has no R-hat or ESS; such a run was reported converged, with
     * P(LVFAILURE = TRUE) = 0 ± 0 against an exact 0.05 (300 draws: 15 TRUE expected). It is not converged now.
     */
    @Test
    void anIndicatorThatNeverVariedIsNotConverged() throws Exception {
        JsonNode[] summaries = new JsonNode[1];
        List<String> warnings = LoggedLines.of(BnJob.class, org.apache.logging.log4j.Level.WARN,
                () -> summaries[0] = BnRuns.run(tmp.resolve("stuck"), "--method", "gibbs", "--query", "LVFAILURE",
                        "--chains", "2", "--warmup", "10", "--draws", "150", "--round-size", "100"));
        assertFalse(summaries[0].get("converged").asBoolean(), summaries[0].toString());
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("LVFAILURE=TRUE: the same in every draw of every chain (a state never "
                + "visited, or never left"), warnings.get(0));
    }

    @Test
    void exactMethodRunsVariableEliminationOnly() throws Exception {
        JsonNode summary = BnRuns.run(tmp.resolve("exact"), "--method", "exact", "--evidence", "CO=LOW,BP=HIGH",
                "--query", "LVFAILURE");
        Marginal m = VariableElimination.posterior(net, Evidence.parse(net, "CO=LOW,BP=HIGH"),
                net.requireVariable("LVFAILURE"));
        JsonNode states = BnRuns.states(summary, "LVFAILURE");
        for (int s = 0; s < 2; s++) {
            assertEquals(m.probabilities()[s], states.get(s).get("probability").asDouble(), 0);
            assertEquals(0, states.get(s).get("se").asDouble());
        }
        assertEquals(0, summary.get("samples").asLong());
    }

    @Test
    void exactNeverLeavesTheExactAnswerOut() throws Exception {
        JsonNode summary = BnRuns.run(tmp.resolve("no-exact"), "--query", "LVFAILURE", "--samples", "20000",
                "--exact=never");
        assertFalse(summary.get("exact_computed").asBoolean());
        assertFalse(BnRuns.states(summary, "LVFAILURE").get(0).has("exact"));
    }

    @Test
    void withoutOutTheAnswerIsPrintedAndNothingWritten() throws Exception {
        BadInputTest.Result r = BadInputTest.runCapturingOut("bn", "--network", BnRuns.alarmPath(), "--evidence",
                "HISTORY=TRUE,CVP=LOW", "--query", "LVFAILURE", "--method", "lw", "--samples", "50000");
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertTrue(r.err().contains("P(LVFAILURE | evidence)") && r.err().contains("TRUE")
                && r.err().contains(" ± ") && r.err().contains("exact 0.98"), r.err());
        assertTrue(r.err().contains("ESS") && r.err().contains("no --out: nothing written"), r.err());
    }

    /**
     * One weighted sample puts all weight on one state: p̂ is exactly 0 or 1 and the delta-method SE formula gives 0,
     * which read as certainty ("± 0.000000" beside ESS 1). The SE is NA now, explained under the table, and the low
     * weight ESS is warned of. Deterministic whatever the draw.
     */
    @Test
    void anEstimateOfZeroOrOneHasNoStandardErrorAndLowEssIsWarnedOf() throws Exception {
        BadInputTest.Result[] r = new BadInputTest.Result[1];
        Path out = tmp.resolve("one");
        List<String> warnings = LoggedLines.of(BnJob.class, org.apache.logging.log4j.Level.WARN,
                () -> r[0] = BadInputTest.runCapturingOut("bn", "--network", BnRuns.alarmPath(), "--evidence",
                        "HISTORY=TRUE", "--query", "LVFAILURE", "--method", "lw", "--samples", "1", "--out",
                        out.toString()));
        assertEquals(ExitCode.OK, r[0].code(), r[0].err());
        assertTrue(r[0].err().contains(" ± NA ") && r[0].err().contains("NA: the state was in every weighted sample "
                + "or in none, so its SE is undefined"), r[0].err());
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains("estimates rest on a weight ESS of 1.00 (of 1 samples)"), warnings.get(0));
        JsonNode states = BnRuns.states(new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                out.resolve("summary.json").toFile()), "LVFAILURE");
        for (JsonNode state : states) {
            assertTrue(state.get("se").isNull(), state.toString());
        }
    }

    /** Every state's estimate within 4 of its SE of the exact probability recorded beside it, and equal to VE's. */
    private void assertAgrees(JsonNode summary, Evidence evidence, boolean weighted) {
        for (String variable : QUERY.split(",")) {
            Marginal exact = VariableElimination.posterior(net, evidence, net.requireVariable(variable));
            JsonNode states = BnRuns.states(summary, variable);
            assertEquals(exact.probabilities().length, states.size());
            double sum = 0;
            for (int s = 0; s < states.size(); s++) {
                JsonNode st = states.get(s);
                assertEquals(exact.states()[s], st.get("state").asText());
                double p = exact.probabilities()[s];
                assertEquals(p, st.get("exact").asDouble(), 0, "the exact value written is variable elimination's");
                double estimate = st.get("probability").asDouble();
                double se = st.get("se").asDouble();
                if (se == 0 && p > 0 && p < 1) {
                    // A state never seen: compare with the binomial SE at the exact p and the ESS.
                    se = Math.sqrt(p * (1 - p) / st.get("ess").asDouble());
                }
                assertTrue(Math.abs(estimate - p) <= 4 * se, variable + "=" + exact.states()[s] + ": " + estimate
                        + " ± " + se + " vs exact " + p);
                sum += estimate;
            }
            if (weighted) {
                assertEquals(1, sum, 1e-12, "self-normalised estimates sum to 1");
            }
        }
    }
}
