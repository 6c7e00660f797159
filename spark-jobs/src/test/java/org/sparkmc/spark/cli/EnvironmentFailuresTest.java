package org.sparkmc.spark.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

/** The one-line message for a full disk names the path being written, never a stack frame. */
class EnvironmentFailuresTest {
    @Test
    void aFullDiskNamesThePathNotAStackFrame() {
        Exception spark = new RuntimeException("Job aborted: Lost task 0.0: java.lang.Error\n\tat java.base/jdk.internal"
                + ".reflect.NativeConstructorAccessorImpl.newInstance0(Native Method)\n[TASK_WRITE_FAILED] Task failed "
                + "while writing rows to faulty:/tmp/x/.o.sparkmc-tmp-1/draws.parquet. SQLSTATE: 58030",
                new IOException("No space left on device"));
        String m = EnvironmentFailures.describe(spark, "--out '/o'");
        assertTrue(m.startsWith("no space left on device while writing faulty:/tmp/x/.o.sparkmc-tmp-1/draws.parquet; "),
                m);
        assertEquals("no space left on device while writing /out/summary.json; nothing was written there and an "
                + "output it was to replace is intact (free space there, or choose another --out, --checkpoint or "
                + "spark.local.dir)",
                EnvironmentFailures.describe(new UncheckedIOException("cannot write /out/summary.json",
                        new IOException("No space left on device")), null));
        assertNull(EnvironmentFailures.describe(new IllegalStateException("a bug"), "--out '/o'"));
    }

    /**
     * A task out of memory on an executor fails the job with Spark's message quoting the error: one line saying so
     * (it was the job's exception and its whole trace, exit 1), as for an OutOfMemoryError in this JVM.
     */
    @Test
    void aTaskOutOfMemoryIsOneLine() {
        Exception spark = new RuntimeException("Job aborted due to stage failure: Task 0 in stage 3.0 failed 4 times, "
                + "most recent failure: Lost task 0.3 (TID 7) (10.0.0.2 executor 1): java.lang.OutOfMemoryError: Java "
                + "heap space\n\tat org.sparkmc.core.mcmc.ChainRound.run(ChainRound.java:102)\n");
        assertEquals("Java heap space", EnvironmentFailures.outOfMemory(spark));
        assertTrue(EnvironmentFailures.describe(spark, "--out '/o'").startsWith("a task ran out of memory (Java heap "
                + "space); nothing was written. Give it more memory"), EnvironmentFailures.describe(spark, null));
        Exception wrapped = new IllegalStateException("round 1", new OutOfMemoryError("Requested array size exceeds "
                + "VM limit"));
        assertEquals("Requested array size exceeds VM limit", EnvironmentFailures.outOfMemory(wrapped));
        assertNull(EnvironmentFailures.outOfMemory(new IllegalStateException("a bug")));
    }

    /** Parquet's writer failing as it creates its file: no message names a path, so the run's options do. */
    @Test
    void aFullDiskNamedByNoMessageNamesTheRunsOutput() {
        Error creating = new Error(new IOException("No space left on device"));
        assertTrue(EnvironmentFailures.describe(creating, "--out '/o' or --checkpoint '/c'")
                .startsWith("no space left on device while writing under --out '/o' or --checkpoint '/c'; "));
        assertTrue(EnvironmentFailures.describe(creating, null)
                .startsWith("no space left on device while writing the output or checkpoint; "));
    }
}
