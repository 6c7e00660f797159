package org.sparkmc.spark.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.spark.TestPaths;
import org.sparkmc.spark.cli.LauncherIT;
import org.sparkmc.spark.lda.LdaRuns;
import org.sparkmc.spark.sync.BarrierStages;

/**
 * The jobs on a real Spark standalone cluster of separate JVMs on 127.0.0.1 (submit/cluster/start: a master and two
 * 1-core workers built from the Maven jars), submitted through submit/sparkmc's spark-submit path. Results must be
 * bit-identical to local mode, also when an executor JVM is killed in the middle of a job.
 */
class ClusterIT {
    static final Path CLUSTER_DIR = TestPaths.projectRoot().resolve("spark-jobs/target/cluster");
    /** The master's port: SPARKMC_CLUSTER_PORT when set (so two checkouts can run this test at once), else 17177. */
    static final String PORT = System.getenv().getOrDefault("SPARKMC_CLUSTER_PORT", "17177");
    static Map<String, String> submitEnv;
    static SparkSession reader;

    @TempDir
    Path tmp;

    static ProcessBuilder clusterScript(String name) {
        ProcessBuilder pb = new ProcessBuilder(TestPaths.projectRoot().resolve("submit/cluster/" + name).toString());
        pb.environment().put("SPARKMC_CLUSTER_DIR", CLUSTER_DIR.toString());
        pb.environment().put("SPARKMC_CLUSTER_PORT", PORT);
        return pb;
    }

    @BeforeAll
    static void startCluster() throws Exception {
        // Daemons an interrupted earlier run left in this directory would make start refuse (exit 2).
        clusterScript("stop").inheritIO().start().waitFor();
        Process p = clusterScript("start").redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String exports = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), "cluster start failed");
        submitEnv = new HashMap<>();
        for (String line : exports.split("\n")) {
            if (line.startsWith("export ")) {
                String[] kv = line.substring("export ".length()).split("=", 2);
                submitEnv.put(kv[0], kv[1].replaceAll("^\"|\"$", ""));
            }
        }
        assertTrue(submitEnv.containsKey("SPARK_HOME") && submitEnv.containsKey("SPARKMC_SUBMIT_OPTS"), exports);
        reader = SparkSession.builder().master("local[1]").appName("cluster-it-reader")
                .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (reader != null) {
            reader.stop();
        }
        clusterScript("stop").inheritIO().start().waitFor();
    }

    static ProcessBuilder onCluster(String... args) {
        List<String> command = new ArrayList<>();
        command.add(TestPaths.projectRoot().resolve("submit/sparkmc").toString());
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(TestPaths.projectRoot().toFile())
                .redirectErrorStream(true);
        pb.environment().putAll(submitEnv);
        return pb;
    }

    /** Every draw, ordered by chain and draw. */
    static List<Row> draws(Path out) {
        return reader.read().parquet(out.resolve("draws.parquet").toString()).orderBy("chain", "draw")
                .collectAsList();
    }

    static long applicationsRun() throws IOException {
        long apps = 0;
        for (int w = 1; w <= 2; w++) {
            Path work = CLUSTER_DIR.resolve("work-" + w);
            if (Files.isDirectory(work)) {
                try (Stream<Path> s = Files.list(work)) {
                    apps += s.filter(p -> p.getFileName().toString().startsWith("app-")).count();
                }
            }
        }
        return apps;
    }

    static final String[] CHAINS = {"chains", "--conf", "conf/chains-bimodal.conf", "--chains", "6",
        "--round-size", "4000", "--max-rounds", "6", "--min-ess", "1e9"};

    static String[] with(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /**
     * A Spark job per round here (the relayed stage is killingAnExecutorChangesNoDraw's): four partitions, where the
     * cluster's two cores (spark.cores.max) can never hold a barrier stage of four tasks, so the run takes that way at
     * once instead of waiting for executors that cannot come.
     */
    @Test
    void chainsOnTheClusterEqualLocalMode() throws Exception {
        long appsBefore = applicationsRun();
        Path cluster = tmp.resolve("cluster");
        Process p = onCluster(with(CHAINS, "--out", cluster.toString(), "--partitions", "4")).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), log);
        assertTrue(log.contains("a Spark job per round (--sync-via auto: 4 partitions need 4 task slots and the "
                + "executors have "), log);
        assertTrue(log.contains(", 2 at most by the settings)"), log);
        assertFalse(log.contains("for the executors to register"), log); // RelayedStage.awaitSlots' line
        assertEquals(appsBefore + 2, applicationsRun(), "both workers ran executors for the job");
        Path local = tmp.resolve("local");
        LauncherIT.Run r = LauncherIT.launch(with(CHAINS, "--out", local.toString()));
        assertEquals(0, r.code(), r.output());
        List<Row> expected = draws(local);
        assertEquals(6 * 4000 * 6, expected.size());
        assertEquals(expected, draws(cluster));
    }

    /** Eight schools: rounds long enough (seconds each) that the kill lands while tasks run. */
    static final String[] LONGER = {"chains", "--conf", "conf/chains-eight-schools.conf", "--warmup", "8000",
        "--round-size", "8000", "--max-rounds", "6", "--min-ess", "1e9"};

    @Test
    void killingAnExecutorChangesNoDraw() throws Exception {
        Path undisturbed = tmp.resolve("undisturbed");
        LauncherIT.Run r = LauncherIT.launch(with(LONGER, "--out", undisturbed.toString()));
        assertEquals(0, r.code(), r.output());

        Path killed = tmp.resolve("killed");
        Path log = tmp.resolve("killed.log");
        Process job = onCluster(with(LONGER, "--out", killed.toString())).redirectOutput(log.toFile()).start();
        // After round 2's line (" sampling " alone matched the first line, "… after 6 sampling rounds"), mid-stage.
        killAnExecutorWhen(job, log, text -> text.contains("round 2/7 sampling"));
        assertTrue(job.waitFor(10, TimeUnit.MINUTES), "job did not finish");
        String output = Files.readString(log);
        assertEquals(0, job.exitValue(), output);
        // It relays although its first round is its first job: the choice waited for both executors' slots.
        // The kill lands in the relayed stage, which Spark reruns from the chains' states.
        assertTrue(output.contains("chains: rounds relayed in one barrier stage"), output);
        assertTrue(output.contains("round relay: a stage attempt ended early"), output);
        assertEquals(draws(undisturbed), draws(killed));
    }

    /** smc outputs but timings and the partition count (which changes no number): filter.csv and summary.json. */
    static String smcOutputs(Path out) throws IOException {
        return Files.readString(out.resolve("filter.csv")) + Files.readString(out.resolve("summary.json"))
                .replaceAll("\"(seconds|partitions)\" *: *[0-9.eE+-]+", "");
    }

    static List<Row> smcFilter(Path out) {
        return reader.read().parquet(out.resolve("filter.parquet").toString()).orderBy("step").collectAsList();
    }

    /**
     * smc with 10^6 particles (100 steps relayed in one barrier stage, a few seconds) on the cluster, against local
     * mode: an executor is killed while the stage runs, and Spark reruns all its tasks. The lost blocks are recomputed
     * from the same (step, block) streams (--lineage-dir makes the lineage cuts reliable RDD checkpoints, which a lost
     * executor does not take with it): no number differs from the undisturbed local run.
     */
    @Test
    void smcOnTheClusterWithAKilledExecutorEqualsLocalMode() throws Exception {
        String[] longer = {"smc", "--conf", "conf/smc-nile.conf", "--particles", "1000000"};
        long appsBefore = applicationsRun();
        Path undisturbed = tmp.resolve("smc-undisturbed");
        LauncherIT.Run r = LauncherIT.launch(with(longer, "--out", undisturbed.toString()));
        assertEquals(0, r.code(), r.output());

        Path killed = tmp.resolve("smc-killed");
        Path log = tmp.resolve("smc-killed.log");
        Process job = onCluster(with(longer, "--out", killed.toString(), "--lineage-dir",
                tmp.resolve("lineage").toString())).redirectOutput(log.toFile()).start();
        // Once step 1 is reported, while the stage runs: progress lines are a second apart, and waiting for step 30
        // could see step 100 first and kill after the stage, which Spark then reruns only in part (RelayAddress).
        killAnExecutorWhen(job, log, text -> lastNumber(text, "step (\\d+)/100 ") >= 1);
        assertFalse(Files.readString(log).contains("step 100/100"), "the kill must land while the stage runs");
        assertTrue(job.waitFor(10, TimeUnit.MINUTES), "job did not finish");
        String output = Files.readString(log);
        assertEquals(0, job.exitValue(), output);
        assertEquals(appsBefore + 2, applicationsRun(), "both workers ran executors for the job");
        assertEquals(100, smcFilter(undisturbed).size());
        assertEquals(smcFilter(undisturbed), smcFilter(killed));
        assertEquals(smcOutputs(undisturbed), smcOutputs(killed));
    }

    /** ALARM by likelihood weighting, 500,000 samples in blocks: the cluster's answer is local mode's. */
    static final String[] BN = {"bn", "--conf", "conf/bn-alarm.conf", "--samples", "500000"};

    @Test
    void bnOnTheClusterEqualsLocalMode() throws Exception {
        Path cluster = tmp.resolve("bn-cluster");
        Process p = onCluster(with(BN, "--out", cluster.toString())).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), log);
        Path local = tmp.resolve("bn-local");
        LauncherIT.Run r = LauncherIT.launch(with(BN, "--out", local.toString()));
        assertEquals(0, r.code(), r.output());
        assertEquals(Files.readString(local.resolve("summary.csv")), Files.readString(cluster.resolve("summary.csv")));
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        com.fasterxml.jackson.databind.JsonNode a = json.readTree(local.resolve("summary.json").toFile());
        com.fasterxml.jackson.databind.JsonNode b = json.readTree(cluster.resolve("summary.json").toFile());
        assertEquals(500000, a.get("samples").asLong());
        for (String field : List.of("samples", "ess", "evidence_probability", "queries")) {
            assertEquals(a.get(field), b.get(field), field);
        }
    }

    /**
     * lda on KOS (K = 20, 600 sweeps, 8 blocks) on the cluster: an executor is killed in the middle of the relayed
     * stage that runs sweeps 11 to 600 (--checkpoint-every auto ends a stage after the first 10), past the first
     * lineage cut, which --checkpoint makes a reliable RDD checkpoint. Spark reruns the whole stage from the cut
     * blocks and the same (sweep, block) streams: topics, log-likelihoods and document–topic rows equal the
     * undisturbed local run's. (That a stage's cut is written when it ends, which a kill after the stage needs,
     * LdaJobTest checks.)
     */
    @Test
    void ldaOnTheClusterWithAKilledExecutorEqualsLocalMode() throws Exception {
        String[] lda = {"lda", "--conf", "conf/lda-kos.conf", "--topics", "20", "--sweeps", "600", "--eval-burn-in",
            "5", "--eval-samples", "5"};
        Path undisturbed = tmp.resolve("lda-undisturbed");
        LauncherIT.Run r = LauncherIT.launch(with(lda, "--out", undisturbed.toString()));
        assertEquals(0, r.code(), r.output());

        long appsBefore = applicationsRun();
        Path killed = tmp.resolve("lda-killed");
        Path log = tmp.resolve("lda-killed.log");
        Process job = onCluster(with(lda, "--out", killed.toString(), "--checkpoint",
                tmp.resolve("lda-checkpoint").toString())).redirectOutput(log.toFile()).start();
        killAnExecutorWhen(job, log, text -> lastNumber(text, "lda: sweep (\\d+) ") >= 15);
        assertTrue(job.waitFor(10, TimeUnit.MINUTES), "job did not finish");
        String output = Files.readString(log);
        assertEquals(0, job.exitValue(), output);
        assertEquals(appsBefore + 2, applicationsRun(), "both workers ran executors for the job");
        assertEquals(Files.readString(undisturbed.resolve("topics.csv")),
                Files.readString(killed.resolve("topics.csv")));
        assertEquals(LdaRuns.loglikWithoutTimes(undisturbed), LdaRuns.loglikWithoutTimes(killed));
        assertEquals(LdaRuns.docTopics(reader, undisturbed), LdaRuns.docTopics(reader, killed));
    }

    /**
     * {@code RelayedStage.mapStageOnly} while an executor is being replaced: {@link SlotsComeBack}, submitted with
     * spark-submit, submits a barrier map stage of two tasks once the test has killed one of the two executors. Spark's
     * slot check fails until the worker's replacement registers (Spark itself would fail the stage at once), and the
     * stage is submitted again, a second apart, until it runs.
     */
    @Test
    void aBarrierMapStageSubmittedWhileAnExecutorIsReplacedRunsWhenItIsBack() throws Exception {
        Path log = tmp.resolve("slots.log");
        List<String> command = new ArrayList<>(List.of(submitEnv.get("SPARK_HOME") + "/bin/spark-submit",
                "--class", SlotsComeBack.class.getName(), "--jars", appJar().toString()));
        command.addAll(List.of(submitEnv.get("SPARKMC_SUBMIT_OPTS").trim().split("\\s+")));
        command.add(jarOf(tmp.resolve("slots-come-back.jar"), SlotsComeBack.class, BarrierStages.class).toString());
        ProcessBuilder pb = new ProcessBuilder(command).directory(TestPaths.projectRoot().toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().putAll(submitEnv);
        // The executor killed must be this driver's: the last test's executors must have exited first.
        for (int i = 0; i < 300 && executorPid() > 0; i++) {
            Thread.sleep(100);
        }
        assertEquals(-1, executorPid(), "an earlier application's executor is still running");
        Process job = pb.start();
        String output;
        try {
            killAnExecutorWhen(job, log, text -> text.contains(SlotsComeBack.READY));
            assertTrue(job.waitFor(5, TimeUnit.MINUTES), "the driver did not finish");
            output = Files.readString(log);
        } finally {
            job.destroyForcibly(); // a driver left running would hold the cluster's cores for the next tests
        }
        assertEquals(0, job.exitValue(), output);
        // The count in the warning is read after the failed check, when the replacement may have registered.
        assertTrue(output.contains("the barrier stage needs 2 task slots at once and the executors have "), output);
        assertTrue(lastNumber(output, SlotsComeBack.DONE + "(\\d+) times") >= 2, output);
    }

    /** The application's jar, as submit/sparkmc picks it. */
    static Path appJar() throws IOException {
        try (Stream<Path> s = Files.list(TestPaths.projectRoot().resolve("spark-jobs/target"))) {
            return s.filter(p -> p.getFileName().toString().matches("sparkmc-spark-jobs-.*\\.jar")
                    && !p.getFileName().toString().matches(".*-(original|sources)\\.jar")).sorted().findFirst()
                    .orElseThrow(() -> new IllegalStateException("no application jar in spark-jobs/target"));
        }
    }

    /** A jar at {@code jar} of the {@code types}' class files, their nested and anonymous classes included. */
    static Path jarOf(Path jar, Class<?>... types) throws Exception {
        try (java.util.jar.JarOutputStream out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar))) {
            for (Class<?> type : types) {
                Path classes = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
                String dir = type.getPackageName().replace('.', '/');
                try (Stream<Path> files = Files.list(classes.resolve(dir))) {
                    for (Path f : (Iterable<Path>) files::iterator) {
                        String name = f.getFileName().toString();
                        if (name.equals(type.getSimpleName() + ".class")
                                || name.startsWith(type.getSimpleName() + "$")) {
                            out.putNextEntry(new java.util.jar.JarEntry(dir + "/" + name));
                            out.write(Files.readAllBytes(f));
                            out.closeEntry();
                        }
                    }
                }
            }
        }
        return jar;
    }

    /**
     * Waits until the job's log satisfies {@code ready}, then kills one of the cluster's executor JVMs with kill -9
     * while the job still runs, and waits for it to die.
     */
    static void killAnExecutorWhen(Process job, Path log, java.util.function.Predicate<String> ready)
            throws Exception {
        long victim = -1;
        for (int i = 0; i < 3000 && victim < 0 && job.isAlive(); i++) {
            Thread.sleep(100);
            if (ready.test(Files.readString(log))) {
                victim = executorPid();
            }
        }
        assertTrue(victim > 0, "no executor JVM found to kill: " + Files.readString(log));
        assertTrue(job.isAlive(), "the kill must land while the job runs");
        assertEquals(0, new ProcessBuilder("kill", "-9", Long.toString(victim)).start().waitFor());
        long victimPid = victim;
        for (int i = 0; i < 100 && ProcessHandle.of(victimPid).map(ProcessHandle::isAlive).orElse(false); i++) {
            Thread.sleep(50);
        }
        assertTrue(ProcessHandle.of(victimPid).map(h -> !h.isAlive()).orElse(true), "the executor is still alive");
    }

    /** The number in the last match of {@code regex}'s first group in {@code text}, or 0. */
    static int lastNumber(String text, String regex) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(regex).matcher(text);
        int last = 0;
        while (m.find()) {
            last = Integer.parseInt(m.group(1));
        }
        return last;
    }

    /** An executor JVM of this cluster: its working directory is inside one of our workers' work directories. */
    static long executorPid() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("pgrep", "-f", "CoarseGrainedExecutorBackend").start();
        String pids = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        p.waitFor();
        for (String pid : pids.isEmpty() ? new String[0] : pids.split("\\s+")) {
            try {
                Path cwd = Files.readSymbolicLink(Path.of("/proc", pid, "cwd"));
                if (cwd.startsWith(CLUSTER_DIR)) {
                    return Long.parseLong(pid);
                }
            } catch (IOException gone) {
                // exited meanwhile
            }
        }
        return -1;
    }
}
