package org.sparkmc.spark.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.cli.BadInputTest;
import org.sparkmc.spark.cli.ExitCode;

/**
 * The checkpoint lease on real files: a second run is refused while the first holds the directory, whether that
 * run is in this process, another live process on this host, or a driver on another host that renews it; a lease
 * left by a dead process on this host is taken over at once, one from another host once it lapses; the holder
 * renews its lease and deletes it at the end. Then
 * the chains job: refused before Spark with exit 2 and nothing written while another run holds its checkpoint,
 * and no lease left behind after a run. Every check is exact.
 */
class CheckpointLeaseTest extends SparkTestBase {
    private static final Configuration CONF = new Configuration();

    @TempDir
    Path tmp;

    @Test
    void aHeldDirectoryIsRefusedAndFreedWhenTheHolderCloses() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("ckpt"));
        Path file = dir.resolve(CheckpointLease.NAME);
        try (CheckpointLease first = CheckpointLease.take(dir.toString(), CONF)) {
            assertTrue(Files.exists(file));
            InvalidInputException e = assertThrows(InvalidInputException.class,
                    () -> CheckpointLease.take(dir.toString(), CONF));
            assertTrue(e.getMessage().startsWith("--checkpoint '" + dir + "' is in use by another run (process "
                    + ProcessHandle.current().pid() + " on "), e.getMessage());
        }
        assertFalse(Files.exists(file));
        CheckpointLease.take(dir.toString(), CONF).close();
        assertFalse(Files.exists(file));
    }

    @Test
    void anotherLiveProcessOnThisHostHoldsItAndADeadOneDoesNot() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("ckpt"));
        Process sleeper = new ProcessBuilder("sleep", "60").start();
        try {
            writeLease(dir, CheckpointLease.Holder.current().host() + " " + sleeper.pid() + " "
                    + sleeper.info().startInstant().orElseThrow().toEpochMilli());
            assertThrows(InvalidInputException.class, () -> CheckpointLease.take(dir.toString(), CONF));
        } finally {
            sleeper.destroyForcibly().waitFor();
        }
        CheckpointLease taken = CheckpointLease.take(dir.toString(), CONF);
        assertEquals(CheckpointLease.Holder.current().line(), read(dir));
        taken.close();
    }

    @Test
    void aLeaseFromAnotherHostIsRefusedOnceRenewedAndTakenOverOnceLapsed() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("ckpt"));
        Path file = dir.resolve(CheckpointLease.NAME);
        writeLease(dir, "elsewhere.example 4242 0");
        Thread renewing = new Thread(() -> { // the other host's driver, alive: it renews within the watch
            try {
                Thread.sleep(500);
                Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis()));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        renewing.start();
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> CheckpointLease.take(dir.toString(), CONF, 1, 30));
        renewing.join();
        assertTrue(e.getMessage().contains("is in use by another run (process 4242 on elsewhere.example, lease "
                + "renewed 0 s ago)"), e.getMessage());

        long start = System.nanoTime(); // not renewed: taken over once it lapses, 2 s after its last renewal
        CheckpointLease.take(dir.toString(), CONF, 1, 2).close();
        assertTrue(System.nanoTime() - start > 1_000_000_000L, "taken before it lapsed");
        writeLease(dir, "elsewhere.example 4242 0");
        Files.setLastModifiedTime(file, FileTime.fromMillis(System.currentTimeMillis()
                - (CheckpointLease.STALE_SECONDS + 5) * 1000L)); // lapsed already: taken at once
        start = System.nanoTime();
        CheckpointLease.take(dir.toString(), CONF).close();
        assertTrue(System.nanoTime() - start < 1_000_000_000L, "a lapsed lease was waited for");
    }

    @Test
    void theHolderRenewsItsLease() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("ckpt"));
        Path file = dir.resolve(CheckpointLease.NAME);
        try (CheckpointLease lease = CheckpointLease.take(dir.toString(), CONF, 1, 30)) {
            long old = System.currentTimeMillis() - 60_000;
            Files.setLastModifiedTime(file, FileTime.fromMillis(old));
            long deadline = System.currentTimeMillis() + 10_000;
            while (Files.getLastModifiedTime(file).toMillis() == old && System.currentTimeMillis() < deadline) {
                Thread.sleep(50);
            }
            assertTrue(Files.getLastModifiedTime(file).toMillis() > old + 50_000, "the lease was not renewed");
        }
    }

    @Test
    void aJobIsRefusedBeforeSparkWhileAnotherRunHoldsItsCheckpointAndLeavesNoLease() throws Exception {
        Path checkpoint = tmp.resolve("ckpt");
        String[] run = {"chains", "--model", "bimodal", "--chains", "2", "--warmup", "100", "--round-size", "100",
            "--max-rounds", "1", "--min-ess", "1e9", "--checkpoint", checkpoint.toString(), "--out", ""};
        run[run.length - 1] = tmp.resolve("first").toString();
        BadInputTest.Result first = BadInputTest.runCapturing(run);
        assertEquals(ExitCode.OK, first.code(), first.err());
        assertFalse(Files.exists(checkpoint.resolve(CheckpointLease.NAME)), "a finished run left its lease");

        Path out = tmp.resolve("second");
        run[run.length - 1] = out.toString();
        try (CheckpointLease held = CheckpointLease.take(checkpoint.toString(), CONF)) {
            BadInputTest.Result second = BadInputTest.runCapturing(run);
            assertEquals(ExitCode.BAD_INPUT, second.code(), second.err());
            assertTrue(second.err().contains("is in use by another run"), second.err());
            assertFalse(Files.exists(out), "a refused run wrote its output");
            assertEquals(CheckpointLease.Holder.current().line(), read(checkpoint), "the holder's lease was touched");
        }
    }

    private static void writeLease(Path dir, String line) throws Exception {
        Files.writeString(dir.resolve(CheckpointLease.NAME), line, StandardCharsets.UTF_8);
    }

    private static String read(Path dir) throws Exception {
        return Files.readString(dir.resolve(CheckpointLease.NAME), StandardCharsets.UTF_8);
    }
}
