package org.sparkmc.spark.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.spark.cli.BadInputTest;
import org.sparkmc.spark.cli.ExitCode;

/**
 * The file system failing while an input directory is looked up or listed (a lost connection) is the storage's
 * trouble: exit 1 in one line, for a scheduler to retry, and nothing written. A directory that may not be listed is
 * the input's: exit 2 in one line. Through the command line, on the {@code faulty:} file system.
 */
class InputStorageFailureTest {
    @TempDir
    Path tmp;

    @AfterEach
    void healthyAgain() {
        FaultyFileSystem.reset();
    }

    @Test
    void smcObservationDirectory() throws IOException {
        Path obs = Files.createDirectory(tmp.resolve("obs"));
        Files.writeString(obs.resolve("part-0.csv"), "flow\n1120\n1160\n963\n");
        assertFaults("obs", "look it up", smc(obs));
    }

    @Test
    void diagnoseDrawsDirectory() throws IOException {
        Path draws = Files.createDirectory(tmp.resolve("draws"));
        Files.writeString(draws.resolve("a.csv"), "chain,draw,a\n1,1,0.5\n2,1,0.4\n");
        assertFaults("draws", "look it up", diagnose(draws));
    }

    /**
     * The three faults on the directory {@code name} in turn: its lookup fails ({@code lookup} says what the message
     * says failed), its listing fails, its listing is refused.
     */
    private void assertFaults(String name, String lookup, String[] args) {
        FaultyFileSystem.failLookups(name::equals);
        assertFails(ExitCode.FAILURE, name + ": the file system failed to " + lookup + ": Connection reset", args);
        FaultyFileSystem.reset();
        FaultyFileSystem.failListings(name::equals);
        assertFails(ExitCode.FAILURE, name + ": the file system failed to list it: Connection reset", args);
        FaultyFileSystem.reset();
        FaultyFileSystem.refuseListings(name::equals);
        assertFails(ExitCode.BAD_INPUT, "Permission denied (FaultyFileSystem)", args);
    }

    private String[] smc(Path obs) {
        return new String[] {"smc", "--model", "nile", "--data", FaultyFileSystem.uri(obs), "--particles", "100",
            "--out", tmp.resolve("out").toString()};
    }

    private String[] diagnose(Path draws) {
        return new String[] {"diagnose", FaultyFileSystem.uri(draws), "--out", tmp.resolve("out").toString()};
    }

    private void assertFails(int code, String expected, String[] args) {
        BadInputTest.Result r = BadInputTest.runCapturing(args);
        assertEquals(code, r.code(), r.err());
        assertTrue(r.err().contains(expected), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertFalse(Files.exists(tmp.resolve("out")), "nothing written");
    }
}
