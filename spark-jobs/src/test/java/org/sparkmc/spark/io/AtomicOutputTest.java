package org.sparkmc.spark.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.core.InvalidInputException;

/**
 * Atomic outputs on the local file system: files staged by executors survive task retries; an unwritable location
 * is bad input found when the output is opened.
 */
class AtomicOutputTest {
    @TempDir
    Path tmp;

    /** A task that wrote part of its file and died leaves it in staging; the retry's write replaces it. */
    @Test
    void aRetriedTaskReplacesThePartialFileOfTheFailedAttempt() throws Exception {
        Configuration conf = new Configuration();
        Path target = tmp.resolve("out");
        AtomicOutput out = AtomicOutput.open(target.toString(), false, conf);
        String staged = out.staged("cmdstan/chain-1.csv");
        AtomicOutput.writeText(staged, "lp__,x\n-1.5,", conf);
        AtomicOutput.writeText(staged, "lp__,x\n-1.5,0.25\n", conf);
        out.commit();
        assertEquals("lp__,x\n-1.5,0.25\n", Files.readString(target.resolve("cmdstan/chain-1.csv")));
        assertEquals(true, Files.exists(target.resolve(AtomicOutput.SUCCESS)));
    }

    /**
     * Opening creates the staging directory and the target's missing parents (that is how it checks them) and
     * removes them again, so a run that fails after opening leaves nothing; the commit creates them.
     */
    @Test
    void openChecksTheLocationAndLeavesNothingBehind() throws Exception {
        Path target = tmp.resolve("a/b/out");
        AtomicOutput out = AtomicOutput.open(target.toString(), false, new Configuration());
        assertFalse(Files.exists(tmp.resolve("a")), "no parent or staging directory left by open");
        out.writeText("x.txt", "x");
        out.commit();
        assertEquals("x", Files.readString(target.resolve("x.txt")));
        try (Stream<Path> left = Files.list(tmp.resolve("a/b"))) {
            assertEquals(List.of(target), left.toList());
        }
    }

    /** A regular file where a parent directory should be: bad input naming it, found at open. */
    @Test
    void aFileInTheWayIsBadInputAtOpen() throws Exception {
        Path file = Files.writeString(tmp.resolve("plain"), "x");
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> AtomicOutput.open(file.resolve("sub/out").toString(), false, new Configuration()));
        assertTrue(e.getMessage().contains("cannot write output '" + file.resolve("sub/out") + "'")
                && e.getMessage().contains(file + " is a file, not a directory"), e.getMessage());
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(List.of(file), left.toList());
        }
    }

    /** A read-only file system (Linux's /proc refuses new directories even to root). */
    @Test
    void aReadOnlyPlaceIsBadInputAtOpen() {
        assertTrue(Files.isDirectory(Path.of("/proc/self")), "this test needs Linux's /proc; the builds run on Linux");
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> AtomicOutput.open("/proc/sparkmc-out", false, new Configuration()));
        assertTrue(e.getMessage().contains("cannot write output '/proc/sparkmc-out'")
                && e.getMessage().contains("in file:/proc (permission denied or read-only file system)"),
                e.getMessage());
        e = assertThrows(InvalidInputException.class,
                () -> AtomicOutput.open("/proc/no-such/out", false, new Configuration()));
        assertTrue(e.getMessage().contains("in file:/proc/no-such (permission denied or read-only file system at "
                + "file:/proc)"), e.getMessage());
    }

    /**
     * Another run commits the same output between the existence check and the rename: Hadoop's rename would move
     * this run's output inside the other's and report success (the old code then wrote _SUCCESS into the other's
     * output and exited 0). The commit now fails, leaves the other output as it was, and close() removes its own.
     */
    @Test
    void anOutputThatAppearsJustBeforeTheRenameIsLeftAloneAndTheCommitFails() throws Exception {
        Path target = tmp.resolve("out");
        AtomicOutput out = AtomicOutput.open(FaultyFileSystem.uri(target), false, new Configuration());
        out.writeText("summary.json", "{}");
        FaultyFileSystem.beforeRename((from, to) -> {
            try {
                Files.createDirectories(target);
                Files.writeString(target.resolve("theirs.txt"), "the other run's");
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        try {
            InvalidInputException e = assertThrows(InvalidInputException.class, out::commit);
            assertTrue(e.getMessage().contains("appeared while the job ran; nothing was written there"),
                    e.getMessage());
        } finally {
            FaultyFileSystem.reset();
        }
        out.close();
        try (Stream<Path> inTarget = Files.list(target); Stream<Path> left = Files.list(tmp)) {
            assertEquals(List.of("theirs.txt"), inTarget.map(p -> p.getFileName().toString()).toList());
            assertEquals(List.of(target), left.toList(), "no staging left");
        }
    }

    /** Closing without a commit, whatever the failure was, removes the staging directory. */
    @Test
    void closeWithoutCommitRemovesTheStaging() throws Exception {
        Path target = tmp.resolve("out");
        try (AtomicOutput out = AtomicOutput.open(target.toString(), false, new Configuration())) {
            out.writeText("draws.csv", "x\n1\n");
        }
        try (Stream<Path> left = Files.list(tmp)) {
            assertEquals(List.of(), left.toList());
        }
    }

    /**
     * A run that ends without a commit (a failure, or SIGTERM: the shutdown hook) removes the parents of --out it
     * created, once empty, and only those: the old code removed the staging alone and left nn1/nn2/. A parent the
     * user has put a file into meanwhile stays.
     */
    @Test
    void anUncommittedRunRemovesTheParentsItCreated() throws Exception {
        Files.createDirectories(tmp.resolve("nn0"));
        try (AtomicOutput out = AtomicOutput.open(tmp.resolve("nn0/nn1/nn2/o").toString(), false,
                new Configuration())) {
            out.writeText("draws.csv", "x\n1\n");
            assertTrue(Files.isDirectory(tmp.resolve("nn0/nn1/nn2")));
        }
        try (Stream<Path> left = Files.list(tmp.resolve("nn0"))) {
            assertEquals(List.of(), left.toList(), "nn0 was there before the run: it stays, empty");
        }

        AtomicOutput killed = AtomicOutput.open(tmp.resolve("k1/k2/o").toString(), false, new Configuration());
        killed.writeText("draws.csv", "x\n1\n");
        java.lang.reflect.Method hook = AtomicOutput.class.getDeclaredMethod("cleanUpAfterShutdown");
        hook.setAccessible(true);
        hook.invoke(killed); // what the JVM's shutdown hook runs on SIGTERM
        assertFalse(Files.exists(tmp.resolve("k1")));

        try (AtomicOutput out = AtomicOutput.open(tmp.resolve("u1/u2/o").toString(), false, new Configuration())) {
            out.writeText("draws.csv", "x\n1\n");
            Files.writeString(tmp.resolve("u1/mine.txt"), "mine");
        }
        try (Stream<Path> left = Files.list(tmp.resolve("u1"))) {
            assertEquals(List.of(tmp.resolve("u1/mine.txt")), left.toList());
        }
    }
}
