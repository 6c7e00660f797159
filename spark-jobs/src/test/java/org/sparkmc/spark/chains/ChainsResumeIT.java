package org.sparkmc.spark.chains;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sparkmc.spark.cli.KilledDriver.with;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.spark.cli.KilledDriver;
import org.sparkmc.spark.cli.LauncherIT;

/**
 * Checkpoint and resume through the launcher: the driver JVM is killed with kill -9 after a checkpoint, and
 * --resume finishes the run with outputs identical to an uninterrupted run. Corrupt or foreign checkpoints are
 * refused with exit code 2.
 */
class ChainsResumeIT {
    static final String[] RUN = {"chains", "--conf", "conf/chains-eight-schools.conf", "--warmup", "8000",
        "--round-size", "8000", "--max-rounds", "7", "--min-ess", "1e9"};
    static SparkSession reader;

    @TempDir
    Path tmp;

    @BeforeAll
    static void reader() {
        reader = KilledDriver.reader("resume-it-reader");
    }

    @AfterAll
    static void stop() {
        reader.stop();
    }

    static List<Row> draws(Path out) {
        return reader.read().parquet(out.resolve("draws.parquet").toString()).orderBy("chain", "draw")
                .collectAsList();
    }

    static Object parameters(Path out) throws Exception {
        return new ObjectMapper().readTree(out.resolve("summary.json").toFile()).get("parameters");
    }

    @Test
    void killedDriverResumesToIdenticalOutputs() throws Exception {
        Path uninterrupted = tmp.resolve("uninterrupted");
        LauncherIT.Run u = LauncherIT.launch(with(RUN, "--out", uninterrupted.toString()));
        assertEquals(0, u.code(), u.output());

        Path checkpoint = tmp.resolve("checkpoint");
        Path out = tmp.resolve("resumed");
        Path fourth = checkpoint.resolve("state-00004.json");
        KilledDriver.killAfter(fourth, tmp.resolve("killed.log"),
                with(RUN, "--out", out.toString(), "--checkpoint", checkpoint.toString()));
        assertTrue(!Files.exists(out), "a killed run leaves nothing at its output path");

        LauncherIT.Run resumed = LauncherIT.launch(with(RUN, "--out", out.toString(), "--checkpoint",
                checkpoint.toString(), "--resume"));
        assertEquals(0, resumed.code(), resumed.output());
        assertTrue(resumed.output().contains("resumed from"), resumed.output());
        assertEquals(draws(uninterrupted), draws(out));
        assertEquals(parameters(uninterrupted), parameters(out));
    }

    @Test
    void corruptOrForeignCheckpointsAreRefused() throws Exception {
        Path checkpoint = tmp.resolve("checkpoint");
        String[] shortRun = {"chains", "--model", "bimodal", "--scale", "10", "--warmup", "200", "--round-size", "200",
            "--max-rounds", "2", "--min-ess", "1e9", "--checkpoint", checkpoint.toString()};
        LauncherIT.Run first = LauncherIT.launch(with(shortRun, "--out", tmp.resolve("a").toString()));
        assertEquals(0, first.code(), first.output());

        LauncherIT.Run foreign = LauncherIT.launch(with(shortRun, "--out", tmp.resolve("b").toString(), "--resume",
                "--seed", "99"));
        assertEquals(2, foreign.code(), foreign.output());
        assertTrue(foreign.output().contains("other settings (seed: checkpoint ")
                && foreign.output().contains(", now 99)"), foreign.output());

        // A round's draws damaged inside a file whose footer still reads: refused in one line once Spark reads it.
        Path part;
        try (var files = Files.list(checkpoint.resolve("rounds/round-00002.parquet"))) {
            part = files.filter(p -> p.getFileName().toString().startsWith("part-")).findFirst().orElseThrow();
        }
        byte[] original = Files.readAllBytes(part);
        byte[] bytes = original.clone();
        for (int i = bytes.length / 3; i < bytes.length / 3 + 64; i++) {
            bytes[i] ^= 0x5a;
        }
        Files.write(part, bytes);
        Path crc = part.resolveSibling("." + part.getFileName() + ".crc");
        byte[] crcBytes = Files.readAllBytes(crc);
        Files.delete(crc); // as on HDFS or S3, where no .crc file catches it first
        LauncherIT.Run damaged = LauncherIT.launch(with(shortRun, "--out", tmp.resolve("d").toString(), "--resume"));
        assertEquals(2, damaged.code(), damaged.output());
        assertTrue(damaged.output().contains("sparkmc chains: checkpoint draws ")
                && damaged.output().contains("round-00002.parquet cannot be read ("), damaged.output());
        assertFalse(damaged.output().contains("\tat ") || damaged.output().contains("ERROR"), damaged.output());
        assertFalse(Files.exists(tmp.resolve("d")));
        Files.write(part, original);
        Files.write(crc, crcBytes);

        Path state;
        try (var files = Files.list(checkpoint)) {
            state = files.filter(p -> p.getFileName().toString().startsWith("state-")).findFirst().orElseThrow();
        }
        String content = Files.readString(state, StandardCharsets.UTF_8);
        String edited = content.replaceFirst("\"round\":3", "\"round\":2");
        assertTrue(!edited.equals(content), content);
        Files.writeString(state, edited, StandardCharsets.UTF_8);
        // Without the local file system's own .crc file, as on HDFS or S3: the state's SHA-256 must catch it.
        Files.deleteIfExists(state.resolveSibling("." + state.getFileName() + ".crc"));
        LauncherIT.Run corrupt = LauncherIT.launch(with(shortRun, "--out", tmp.resolve("c").toString(), "--resume"));
        assertEquals(2, corrupt.code(), corrupt.output());
        assertTrue(corrupt.output().contains("is corrupt"), corrupt.output());
    }
}
