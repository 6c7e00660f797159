package org.sparkmc.spark.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Why the JVM is shutting down, as the one line a stopped run prints says it, told from its threads' stacks. */
class ShutdownNoticeTest {
    private static StackTraceElement frame(String className, String method) {
        return new StackTraceElement(className, method, null, -1);
    }

    @Test
    void aThreadInSparksFatalErrorHandlerMeansATaskRanOutOfMemory() {
        StackTraceElement[] task = {frame("java.lang.Shutdown", "exit"), frame("java.lang.Runtime", "exit"),
            frame("org.apache.spark.util.SparkUncaughtExceptionHandler", "uncaughtException"),
            frame("org.apache.spark.executor.Executor$TaskRunner", "run")};
        StackTraceElement[] main = {frame("org.sparkmc.spark.cli.Main", "run")};
        assertTrue(ShutdownNotice.why(List.of(main, task)).startsWith("Spark is ending it after a fatal error in a "
                + "task, such as running out of memory"));
    }

    @Test
    void otherwiseASignal() {
        StackTraceElement[] signal = {frame("java.lang.Shutdown", "exit"), frame("java.lang.Terminator$1", "handle")};
        StackTraceElement[] main = {frame("org.sparkmc.spark.cli.Main", "run")};
        assertEquals("SIGTERM or Ctrl-C", ShutdownNotice.why(List.of(main, signal)));
    }
}
