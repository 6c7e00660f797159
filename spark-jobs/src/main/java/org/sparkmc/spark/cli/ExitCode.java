package org.sparkmc.spark.cli;

/** The exit codes every sparkmc job returns, for schedulers such as Airflow to act on. */
public final class ExitCode {
    /** The job finished and wrote its outputs. */
    public static final int OK = 0;
    /** Anything unexpected (a bug, a lost cluster); outputs are not written. */
    public static final int FAILURE = 1;
    /** Bad input or configuration; nothing was written. */
    public static final int BAD_INPUT = 2;
    /** The job finished and wrote its outputs but did not converge, and convergence was required. */
    public static final int NOT_CONVERGED = 3;
    /**
     * A task ran out of memory; nothing was written. Spark's own exit code for an {@code OutOfMemoryError}, which it
     * returns itself when the task ran in the driver's JVM (local mode), and sparkmc when the job failed of it.
     */
    public static final int OUT_OF_MEMORY = 52;
    /**
     * The help's words for the two codes the JVM's end gives, out of memory (52) and SIGTERM (143, 128 + 15: the run
     * says it is stopping, removes its staged output and exits as the JVM does on that signal).
     */
    public static final String HELP_JVM_ENDS = "52 out of memory, 143 stopped by SIGTERM (neither commits an output)";

    private ExitCode() {
    }
}
