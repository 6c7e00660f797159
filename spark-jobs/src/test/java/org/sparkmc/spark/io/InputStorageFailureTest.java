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
        assertFaults("obs", new String[] {"smc", "--model", "nile", "--data", FaultyFileSystem.uri(obs),
            "--particles", "100", "--out", tmp.resolve("out").toString()});
    }

    @Test
    void diagnoseDrawsDirectory() throws IOException {
        Path draws = Files.createDirectory(tmp.resolve("draws"));
        Files.writeString(draws.resolve("a.csv"), "chain,draw,a\n1,1,0.5\n2,1,0.4\n");
        assertFaults("draws", new String[] {"diagnose", FaultyFileSystem.uri(draws), "--out",
            tmp.resolve("out").toString()});
    }

    @Test
    void consensusTableDirectory() throws IOException {
        Path table = Files.createDirectory(tmp.resolve("table.csv"));
        Files.writeString(table.resolve("part-0.csv"), "y,x1\n1,0.5\n0,0.1\n");
        assertFaults("table.csv", new String[] {"consensus", "--data", FaultyFileSystem.uri(table), "--out",
            tmp.resolve("out").toString(), "--warmup", "10", "--iterations", "10", "--shards", "1"});
    }

    /** Before, the lda job called a failed listing bad input ("cannot read docword", exit 2). */
    @Test
    void ldaDocwordDirectory() throws IOException {
        Path docword = Files.createDirectory(tmp.resolve("docword"));
        Files.writeString(docword.resolve("header"), "3\n3\n1\n");
        Files.writeString(docword.resolve("part-00000"), "1 1 2\n");
        Path vocab = Files.writeString(tmp.resolve("vocab.txt"), "a\nb\nc\n");
        assertFaults("docword", new String[] {"lda", "--docword", FaultyFileSystem.uri(docword), "--vocab",
            vocab.toString(), "--topics", "2", "--sweeps", "2", "--out", tmp.resolve("out").toString()});
    }

    /** The three faults on the directory {@code name} in turn: its lookup fails, its listing fails, it is refused. */
    private void assertFaults(String name, String[] args) {
        FaultyFileSystem.failLookups(name::equals);
        assertFails(ExitCode.FAILURE, name + ": the file system failed to look it up: Connection reset", args);
        FaultyFileSystem.reset();
        FaultyFileSystem.failListings(name::equals);
        assertFails(ExitCode.FAILURE, name + ": the file system failed to list it: Connection reset", args);
        FaultyFileSystem.reset();
        FaultyFileSystem.refuseListings(name::equals);
        assertFails(ExitCode.BAD_INPUT, "Permission denied (FaultyFileSystem)", args);
    }


    private void assertFails(int code, String expected, String[] args) {
        BadInputTest.Result r = BadInputTest.runCapturing(args);
        assertEquals(code, r.code(), r.err());
        assertTrue(r.err().contains(expected), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertFalse(Files.exists(tmp.resolve("out")), "nothing written");
    }
}
