package org.sparkmc.spark.cli;

import java.io.PrintStream;
import org.apache.hadoop.util.ShutdownHookManager;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.config.Configurator;

/**
 * What a user sees when the JVM is stopped mid-run (SIGTERM from Airflow or a scheduler, Ctrl-C, or Spark ending it
 * after a task ran out of memory): one line saying which, instead of the stack traces Spark and the job would print
 * for every write and job that fails once Spark's own shutdown hook has stopped the context under them. Its hook
 * runs before Spark's (a higher priority in Hadoop's shutdown-hook manager, which Spark uses too); the staging
 * clean-up is {@code AtomicOutput}'s own hook, later.
 */
public final class ShutdownNotice {
    /** Above Spark's context shutdown (50) and the file systems' (10): runs first. */
    static final int PRIORITY = 100;
    /** Spark's handler that exits the JVM after a fatal error (an {@code OutOfMemoryError}: exit code 52). */
    static final String SPARK_FATAL_ERROR_HANDLER = "org.apache.spark.util.SparkUncaughtExceptionHandler";
    private static volatile boolean inProgress;
    /** Set when the run has returned its exit code: the shutdown that follows is the normal end. */
    private static volatile boolean ended;

    private ShutdownNotice() {
    }

    /** Installs the notice for a command-line run of {@code command} (once per JVM). */
    public static void install(String command, PrintStream err) {
        ShutdownHookManager.get().addShutdownHook(() -> {
            if (ended) {
                return;
            }
            inProgress = true;
            // The failures that follow are the shutdown's, not the job's: keep their traces off the console.
            Configurator.setLevel("org.apache.spark", Level.OFF);
            Configurator.setLevel("org.apache.parquet", Level.OFF);
            Configurator.setLevel("org.apache.hadoop", Level.OFF);
            err.println(command + ": stopping: the JVM is shutting down (" + why(Thread.getAllStackTraces().values())
                    + "); an output not yet committed is removed");
            err.flush();
        }, PRIORITY);
    }

    /**
     * Why the JVM is shutting down, from the stacks of its threads: one of them is inside Spark's handler of fatal
     * errors when Spark ends the JVM after a task ran out of memory (exit code 52), and a signal's handler thread
     * otherwise.
     */
    static String why(Iterable<StackTraceElement[]> stacks) {
        for (StackTraceElement[] stack : stacks) {
            for (StackTraceElement frame : stack) {
                if (frame.getClassName().startsWith(SPARK_FATAL_ERROR_HANDLER)) {
                    return "Spark is ending it after a fatal error in a task, such as running out of memory: see the "
                            + "error above";
                }
            }
        }
        return "SIGTERM or Ctrl-C";
    }

    /** Marks the run as ended: the JVM's exit that follows is no interruption and prints nothing. */
    public static void ended() {
        ended = true;
    }

    /** True once the JVM has begun to shut down: a failure now is the shutdown's, and needs no report. */
    public static boolean inProgress() {
        return inProgress;
    }
}
