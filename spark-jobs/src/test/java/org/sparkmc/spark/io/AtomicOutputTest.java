package org.sparkmc.spark.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Atomic outputs on the local file system: files staged by executors survive task retries. */
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
}
