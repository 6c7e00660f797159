package org.sparkmc.spark.smc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sparkmc.spark.cli.KilledDriver.with;

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
 * smc checkpoint and resume through the launcher: the driver JVM is killed with kill -9 after a checkpoint, and
 * --resume finishes the run with outputs identical to an uninterrupted run (every number in filter.parquet,
 * filter.csv and summary.json but the timing). Corrupt or foreign checkpoints are refused with exit code 2.
 */
class SmcResumeIT {
    /**
     * Nile with the config's 100,000 particles: 100 steps of about a tenth of a second each (seconds under load), so
     * the kill after the third checkpoint lands with some 70 steps to go.
     */
    static final String[] RUN = {"smc", "--conf", "conf/smc-nile.conf", "--checkpoint-every", "10"};
    static SparkSession reader;

    @TempDir
    Path tmp;

    @BeforeAll
    static void reader() {
        reader = KilledDriver.reader("smc-resume-it-reader");
    }

    @AfterAll
    static void stop() {
        reader.stop();
    }

    static List<Row> filter(Path out) {
        return reader.read().parquet(out.resolve("filter.parquet").toString()).orderBy("step").collectAsList();
    }

    /** summary.json without its timing. */
    static String summary(Path out) throws Exception {
        return Files.readString(out.resolve("summary.json")).replaceAll("\"seconds\" *: *[0-9.eE+-]+", "");
    }

    @Test
    void killedDriverResumesToIdenticalOutputs() throws Exception {
        Path uninterrupted = tmp.resolve("uninterrupted");
        LauncherIT.Run u = LauncherIT.launch(with(RUN, "--out", uninterrupted.toString()));
        assertEquals(0, u.code(), u.output());

        Path checkpoint = tmp.resolve("checkpoint");
        Path out = tmp.resolve("resumed");
        Path third = checkpoint.resolve("state-00030.json");
        KilledDriver.killAfter(third, tmp.resolve("killed.log"),
                with(RUN, "--out", out.toString(), "--checkpoint", checkpoint.toString()));
        assertTrue(!Files.exists(out), "a killed run leaves nothing at its output path");
        assertTrue(!Files.readString(tmp.resolve("killed.log")).contains("step 100/100"), "killed after the end");

        LauncherIT.Run resumed = LauncherIT.launch(with(RUN, "--out", out.toString(), "--checkpoint",
                checkpoint.toString(), "--resume"));
        assertEquals(0, resumed.code(), resumed.output());
        assertTrue(resumed.output().contains("resumed from"), resumed.output());
        assertTrue(!resumed.output().contains("step 10/100"), "the resumed run redid early steps: "
                + resumed.output());
        assertEquals(filter(uninterrupted), filter(out));
        assertEquals(Files.readString(uninterrupted.resolve("filter.csv")),
                Files.readString(out.resolve("filter.csv")));
        assertEquals(summary(uninterrupted), summary(out));
    }

    @Test
    void corruptOrForeignCheckpointsAreRefused() throws Exception {
        Path checkpoint = tmp.resolve("checkpoint");
        String[] shortRun = {"smc", "--conf", "conf/smc-nile.conf", "--particles", "2000", "--block-size", "512",
            "--checkpoint-every", "50", "--checkpoint", checkpoint.toString()};
        LauncherIT.Run first = LauncherIT.launch(with(shortRun, "--out", tmp.resolve("a").toString()));
        assertEquals(0, first.code(), first.output());

        LauncherIT.Run foreign = LauncherIT.launch(with(shortRun, "--out", tmp.resolve("b").toString(), "--resume",
                "--seed", "99"));
        assertEquals(2, foreign.code(), foreign.output());
        assertTrue(foreign.output().contains("other settings (seed: checkpoint ")
                && foreign.output().contains(", now 99)"), foreign.output());
        assertTrue(!Files.exists(tmp.resolve("b")));

        Path state = checkpoint.resolve("state-00100.json");
        String content = Files.readString(state, StandardCharsets.UTF_8);
        String edited = content.replaceFirst("\"resamplings\":(\\d)", "\"resamplings\":1$1");
        assertNotEquals(content, edited);
        Files.writeString(state, edited, StandardCharsets.UTF_8);
        // Without the local file system's own .crc file, as on HDFS or S3: the state's SHA-256 must catch it.
        Files.deleteIfExists(state.resolveSibling("." + state.getFileName() + ".crc"));
        LauncherIT.Run corrupt = LauncherIT.launch(with(shortRun, "--out", tmp.resolve("c").toString(), "--resume"));
        assertEquals(2, corrupt.code(), corrupt.output());
        assertTrue(corrupt.output().contains("is corrupt"), corrupt.output());
        assertTrue(!corrupt.output().contains("\tat "), corrupt.output());
        assertTrue(!Files.exists(tmp.resolve("c")));
    }
}
