package org.sparkmc.spark.chains;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sparkmc.core.mcmc.ChainRound;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.Kernel;
import org.sparkmc.core.mcmc.RoundResult;
import org.sparkmc.core.model.BimodalMixture;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.LocalSessions;
import org.sparkmc.spark.TestPaths;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.cli.Main;

/**
 * The same seed gives bit-identical draws whatever the partitioning and the number of local cores, and the same
 * draws as the kernel run in a plain loop without Spark. Each run gets its own local Spark context.
 */
class ChainsDeterminismTest {
    private static final String[] RUN = {"chains", "--scale", "3", "--chains", "6",
        "--warmup", "300", "--round-size", "200", "--max-rounds", "2", "--min-ess", "1e9", "--seed", "77"};

    @TempDir
    Path tmp;

    @Test
    void drawsDoNotDependOnPartitionsOrCores() {
        List<Row> oneCoreOnePartition = run("local[1]", 1);
        List<Row> oneCoreFourPartitions = run("local[1]", 4);
        List<Row> twoCoresFourPartitions = run("local[2]", 4);
        List<Row> twoCoresOnePartition = run("local[2]", 1);
        // Far more partitions than chains: capped at one per chain (it used to run 100,000 empty tasks, for hours).
        List<Row> manyPartitions = run("local[2]", 100_000);
        assertEquals(6 * 400, oneCoreOnePartition.size());
        assertEquals(oneCoreOnePartition, oneCoreFourPartitions);
        assertEquals(oneCoreOnePartition, twoCoresFourPartitions);
        assertEquals(oneCoreOnePartition, twoCoresOnePartition);
        assertEquals(oneCoreOnePartition, manyPartitions);
        assertEquals(plainLoop("rwm"), xColumn(oneCoreOnePartition));
    }

    /**
     * A user's kernel named as {@code --kernel class:…} runs on the executors as a built-in one does: its typed state
     * carries its warm-up's adaptation from round to round, its per-step statistic lands in {@code draws.parquet} under
     * the name it gives, and the draws are the core API's, bit for bit, whatever the partitions and cores.
     */
    @Test
    void aUserKernelRunsOnTheExecutorsWithItsStateAndStatistics() {
        String kernel = "class:" + UserAdaptiveWalk.class.getName();
        List<Row> onePartition = run("local[1]", 1, "--model", "bimodal", "--kernel", kernel);
        List<Row> threePartitions = run("local[2]", 3, "--model", "bimodal", "--kernel", kernel);
        assertEquals(onePartition, threePartitions);
        assertEquals(plainLoop(kernel), xColumn(onePartition));
        for (int chain = 0; chain < 6; chain++) {
            List<Double> steps = onePartition.subList(chain * 400, (chain + 1) * 400).stream()
                    .map(r -> r.getDouble(r.fieldIndex("stepsize__"))).distinct().toList();
            assertEquals(1, steps.size(), "the step size is fixed after warm-up: " + steps);
            org.junit.jupiter.api.Assertions.assertNotEquals(3.0, steps.get(0),
                    "the warm-up adapted the step size of chain " + (chain + 1));
        }
    }

    @Test
    void aRetriedTaskReproducesItsDraws() {
        List<Row> undisturbed = run("local[2]", 3);
        // local[2,4]: up to 4 attempts per task; the target fails the first attempt of every task once.
        List<Row> retried = run("local[2,4]", 3, "--model", "class:" + FailsFirstAttempt.class.getName());
        assertEquals(undisturbed, retried);
    }

    /**
     * The rounds relayed in one barrier stage give the draws and the diagnostics of a Spark job per round, also when
     * the run stops on convergence and the tasks drop the round they sampled ahead: the draws hold exactly the rounds
     * summary.json reports.
     */
    @Test
    void relayedRoundsEqualAJobPerRound() {
        String[] stops = {"chains", "--scale", "3", "--chains", "6", "--warmup", "300", "--round-size", "200",
            "--seed", "77", "--model", "bimodal", "--partitions", "2", "--max-rounds", "20", "--min-ess", "100",
            "--max-rhat", "1.5"};
        List<Row> relayed = runArgs("local[2]", "relayed", concat(stops, "--sync-via", "relay"));
        List<Row> jobs = runArgs("local[2]", "jobs", concat(stops, "--sync-via", "jobs"));
        com.fasterxml.jackson.databind.JsonNode summary = ChainsOutputs.summary(tmp.resolve("relayed"));
        int rounds = summary.get("rounds").asInt();
        org.junit.jupiter.api.Assertions.assertTrue(summary.get("converged").asBoolean() && rounds < 20,
                "the run stops on convergence: " + summary);
        assertEquals(6 * 200 * rounds, relayed.size(), "only the rounds the summary reports");
        assertEquals(jobs, relayed);
        assertEquals(withoutTimings(ChainsOutputs.summary(tmp.resolve("jobs"))), withoutTimings(summary));
    }

    /**
     * The other kinds of kernel state relay as random-walk Metropolis does: NUTS carries its adapted step size and
     * metric from warm-up to the sampling rounds, and colour-gibbs its lattice and the Rao–Blackwellised running means
     * of every pixel. Both give the draws and diagnostics of a Spark job per round, bit for bit.
     */
    @ParameterizedTest
    @ValueSource(strings = {"nuts", "colour-gibbs"})
    void relayedRoundsEqualAJobPerRoundForNutsAndColourGibbs(String kernel) {
        String[] run = kernel.equals("nuts")
                ? new String[] {"chains", "--model", "eight_schools_noncentered", "--data",
                    TestPaths.projectRoot().resolve("data/eight_schools/eight_schools.json").toString(), "--kernel",
                    "nuts", "--chains", "4", "--warmup", "200", "--round-size", "100", "--max-rounds", "3",
                    "--min-ess", "1e9", "--seed", "21", "--partitions", "2"}
                : new String[] {"chains", "--conf", TestPaths.conf("chains-ising.conf").toString(), "--param",
                    "height=8", "--param", "width=8", "--warmup", "100", "--round-size", "100", "--max-rounds", "3",
                    "--min-ess", "1e9", "--partitions", "2"};
        List<Row> relayed = runArgs("local[2]", kernel + "-relayed", concat(run, "--sync-via", "relay"));
        List<Row> jobs = runArgs("local[2]", kernel + "-jobs", concat(run, "--sync-via", "jobs"));
        assertEquals(4 * 100 * 3, relayed.size());
        assertEquals(jobs, relayed);
        assertEquals(withoutTimings(ChainsOutputs.summary(tmp.resolve(kernel + "-jobs"))),
                withoutTimings(ChainsOutputs.summary(tmp.resolve(kernel + "-relayed"))));
    }

    /**
     * A relayed stage whose tasks fail (each task's first attempt, as a lost executor would fail it) is run again
     * whole, from the same streams: its draws are the undisturbed run's, whether the tasks failed in the first
     * warm-up round or after a sampling round was kept (each task's 3 chains make 1,500 density evaluations by the
     * end of round 3, the first sampling round).
     */
    @Test
    void aRetriedRelayedStageReproducesItsDraws() {
        List<Row> undisturbed = run("local[2]", 2, "--model", "bimodal", "--sync-via", "jobs");
        String failing = "class:" + FailsFirstAttempt.class.getName();
        assertEquals(undisturbed, run("local[2,4]", 2, "--model", failing, "--sync-via", "relay"));
        assertEquals(undisturbed, run("local[2,4]", 2, "--model", failing, "--param", "fail-after=1700",
                "--sync-via", "relay"));
    }

    /** summary.json without what depends on the machine's speed: the seconds, and the ESS per second. */
    private static com.fasterxml.jackson.databind.JsonNode withoutTimings(com.fasterxml.jackson.databind.JsonNode in) {
        com.fasterxml.jackson.databind.node.ObjectNode summary = in.deepCopy();
        summary.remove(List.of("seconds", "efficiency"));
        summary.get("history").forEach(r -> ((com.fasterxml.jackson.databind.node.ObjectNode) r).remove("seconds"));
        return summary;
    }

    /**
     * The next round is sampled while the driver computes a round's diagnostics; a run that stops on convergence
     * drops it: the draws hold exactly the rounds summary.json reports, the checkpoint has no file of the dropped
     * round, and the outputs equal those of a run capped at the same number of rounds.
     */
    @Test
    void aRoundSampledAheadOfAStopLeavesNoTrace() throws Exception {
        String[] base = {"chains", "--scale", "3", "--chains", "6", "--warmup", "300", "--round-size", "200",
            "--seed", "77", "--model", "bimodal", "--partitions", "2"};
        Path checkpoint = tmp.resolve("checkpoint");
        List<Row> converged = runArgs("local[2]", "converged", concat(base, "--max-rounds", "20", "--min-ess",
                "100", "--max-rhat", "1.5", "--checkpoint", checkpoint.toString()));
        com.fasterxml.jackson.databind.JsonNode summary = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(tmp.resolve("converged/summary.json").toFile());
        int rounds = summary.get("rounds").asInt();
        org.junit.jupiter.api.Assertions.assertTrue(summary.get("converged").asBoolean() && rounds < 20,
                "the run stops on convergence: " + summary);
        assertEquals(6 * 200 * rounds, converged.size(), "only the rounds the summary reports");
        int lastRound = 2 + rounds; // two warm-up rounds (300 in rounds of 200)
        org.junit.jupiter.api.Assertions.assertTrue(java.nio.file.Files.exists(checkpoint.resolve(
                String.format("rounds/round-%05d.parquet", lastRound))));
        org.junit.jupiter.api.Assertions.assertFalse(java.nio.file.Files.exists(checkpoint.resolve(
                String.format("rounds/round-%05d.parquet", lastRound + 1))), "no file of the dropped round");
        List<Row> capped = runArgs("local[2]", "capped", concat(base, "--max-rounds", Integer.toString(rounds),
                "--min-ess", "1e9"));
        assertEquals(capped, converged);
    }

    private List<Row> run(String master, int partitions) {
        return run(master, partitions, "--model", "bimodal");
    }

    private List<Row> run(String master, int partitions, String... extra) {
        String name = master.replaceAll("\\W", "") + "-" + partitions + "-"
                + Integer.toHexString(String.join(" ", extra).hashCode());
        return runArgs(master, name, concat(concat(RUN, "--partitions", Integer.toString(partitions)), extra));
    }

    private List<Row> runArgs(String master, String name, String[] jobArgs) {
        Path out = tmp.resolve(name);
        return LocalSessions.with(master, "determinism", spark -> {
            assertEquals(ExitCode.OK, Main.run(concat(jobArgs, "--out", out.toString())));
            return ChainsOutputs.draws(spark, out);
        });
    }

    /** The same six chains with the core API alone: warm-up 300 in rounds of 200, then two rounds of 200. */
    private static List<Double> plainLoop(String kernelName) {
        Target target = new BimodalMixture(5);
        Kernel<?> kernel = org.sparkmc.core.catalog.KernelCatalog.create(kernelName,
                new org.sparkmc.core.mcmc.KernelSettings(3, true, Double.NaN, 1, 300));
        RandomStreams streams = new RandomStreams(77);
        List<Double> xs = new java.util.ArrayList<>();
        for (long chain = 1; chain <= 6; chain++) {
            ChainState state = ChainRound.start(chain, target, kernel, streams);
            state = ChainRound.run(target, kernel, state, 1, 200, true, false, streams).state();
            state = ChainRound.run(target, kernel, state, 2, 100, true, false, streams).state();
            for (int round = 3; round <= 4; round++) {
                RoundResult r = ChainRound.run(target, kernel, state, round, 200, false, true, streams);
                for (double x : r.draws()[0]) {
                    xs.add(x);
                }
                state = r.state();
            }
        }
        return xs;
    }

    private static List<Double> xColumn(List<Row> rows) {
        return rows.stream().map(r -> r.getDouble(2)).toList();
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
