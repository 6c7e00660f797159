package org.sparkmc.spark.cli;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.sparkmc.spark.io.CheckpointLease;
import org.sparkmc.spark.io.StorageFailure;

/**
 * One-line messages for failures of the machine rather than of the run's input or of sparkmc: a full disk, a task
 * out of memory, a file system failing to read ({@link StorageFailure}), another run using the checkpoint directory
 * ({@link CheckpointLease.Conflict}), or an executor lost with a local lineage cut that Spark cannot compute again.
 * The output's staging is removed by then ({@code AtomicOutput.close}), so the message can say nothing was written.
 */
final class EnvironmentFailures {
    private static final String NO_SPACE = "No space left on device";
    /**
     * Spark's CHECKPOINT_RDD_BLOCK_ID_NOT_FOUND: a local checkpoint's block gone with its executor (Spark says the same
     * of an RDD unpersisted too early, which sparkmc does not do to a cut it still reads).
     */
    private static final Pattern LOST_CUT = Pattern.compile("Checkpoint block (rdd_\\d+_\\d+) not found");
    /** An executor's OutOfMemoryError as Spark's job failure quotes it, and its message. */
    private static final Pattern OUT_OF_MEMORY = Pattern.compile("java\\.lang\\.OutOfMemoryError:?([^\\n]*)");
    /** A path or URI, not a stack frame's {@code java.base/jdk…} (which follows a word character). */
    private static final Pattern PATH = Pattern.compile("(?<![\\w./])([a-z][a-z0-9+.-]*:)?/[^\\s'\"()]+");

    private EnvironmentFailures() {
    }

    /**
     * The message for {@code e}, or null when it is not such a failure. It names the first path the exception's
     * messages give, else {@code places}: the run's output and checkpoint options (a file the disk could not even
     * create is named by no message).
     */
    static String describe(Throwable e, String places) {
        String outOfMemory = outOfMemory(e);
        if (outOfMemory != null) {
            return "a task ran out of memory (" + outOfMemory + "); nothing was written. Give it more memory "
                    + "(SPARKMC_JAVA_OPTS=-Xmx8g locally, --executor-memory on a cluster) or less work per task (more "
                    + "--partitions; fewer particles, chains or draws a task)";
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof CheckpointLease.Conflict) {
                return t.getMessage();
            }
            if (t instanceof StorageFailure) {
                return t.getMessage() + "; nothing was written (a retry may succeed)";
            }
            Matcher lostCut = t.getMessage() == null ? null : LOST_CUT.matcher(t.getMessage());
            if (lostCut != null && lostCut.find()) {
                return "an executor was lost, and with it a local checkpoint of the run's state that Spark cannot "
                        + "compute again (block " + lostCut.group(1) + "); no output was written. Where executors "
                        + "can be lost, give --lineage-dir on a shared file system (for lda, --checkpoint there does "
                        + "as well) and run again, with --resume where a --checkpoint was given";
            }
            if (t.getMessage() != null && t.getMessage().contains(NO_SPACE)) {
                return "no space left on device while writing" + where(e, places) + "; nothing was written there and an "
                        + "output it was to replace is intact (free space there, or choose another --out, "
                        + "--checkpoint or spark.local.dir)";
            }
        }
        return null;
    }

    /**
     * What ran out, for a failure caused by an {@code OutOfMemoryError}, in a task on an executor (Spark's job
     * failure names it in its message) or in this JVM; null for any other failure.
     */
    static String outOfMemory(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof OutOfMemoryError) {
                return t.getMessage() == null ? "OutOfMemoryError" : t.getMessage();
            }
            Matcher m = t.getMessage() == null ? null : OUT_OF_MEMORY.matcher(t.getMessage());
            if (m != null && m.find()) {
                return m.group(1).strip();
            }
        }
        return null;
    }

    /** " PATH": the first path a message of the chain names. */
    private static String where(Throwable e, String places) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            Matcher m = t.getMessage() == null ? null : PATH.matcher(t.getMessage());
            if (m != null && m.find()) {
                return " " + m.group().replaceAll("[.,;:]$", "");
            }
        }
        return places == null || places.isEmpty() ? " the output or checkpoint" : " under " + places;
    }
}
