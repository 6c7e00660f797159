package org.sparkmc.spark.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.spark.TestPaths;

/**
 * The README's commands through the real launcher ({@code submit/sparkmc}, local mode, no SPARK_HOME), after the
 * app jar is packaged: the quick start, bad input, the overwrite safety and a SIGTERM (a user's own target:
 * {@link UserTargetIT}).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
public class LauncherIT {

    @TempDir
    Path tmp;

    public record Run(int code, String output) {
    }

    public static Run launch(String... args) throws IOException, InterruptedException {
        return launchIn(TestPaths.projectRoot(), args);
    }

    /** Runs the launcher with {@code dir} as the working directory. */
    public static Run launchIn(Path dir, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(TestPaths.projectRoot().resolve("submit/sparkmc").toString());
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile())
                .redirectErrorStream(true);
        pb.environment().remove("SPARK_HOME");
        pb.environment().put("SPARKMC_JAVA_OPTS", "-Xmx1g");
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Run(p.waitFor(), output);
    }

    static JsonNode summary(Path out) throws IOException {
        return new ObjectMapper().readTree(out.resolve("summary.json").toFile());
    }

    @Test
    void quickStartRunsTheMainJob() throws Exception {
        Path out = tmp.resolve("quickstart");
        Run run = launch("chains", "--conf", "conf/chains-bimodal.conf", "--out", out.toString(), "--overwrite");
        assertEquals(0, run.code(), run.output());
        assertTrue(run.output().contains("round 2/21 sampling"), run.output());
        assertTrue(Files.exists(out.resolve("_SUCCESS")));
        assertTrue(summary(out).get("converged").asBoolean());
        assertFalse(run.output().contains("stopping"), "a normal end is no interruption: " + run.output());
        assertFalse(run.output().contains("WARN"), "a converged run warns of nothing: " + run.output());
    }

    /**
     * A master Spark refuses is bad input (exit 2, one line saying what to give, before Spark's context starts), not
     * a failure with a trace; and nothing is written, not even the checkpoint directory claimed before Spark started.
     */
    @Test
    void aMasterSparkCannotUseIsBadInput() throws Exception {
        for (String master : List.of("local[0]", "bogus://x")) {
            Run run = launch("chains", "--out", tmp.resolve("m").toString(), "--max-rounds", "1", "--master", master,
                    "--checkpoint", tmp.resolve("ck").toString());
            assertEquals(2, run.code(), run.output());
            assertTrue(run.output().contains("sparkmc chains: --master '" + master
                    + "' is not a master Spark can use"), run.output());
            assertFalse(run.output().contains("\tat "), run.output()); // before Spark's context starts, no traces
            assertFalse(Files.exists(tmp.resolve("m")));
            assertFalse(Files.exists(tmp.resolve("ck")), "the claimed checkpoint directory is left behind");
        }
    }

    /**
     * The adversarial case that deleted a user's directory (issue 18 A): a config file alone, with out = "." and
     * overwrite = true, run in a directory holding the user's files. Now exit 2 before Spark starts, nothing touched.
     */
    @Test
    void aConfigFileCannotMakeARunReplaceTheWorkingDirectory() throws Exception {
        Path work = Files.createDirectories(tmp.resolve("work"));
        Files.writeString(work.resolve("PRECIOUS.txt"), "keep");
        Files.writeString(work.resolve("innocent.conf"), "out = \".\"\noverwrite = true\nmax-rounds = 1\n");
        Run run = launchIn(work, "chains", "--conf", "innocent.conf");
        assertEquals(2, run.code(), run.output());
        assertTrue(run.output().contains("it is the working directory or holds it"), run.output());
        assertEquals("keep", Files.readString(work.resolve("PRECIOUS.txt")));
        assertTrue(Files.exists(work.resolve("innocent.conf")));
    }

    /**
     * SIGTERM while the output is being written (issue 18 G: the old code left the staging directory behind): the
     * shutdown hook removes the staging, and nothing appears at --out. The kill is sent the moment the staging
     * directory appears; the CmdStan CSVs of 8 × 200,000 draws keep the run writing for seconds after that. The log
     * says in one line why the run stopped, with no trace.
     */
    @Test
    void sigtermWhileWritingLeavesNoStaging() throws Exception {
        Path out = tmp.resolve("killed");
        List<String> command = List.of(TestPaths.projectRoot().resolve("submit/sparkmc").toString(), "chains",
                "--out", out.toString(), "--warmup", "100", "--round-size", "200000", "--max-rounds", "1",
                "--cmdstan-csv", "--master", "local[2]");
        ProcessBuilder pb = new ProcessBuilder(command).directory(TestPaths.projectRoot().toFile())
                .redirectErrorStream(true).redirectOutput(tmp.resolve("killed.log").toFile());
        pb.environment().remove("SPARK_HOME");
        pb.environment().put("SPARKMC_JAVA_OPTS", "-Xmx1g");
        Process p = pb.start();
        long deadline = System.nanoTime() + 180_000_000_000L;
        // The output is opened (and its staging probed) before Spark starts: wait for the sampling to end first.
        while (!new String(Files.readAllBytes(tmp.resolve("killed.log")), StandardCharsets.UTF_8).contains("round 2/2")
                && p.isAlive()
                && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        while (staging(tmp).isEmpty() && p.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertTrue(p.isAlive(), "the run ended before it began writing: " + Files.readString(tmp.resolve(
                "killed.log")));
        p.destroy(); // SIGTERM
        int code = p.waitFor();
        String log = Files.readString(tmp.resolve("killed.log"));
        assertEquals(143, code, "killed by SIGTERM before the commit: " + log);
        assertEquals(List.of(), staging(tmp), log);
        assertTrue(!Files.exists(out), log);
        assertTrue(log.contains("removed the staged output"), log);
        // One line says why it stopped; the writes that failed under the stopped Spark print no trace (they printed
        // hundreds of lines and an INTERNAL_ERROR "bug in Spark").
        assertTrue(log.contains("sparkmc chains: stopping: the JVM is shutting down (SIGTERM or Ctrl-C)"), log);
        assertFalse(log.contains("\tat ") || log.contains("Exception") || log.contains("ERROR"), log);
    }

    /**
     * A task that runs out of memory makes Spark end the JVM with exit code 52; the one line the run prints as it
     * stops said "SIGTERM or Ctrl-C", which sent the user looking for a signal. It now says what happened, and the
     * staged output is removed as on a signal. (5·10^7 particles' states and weights take 0.75 GiB, under the 1 GiB
     * heap, so the run is not refused up front; with their copies and Spark's share they do not fit.) Should the
     * job's failure reach the driver before Spark's handler exits, the run says so itself, with the same exit code.
     */
    @Test
    void runningOutOfMemoryIsNotCalledASignal() throws Exception {
        Path out = tmp.resolve("oom");
        Run r = launch("smc", "--conf", TestPaths.conf("smc-nile.conf").toString(), "--data",
                TestPaths.projectRoot().resolve("data/nile/nile.csv").toString(), "--particles", "50000000",
                "--out", out.toString());
        assertEquals(52, r.code(), r.output());
        assertTrue(r.output().contains("sparkmc smc: stopping: the JVM is shutting down (Spark is ending it after a "
                + "fatal error in a task, such as running out of memory")
                || r.output().contains("sparkmc smc: a task ran out of memory (Java heap space)"), r.output());
        assertFalse(r.output().contains("SIGTERM"), r.output());
        assertFalse(Files.exists(out), r.output());
        assertEquals(List.of(), staging(tmp), r.output());
    }

    private static List<Path> staging(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().contains(".sparkmc-tmp-")).toList();
        }
    }

    /**
     * A build that fails prints Maven's own output, not just the name of a log (issue 18, item 2): the launcher
     * copied into a project whose POM is broken, so that Maven fails at once without touching the real checkout.
     */
    @Test
    void aFailedBuildPrintsMavensOutput() throws Exception {
        Path project = Files.createDirectories(tmp.resolve("broken/submit"));
        for (String script : List.of("sparkmc", "java-flags.sh")) {
            Files.copy(TestPaths.projectRoot().resolve("submit").resolve(script), project.resolve(script),
                    java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
        }
        Files.writeString(tmp.resolve("broken/pom.xml"), "<project><modelVersion>4.0.0</modelVersion>\n<oops>\n");
        ProcessBuilder pb = new ProcessBuilder(project.resolve("sparkmc").toString(), "chains", "--help")
                .directory(tmp.toFile()).redirectErrorStream(true);
        pb.environment().remove("SPARK_HOME");
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(1, p.waitFor(), output);
        assertTrue(output.contains("sparkmc: building the app with Maven"), output);
        assertTrue(output.contains("sparkmc: build failed (Maven exit 1); Maven's output"), output);
        assertTrue(output.contains("[ERROR]") && output.contains("pom.xml"), output);
    }

    /**
     * A run refused because --out exists stops before Spark (issue 18, item 3): the JVM loads no Scala class and no
     * Spark class beyond SparkSession's name, and no JVM warning precedes the one line of the refusal.
     */
    @Test
    void aRefusedRunLoadsNeitherSparkNorScala() throws Exception {
        Path out = Files.createDirectories(tmp.resolve("exists"));
        String said = refusedWithoutSpark("chains", "--conf", "conf/chains-bimodal.conf", "--out", out.toString());
        assertTrue(said.contains("already exists; choose another --out"), said);
    }

    /** The lda job checks its docword header and vocabulary before Spark starts, as it checks --out. */
    @Test
    void aBadDocwordHeaderIsRefusedBeforeSpark() throws Exception {
        Path docword = Files.writeString(tmp.resolve("docword.bad.txt"), "3\n6906\n-1\n");
        String said = refusedWithoutSpark("lda", "--docword", docword.toString(), "--vocab",
                "data/kos/vocab.kos.txt", "--out", tmp.resolve("lda-out").toString());
        assertTrue(said.contains(docword.toString()) && said.contains("line 3"), said);
        assertFalse(Files.exists(tmp.resolve("lda-out")));
    }

    /**
     * So do the generators' and {@code consensus}'s refusals: picocli builds every command at start-up, so a command
     * class that names a Spark function type loads Spark for every job's refusal (as generate-glm's did).
     */
    @Test
    void theGeneratorsAndConsensusRefuseBeforeSpark() throws Exception {
        Path out = Files.createDirectories(tmp.resolve("taken"));
        assertTrue(refusedWithoutSpark("generate-glm", "--out", out.toString()).contains("already exists"));
        assertTrue(refusedWithoutSpark("generate-lda", "--preset", "small", "--out", out.toString())
                .contains("already exists"));
        String said = refusedWithoutSpark("consensus", "--data", tmp.resolve("none.parquet").toString(), "--out",
                tmp.resolve("c").toString());
        assertTrue(said.contains("no such file"), said);
    }

    /**
     * Bad input an executor finds (a cell that is no number, read by Spark's task) is said in one line: Spark's
     * warning with the task's trace and its ERROR "… failed 1 times; aborting job" are dropped (the latter printed
     * before the message).
     */
    @Test
    void badInputFoundByATaskIsOneLine() throws Exception {
        Path csv = Files.writeString(tmp.resolve("bad.csv"), "y,x1\n1,0.5\n0,0.2\n1,abc\n0,0.1\n");
        Run run = launch("consensus", "--data", csv.toString(), "--features", "x1", "--family", "logistic",
                "--shards", "1", "--warmup", "10", "--iterations", "10", "--out", tmp.resolve("c").toString());
        assertEquals(2, run.code(), run.output());
        List<String> said = run.output().lines().filter(l -> !l.contains(" INFO ")).toList();
        assertEquals(List.of("sparkmc consensus: " + csv.toUri().toString().replace("file:///", "file:/")
                + " line 4, column 'x1': value is 'abc', expected a number"), said, run.output());
        assertFalse(Files.exists(tmp.resolve("c")));
    }

    /** Runs the launcher with class loading logged; returns its one line, checking it exited 2 before Spark. */
    private static String refusedWithoutSpark(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(TestPaths.projectRoot().resolve("submit/sparkmc").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(TestPaths.projectRoot().toFile())
                .redirectErrorStream(true);
        pb.environment().remove("SPARK_HOME");
        pb.environment().put("SPARKMC_JAVA_OPTS", "-Xmx1g -Xlog:class+load=info");
        Process p = pb.start();
        List<String> lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertEquals(2, p.waitFor(), String.join("\n", lines));
        List<String> said = lines.stream().filter(l -> !l.contains("[class,load]")).toList();
        assertEquals(1, said.size(), String.join("\n", said));
        assertEquals(List.of(), lines.stream().filter(l -> l.contains("[class,load] scala.")).toList());
        assertTrue(lines.stream().filter(l -> l.contains("[class,load] org.apache.spark.")).count() <= 1,
                "Spark classes loaded for a refusal");
        return said.get(0);
    }

    /**
     * Class data sharing (issue 18, item 3: launch to the first progress line): {@code SPARKMC_CDS=record} records
     * the classes a run loads, and the next run maps them from the archive instead of reading them from the jars.
     */
    @Test
    @Order(1) // first: the launches of this class and of the ITs after it map the archive it records
    void recordedClassesAreMappedByTheNextRun() throws Exception {
        Path archive = TestPaths.projectRoot().resolve("spark-jobs/target/sparkmc-classes.jsa");
        Path out = tmp.resolve("recorded");
        ProcessBuilder record = new ProcessBuilder(TestPaths.projectRoot().resolve("submit/sparkmc").toString(),
                "chains", "--model", "bimodal", "--warmup", "200", "--round-size", "200", "--max-rounds", "1",
                "--out", out.toString()).directory(TestPaths.projectRoot().toFile()).redirectErrorStream(true);
        record.environment().remove("SPARK_HOME");
        record.environment().put("SPARKMC_JAVA_OPTS", "-Xmx1g");
        record.environment().put("SPARKMC_CDS", "record");
        Process p = record.start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), output);
        assertTrue(output.contains("sparkmc: recording the classes a run loads"), output);
        assertFalse(output.contains("could not record"), output);
        assertTrue(Files.size(archive) > 10_000_000, "archive of " + Files.size(archive) + " bytes");

        ProcessBuilder next = new ProcessBuilder(TestPaths.projectRoot().resolve("submit/sparkmc").toString(),
                "chains", "--out", out.toString()).directory(TestPaths.projectRoot().toFile())
                .redirectErrorStream(true);
        next.environment().remove("SPARK_HOME");
        next.environment().put("SPARKMC_JAVA_OPTS", "-Xmx1g -Xlog:class+load=info");
        p = next.start();
        output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(2, p.waitFor(), output);
        assertTrue(output.contains("org.sparkmc.spark.cli.Main source: shared objects file"), output);
    }

    @Test
    void badInputExitsTwoThroughTheLauncher() throws Exception {
        Run run = launch("chains", "--model", "nope", "--out", tmp.resolve("x").toString());
        assertEquals(2, run.code(), run.output());
        assertTrue(run.output().contains("unknown model 'nope'"), run.output());
    }
}
