package org.sparkmc.spark.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.cli.BadInputTest;
import org.sparkmc.spark.cli.ExitCode;

/**
 * The checkpoint lease on real files: a second run is refused while the first holds the directory, whether that
 * run is in this process or another live process on this machine; a lease left by a dead process on this machine is
 * taken over at once; one from another host is refused once it is written anew while watched, and taken over once it
 * has stayed unchanged; the holder renews its lease, deletes it at the end, and when another run has taken it over
 * (seen by a renewal, or by a late renewal made before a write) stops before its next write and leaves the other's
 * lease alone. Then the chains job: refused before Spark with
 * exit 1 in one line and nothing written while another run holds its checkpoint, and no lease left behind after a run.
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
            assertFalse(Files.exists(dir.resolve("." + CheckpointLease.NAME + ".crc")), "a checksum file");
            CheckpointLease.Conflict e = assertThrows(CheckpointLease.Conflict.class,
                    () -> CheckpointLease.take(dir.toString(), CONF));
            assertTrue(e.getMessage().startsWith("--checkpoint '" + dir + "' is in use by another run (process "
                    + ProcessHandle.current().pid() + " on "), e.getMessage());
            assertTrue(e.getMessage().contains(" (this machine), started "), e.getMessage());
            assertTrue(e.getMessage().endsWith("is running; its lease is file:" + file + "); wait for that run to "
                    + "end, or stop it"), e.getMessage());
        }
        assertFalse(Files.exists(file));
        CheckpointLease.take(dir.toString(), CONF).close();
        assertFalse(Files.exists(file));
    }

    @Test
    void anotherLiveProcessOnThisMachineHoldsItAndADeadOneDoesNot() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("ckpt"));
        LeaseHolder self = LeaseHolder.current();
        Process sleeper = new ProcessBuilder("sleep", "60").start();
        try {
            writeLease(dir, new LeaseHolder(self.host(), self.boot(), self.pidSpace(), sleeper.pid(),
                    sleeper.info().startInstant().orElseThrow().toEpochMilli(), self.user()).line(3));
            assertThrows(CheckpointLease.Conflict.class, () -> CheckpointLease.take(dir.toString(), CONF));
        } finally {
            sleeper.destroyForcibly().waitFor();
        }
        long start = System.nanoTime(); // ended: taken over at once, not watched
        CheckpointLease taken = CheckpointLease.take(dir.toString(), CONF);
        assertTrue(System.nanoTime() - start < 5_000_000_000L, "a dead holder's lease was watched");
        assertEquals(self.line(0), read(dir));
        taken.close();
    }

    @Test
    void aLeaseFromAnotherHostIsRefusedOnceRenewedAndTakenOverOnceUnchanged() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("ckpt"));
        writeLease(dir, "elsewhere.example - - 4242 0 7 1000\n");
        java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
        Thread renewing = new Thread(() -> { // the other host's driver, alive: it writes its lease anew, often
            try {
                for (int n = 8; !done.get(); n++) {
                    Thread.sleep(300);
                    writeLease(dir, "elsewhere.example - - 4242 0 " + n + " 1000\n");
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        renewing.start();
        CheckpointLease.Conflict e;
        try {
            e = assertThrows(CheckpointLease.Conflict.class, () -> CheckpointLease.take(dir.toString(), CONF, 1, 30));
        } finally {
            done.set(true);
            renewing.join();
        }
        assertTrue(e.getMessage().contains("is in use by another run (process 4242 on elsewhere.example renewed it "
                + "while this run watched;"), e.getMessage());

        long start = System.nanoTime(); // unchanged: taken over after 2 s of watching
        CheckpointLease.take(dir.toString(), CONF, 1, 2).close();
        assertTrue(System.nanoTime() - start > 2_000_000_000L, "taken before it had been watched for 2 s");
        try (var left = Files.list(dir)) {
            assertEquals(List.of(), left.map(f -> f.getFileName().toString()).toList(),
                    "the lease taken over, or ours, was left behind");
        }
    }

    @Test
    void theHolderRenewsItsLeaseAndALeaseTakenOverStopsItsWrites() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("ckpt"));
        CheckpointStates states = new CheckpointStates(dir.toString(), CONF);
        String other = "elsewhere.example - - 4242 0 0 1000\n";
        try (CheckpointLease lease = CheckpointLease.take(dir.toString(), CONF, 1, 30)) {
            LeaseHolder self = LeaseHolder.current();
            long deadline = System.currentTimeMillis() + 10_000;
            while (!renewedBy(self, read(dir)) && System.currentTimeMillis() < deadline) {
                Thread.sleep(50);
            }
            assertTrue(renewedBy(self, read(dir)), "the lease was not renewed: " + read(dir));
            states.save(1, Map.of("fingerprint", "f"));

            // Another run takes it over while this one stalls (written again until a renewal has seen it: a renewal
            // that read the lease just before may write it once more).
            deadline = System.currentTimeMillis() + 10_000;
            CheckpointLease.Conflict lost = null;
            while (lost == null && System.currentTimeMillis() < deadline) {
                writeLease(dir, other);
                Thread.sleep(200);
                try {
                    states.writeFile("x.bin", new byte[] {1});
                } catch (CheckpointLease.Conflict e) {
                    lost = e;
                }
            }
            assertTrue(lost != null && lost.getMessage().contains("another run (process 4242 on elsewhere.example) "
                    + "took over its lease"), String.valueOf(lost));
            writeLease(dir, other);
            CheckpointLease.Conflict save = assertThrows(CheckpointLease.Conflict.class,
                    () -> states.save(2, Map.of("fingerprint", "f")));
            assertTrue(save.getMessage().endsWith("this run stops before it writes there again, so that two runs do "
                    + "not write one checkpoint"), save.getMessage());
        }
        assertEquals(other, read(dir), "the other run's lease was deleted or overwritten at close");
    }

    @Test
    void aLateRenewalIsMadeBeforeAWrite() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("ckpt"));
        CheckpointStates states = new CheckpointStates(dir.toString(), CONF);
        try (CheckpointLease lease = CheckpointLease.take(dir.toString(), CONF, 3600, 30)) { // renews once an hour
            writeLease(dir, "elsewhere.example - - 4242 0 0 1000\n"); // taken over, not yet seen by a renewal
            states.save(1, Map.of("fingerprint", "f")); // the last look is recent: not checked again
            CheckpointLease.forceLate(lease);
            assertThrows(CheckpointLease.Conflict.class, () -> states.save(2, Map.of("fingerprint", "f")));
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
        String[] retry = java.util.Arrays.copyOf(run, run.length + 1); // a scheduler's retry resumes (the DAG does)
        retry[run.length] = "--resume";
        try (CheckpointLease held = CheckpointLease.take(checkpoint.toString(), CONF)) {
            BadInputTest.Result second = BadInputTest.runCapturing(retry);
            assertEquals(ExitCode.FAILURE, second.code(), second.err()); // a clash of the moment: retried
            assertTrue(second.err().startsWith("sparkmc chains: --checkpoint '" + checkpoint + "' is in use by another "
                    + "run ("), second.err());
            assertFalse(second.err().contains("\tat "), second.err());
            assertFalse(Files.exists(out), "a refused run wrote its output");
            assertEquals(LeaseHolder.current().line(0), read(checkpoint), "the holder's lease was touched");
        }
    }

    /** Whether {@code lease} is {@code self}'s, renewed at least once. */
    private static boolean renewedBy(LeaseHolder self, String lease) {
        return lease.endsWith("\n") && LeaseHolder.parse(lease).sameHolder(self)
                && !lease.equals(self.line(0));
    }

    /** Writes a lease as another run would, whole (a reader never sees it half-written). */
    private static void writeLease(Path dir, String line) throws Exception {
        Path tmpLease = Files.writeString(dir.resolve(".lease.tmp"), line, StandardCharsets.UTF_8);
        Files.move(tmpLease, dir.resolve(CheckpointLease.NAME), java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    private static String read(Path dir) throws Exception {
        return Files.readString(dir.resolve(CheckpointLease.NAME), StandardCharsets.UTF_8);
    }
}
