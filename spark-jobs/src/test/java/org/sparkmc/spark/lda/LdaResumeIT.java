package org.sparkmc.spark.lda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sparkmc.spark.cli.KilledDriver.with;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.spark.cli.KilledDriver;
import org.sparkmc.spark.cli.LauncherIT;

/**
 * Checkpoint and resume of the lda job through the launcher: the driver JVM is killed with kill -9 after a
 * checkpoint, and --resume finishes the run with outputs identical to an uninterrupted run. A checkpoint whose topics
 * file was damaged is refused with exit code 2.
 */
class LdaResumeIT {
    static final String[] RUN = {"lda", "--conf", "conf/lda-kos.conf", "--topics", "20", "--sweeps", "40",
        "--eval-burn-in", "5", "--eval-samples", "5", "--checkpoint-every", "5"};
    static SparkSession reader;

    @TempDir
    Path tmp;

    @BeforeAll
    static void reader() {
        reader = KilledDriver.reader("lda-resume-it-reader");
    }

    @AfterAll
    static void stop() {
        reader.stop();
    }

    @Test
    void killedDriverResumesToIdenticalOutputs() throws Exception {
        Path uninterrupted = tmp.resolve("uninterrupted");
        LauncherIT.Run u = LauncherIT.launch(with(RUN, "--out", uninterrupted.toString()));
        assertEquals(0, u.code(), u.output());

        Path checkpoint = tmp.resolve("checkpoint");
        Path out = tmp.resolve("resumed");
        Path tenth = checkpoint.resolve("state-00010.json");
        KilledDriver.killAfter(tenth, tmp.resolve("killed.log"),
                with(RUN, "--out", out.toString(), "--checkpoint", checkpoint.toString()));
        assertTrue(!Files.exists(out), "a killed run leaves nothing at its output path");
        List<Path> killedRuns;
        try (var cuts = Files.list(checkpoint.resolve("rdd"))) {
            killedRuns = cuts.toList();
        }
        assertEquals(1, killedRuns.size(), "the killed run's directory of lineage cuts: " + killedRuns);

        LauncherIT.Run resumed = LauncherIT.launch(with(RUN, "--out", out.toString(), "--checkpoint",
                checkpoint.toString(), "--resume"));
        assertEquals(0, resumed.code(), resumed.output());
        assertTrue(resumed.output().contains("resumed from"), resumed.output());
        assertEquals(LdaRuns.read(uninterrupted.resolve("topics.csv")), LdaRuns.read(out.resolve("topics.csv")));
        assertEquals(LdaRuns.loglikWithoutTimes(uninterrupted), LdaRuns.loglikWithoutTimes(out));
        assertEquals(LdaRuns.docTopics(reader, uninterrupted), LdaRuns.docTopics(reader, out));
        assertEquals(LdaRuns.summaryWithoutTimes(uninterrupted), LdaRuns.summaryWithoutTimes(out));
        assertFalse(Files.exists(killedRuns.get(0)), "the killed run's lineage cuts are deleted by the resumed run");
    }

    @Test
    void damagedTopicsAreRefused() throws Exception {
        Path checkpoint = tmp.resolve("checkpoint");
        String[] shortRun = with(withoutSweeps(RUN), "--sweeps", "2", "--checkpoint", checkpoint.toString());
        LauncherIT.Run first = LauncherIT.launch(with(shortRun, "--out", tmp.resolve("a").toString()));
        assertEquals(0, first.code(), first.output());
        Path part;
        try (Stream<Path> files = Files.walk(checkpoint.resolve("topics-00002.parquet"))) {
            part = files.filter(p -> Files.isRegularFile(p) && p.getFileName().toString().startsWith("part-"))
                    .findFirst().orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(part);
        for (int i = bytes.length / 3; i < bytes.length / 3 + 64; i++) {
            bytes[i] ^= 0x5a;
        }
        Files.write(part, bytes);
        // Without the local file system's own .crc file, as on HDFS or S3: the state's SHA-256 sums must catch it.
        Files.deleteIfExists(part.resolveSibling("." + part.getFileName() + ".crc"));
        LauncherIT.Run damaged = LauncherIT.launch(with(shortRun, "--out", tmp.resolve("b").toString(), "--resume"));
        assertEquals(2, damaged.code(), damaged.output());
        assertTrue(damaged.output().contains("topics-00002.parquet cannot be read (")
                || damaged.output().contains("topics-00002.parquet is corrupt"), damaged.output());
        assertFalse(damaged.output().contains("\tat ") || damaged.output().contains("ERROR"), damaged.output());
        assertTrue(Files.notExists(tmp.resolve("b")));
    }

    /** The arguments without their --sweeps option. */
    private static String[] withoutSweeps(String[] args) {
        List<String> list = new ArrayList<>(List.of(args));
        int i = list.indexOf("--sweeps");
        list.remove(i);
        list.remove(i);
        return list.toArray(String[]::new);
    }
}
