package org.sparkmc.spark.smc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.functions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.cli.BadInputTest;
import org.sparkmc.spark.cli.ExitCode;
import org.sparkmc.spark.cli.Main;
import org.sparkmc.spark.io.CheckpointStates;

/**
 * The smc checkpoint in-process: a run stopped after k steps (its data cut after k observations) and resumed on
 * the whole series (here the first 40 Nile observations) writes outputs bit-identical to an uninterrupted run,
 * whether the checkpointed step resampled or not; tampered particles, a missing particle file, other data or other
 * settings are refused with exit 2. No statistics: every check is exact.
 */
class SmcCheckpointTest extends SparkTestBase {
    private static final String[] RUN = {"smc", "--model", "local-level", "--time-column", "year", "--particles",
        "3000", "--block-size", "512", "--seed", "7"};

    @TempDir
    Path tmp;

    private static String[] with(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** The first {@code k} observations of the Nile series. */
    private Path firstSteps(int k) throws IOException {
        List<String> lines = Files.readAllLines(SmcTestData.nileFile());
        Path p = tmp.resolve("nile-" + k + ".csv");
        Files.write(p, lines.subList(0, k + 1));
        return p;
    }

    private static List<Boolean> resampled(Path out) throws IOException {
        List<Boolean> r = new ArrayList<>();
        List<String> lines = Files.readAllLines(out.resolve("filter.csv"));
        for (String line : lines.subList(1, lines.size())) {
            r.add(Boolean.parseBoolean(line.split(",")[5]));
        }
        return r;
    }

    private static String withoutSeconds(Path summary) throws IOException {
        return Files.readString(summary).replaceAll("\"seconds\" *: *[0-9.eE+-]+", "");
    }

    @Test
    void resumedRunsEqualAnUninterruptedOneAfterAStepThatResampledAndOneThatDidNot() throws Exception {
        Path nile = firstSteps(40);
        Path whole = tmp.resolve("whole");
        assertEquals(ExitCode.OK, Main.run(with(RUN, "--data", nile.toString(), "--out", whole.toString())));
        List<Boolean> resampled = resampled(whole);
        assertEquals(40, resampled.size());
        int afterResampling = 1 + resampled.subList(10, 40).indexOf(true) + 10;
        int afterPlainStep = 1 + resampled.subList(10, 40).indexOf(false) + 10;
        assertTrue(resampled.get(afterResampling - 1) && !resampled.get(afterPlainStep - 1), resampled.toString());

        for (int k : new int[] {afterResampling, afterPlainStep}) {
            Path checkpoint = tmp.resolve("checkpoint-" + k);
            assertEquals(ExitCode.OK, Main.run(with(RUN, "--data", firstSteps(k).toString(), "--checkpoint",
                    checkpoint.toString(), "--checkpoint-every", Integer.toString(k), "--out",
                    tmp.resolve("part-" + k).toString())));
            assertTrue(Files.exists(checkpoint.resolve(String.format("state-%05d.json", k))));
            Path resumed = tmp.resolve("resumed-" + k);
            BadInputTest.Result r = BadInputTest.runCapturingOut(with(RUN, "--data", nile.toString(), "--checkpoint",
                    checkpoint.toString(), "--checkpoint-every", "25", "--resume", "--out", resumed.toString()));
            assertEquals(ExitCode.OK, r.code(), r.err());
            assertEquals(Files.readString(whole.resolve("filter.csv")), Files.readString(resumed.resolve("filter.csv")),
                    "resumed after step " + k);
            assertEquals(withoutSeconds(whole.resolve("summary.json")), withoutSeconds(resumed.resolve("summary.json")));
            assertEquals(spark().read().parquet(whole.resolve("filter.parquet").toString()).orderBy("step")
                    .collectAsList(), spark().read().parquet(resumed.resolve("filter.parquet").toString())
                    .orderBy("step").collectAsList());
        }
    }

    /** A checkpoint after 20 steps (of a cut series), for the refusal tests. */
    private Path checkpointAfter20() throws IOException {
        Path checkpoint = tmp.resolve("checkpoint");
        assertEquals(ExitCode.OK, Main.run(with(RUN, "--data", firstSteps(20).toString(), "--checkpoint",
                checkpoint.toString(), "--checkpoint-every", "20", "--out", tmp.resolve("part").toString())));
        return checkpoint;
    }

    private BadInputTest.Result resume(Path checkpoint, String out, String... more) {
        return BadInputTest.runCapturing(with(with(RUN, "--data", SmcTestData.nileFile().toString(), "--checkpoint",
                checkpoint.toString(), "--resume", "--out", tmp.resolve(out).toString()), more));
    }

    @Test
    void tamperedParticlesAreRefused() throws Exception {
        Path checkpoint = checkpointAfter20();
        Path particles = checkpoint.resolve("particles/step-0000020.parquet");
        assertTrue(Files.isDirectory(particles));
        // Rewrite the particles with one log-weight of block 2 changed: a valid file, other numbers.
        Dataset<Row> original = spark().read().schema(SmcCheckpoint.SCHEMA).parquet(particles.toString());
        Path edited = tmp.resolve("edited.parquet");
        original.withColumn("log_weights", functions.when(functions.col("block").equalTo(2),
                functions.expr("transform(log_weights, (w, i) -> if(i = 0, w + 1, w))"))
                .otherwise(functions.col("log_weights"))).write().parquet(edited.toString());
        assertNotEquals(original.orderBy("block").collectAsList(),
                spark().read().schema(SmcCheckpoint.SCHEMA).parquet(edited.toString()).orderBy("block").collectAsList());
        deleteTree(particles);
        Files.move(edited, particles);
        BadInputTest.Result r = resume(checkpoint, "tampered");
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("are corrupt (their SHA-256 does not match"), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
        assertFalse(Files.exists(tmp.resolve("tampered")));

        // A part file whose footer reads but whose first page header is garbage (used below): it passes the check
        // before Spark, and Spark's read of the particles fails in a task.
        Path paged = tmp.resolve("paged.parquet");
        spark().read().schema(SmcCheckpoint.SCHEMA).parquet(particles.toString()).write().parquet(paged.toString());
        Path part;
        try (var files = Files.list(paged)) {
            part = files.filter(f -> f.getFileName().toString().startsWith("part-")).findFirst().orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(part);
        Arrays.fill(bytes, 4, 64, (byte) 0xff); // after the magic "PAR1": the first column chunk's page header
        Files.write(part, bytes);
        Files.deleteIfExists(part.resolveSibling("." + part.getFileName() + ".crc"));

        // One part file cut short (its .crc removed, as a copy without it would be): refused, exit 2, nothing written.
        Path truncated = tmp.resolve("truncated.parquet");
        spark().read().schema(SmcCheckpoint.SCHEMA).parquet(particles.toString()).write().parquet(truncated.toString());
        try (var files = Files.list(truncated)) {
            part = files.filter(f -> f.getFileName().toString().startsWith("part-")).findFirst().orElseThrow();
        }
        bytes = Files.readAllBytes(part);
        Files.write(part, Arrays.copyOf(bytes, bytes.length / 2));
        Files.deleteIfExists(part.resolveSibling("." + part.getFileName() + ".crc"));
        deleteTree(particles);
        Files.move(truncated, particles);
        r = resume(checkpoint, "truncated");
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("step-0000020.parquet cannot be read ("), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
        assertFalse(Files.exists(tmp.resolve("truncated")));
        // Found without Spark, as the command does before Spark starts: no failed task logs a trace first.
        String state = Files.readString(checkpoint.resolve("state-00020.json"));
        String fingerprint = CheckpointStates.JSON.readTree(state.substring(0, state.lastIndexOf("\n#sha256:")))
                .get("fingerprint").asText();
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> new SmcCheckpoint(checkpoint.toString(), new Configuration()).checkBeforeSpark(fingerprint));
        assertTrue(e.getMessage().contains("step-0000020.parquet cannot be read ("), e.getMessage());

        // The paged copy: refused the same way once Spark reads it, exit 2, nothing written.
        deleteTree(particles);
        Files.move(paged, particles);
        new SmcCheckpoint(checkpoint.toString(), new Configuration()).checkBeforeSpark(fingerprint);
        r = resume(checkpoint, "paged");
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("step-0000020.parquet cannot be read ("), r.err());
        assertFalse(r.err().contains("\tat "), r.err());
        assertFalse(Files.exists(tmp.resolve("paged")));

        deleteTree(particles);
        r = resume(checkpoint, "missing");
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("is incomplete"), r.err());
    }

    /**
     * Each checkpoint writes only its own steps' rows (the state does not grow with the series), a resume reads the
     * chain of segments back to the first and finishes identically, and a damaged segment is refused.
     */
    @Test
    void rowsAreWrittenOncePerCheckpointAndVerifiedOnResume() throws Exception {
        Path whole = tmp.resolve("whole");
        assertEquals(ExitCode.OK, Main.run(with(RUN, "--data", firstSteps(30).toString(), "--out", whole.toString())));
        Path ten = tmp.resolve("ckpt-10");
        Path twenty = tmp.resolve("ckpt-20");
        assertEquals(ExitCode.OK, Main.run(with(RUN, "--data", firstSteps(10).toString(), "--checkpoint",
                ten.toString(), "--checkpoint-every", "5", "--out", tmp.resolve("part-10").toString())));
        assertEquals(ExitCode.OK, Main.run(with(RUN, "--data", firstSteps(20).toString(), "--checkpoint",
                twenty.toString(), "--checkpoint-every", "5", "--out", tmp.resolve("part-20").toString())));
        long after10 = Files.size(ten.resolve("state-00010.json"));
        long after20 = Files.size(twenty.resolve("state-00020.json"));
        assertTrue(Math.abs(after20 - after10) < 64, after10 + " vs " + after20 + " bytes");
        try (var segments = Files.list(twenty.resolve("rows"))) {
            assertEquals(4, segments.filter(f -> f.getFileName().toString().matches("rows-\\d+\\.json")).count());
        }
        Path resumed = tmp.resolve("resumed");
        BadInputTest.Result r = BadInputTest.runCapturing(with(RUN, "--data", firstSteps(30).toString(),
                "--checkpoint", twenty.toString(), "--resume", "--out", resumed.toString()));
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertEquals(Files.readString(whole.resolve("filter.csv")), Files.readString(resumed.resolve("filter.csv")));
        try (var particles = Files.list(twenty.resolve("particles"))) { // the resumed-from ones too, once cut past
            assertEquals(List.of("step-0000030.parquet"), particles.map(f -> f.getFileName().toString())
                    .filter(f -> !f.startsWith(".")).toList());
        }

        Path segment = twenty.resolve("rows/rows-0000010.json");
        Files.writeString(segment, Files.readString(segment).replaceFirst("\"ess\":", "\"ess\": "));
        Files.deleteIfExists(segment.resolveSibling(".rows-0000010.json.crc"));
        r = BadInputTest.runCapturing(with(RUN, "--data", firstSteps(30).toString(), "--checkpoint",
                twenty.toString(), "--resume", "--out", tmp.resolve("damaged").toString()));
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("rows-0000010.json are corrupt"), r.err());
        assertFalse(Files.exists(tmp.resolve("damaged")));
    }

    @Test
    void otherDataOrSettingsAreRefused() throws Exception {
        Path checkpoint = checkpointAfter20();
        Path changed = tmp.resolve("changed.csv");
        List<String> lines = new ArrayList<>(Files.readAllLines(SmcTestData.nileFile()));
        lines.set(5, lines.get(5).replaceFirst(",.*", ",999"));
        Files.write(changed, lines);
        // Other data is refused before Spark starts (it was after, and after a "resumed" line): no Spark job runs.
        BadInputTest.Result[] refused = new BadInputTest.Result[1];
        assertEquals(0, sparkJobs(() -> refused[0] = BadInputTest.runCapturing(with(RUN, "--data",
                changed.toString(), "--checkpoint", checkpoint.toString(), "--resume", "--out",
                tmp.resolve("other-data").toString()))));
        BadInputTest.Result r = refused[0];
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("differ from the checkpointed run's at time step 4 (0-based, as filter.csv's "
                + "step; progress line 5;"), r.err());
        assertFalse(r.err().contains("resumed from"), r.err());

        String shorter = firstSteps(12).toString();
        assertEquals(0, sparkJobs(() -> refused[0] = BadInputTest.runCapturing(with(RUN, "--data", shorter,
                "--checkpoint", checkpoint.toString(), "--resume", "--out", tmp.resolve("shorter").toString()))));
        r = refused[0];
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("hold 12 observations, but the checkpoint"), r.err());

        r = resume(checkpoint, "other-scheme", "--resampling", "stratified");
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("other settings (scheme: checkpoint systematic, now stratified)"), r.err());

        r = BadInputTest.runCapturing(with(RUN, "--data", SmcTestData.nileFile().toString(), "--resume", "--out",
                tmp.resolve("no-dir").toString()));
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("--resume needs --checkpoint DIR"), r.err());
    }

    /**
     * The fingerprint holds the values of the model's parameters, defaults filled in: a parameter given at its default
     * value resumes a run that left it to the default (it was refused as other settings, blaming "parameters and data
     * file"), and one given at another value is refused as a parameter's value changed, without blaming data.
     */
    @Test
    void aParameterGivenAtItsDefaultValueResumes() throws Exception {
        Path checkpoint = checkpointAfter20();
        BadInputTest.Result r = resume(checkpoint, "changed", "--param", "level_variance=1000");
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("other settings (resolved-params-sha256 (a digest of the values of the model's "
                + "parameters, defaults included: a parameter's value changed): checkpoint "), r.err());
        assertFalse(r.err().contains("data file"), r.err());
        r = resume(checkpoint, "at-default", "--param", "level_variance=1469.1", "--param", "initial_mean=1120");
        assertEquals(ExitCode.OK, r.code(), r.err());
    }

    private static void deleteTree(Path p) throws IOException {
        try (Stream<Path> s = Files.walk(p)) {
            for (Path f : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }
}
