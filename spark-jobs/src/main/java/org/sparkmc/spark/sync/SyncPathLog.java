package org.sparkmc.spark.sync;

import org.slf4j.Logger;

/**
 * Tells the log which way a job's steps run: relayed in one barrier stage, or a Spark job per step, with the
 * reason ({@link SyncVia.Choice}). A job asks before each stretch of steps, and the answer can change during a run
 * (executors lost or added under {@code --sync-via auto}), so a line is written when the way is first chosen and
 * whenever it changes, not for every stretch. Not thread-safe: the driver's loop owns it.
 */
public final class SyncPathLog {
    private final Logger log;
    private final String job;
    private final String step;
    private Boolean relayed;

    /**
     * @param job the job's name as its log lines start ({@code "lda"})
     * @param step what one synchronised step is ({@code "sync step"}, {@code "round"}, {@code "step"})
     */
    public SyncPathLog(Logger log, String job, String step) {
        this.log = log;
        this.job = job;
        this.step = step;
    }

    /** Logs {@code choice} if the way changed (or was not chosen yet), and returns whether the steps relay. */
    public boolean relays(SyncVia.Choice choice) {
        String line = note(choice);
        if (line != null) {
            log.info(line);
        }
        return choice.relays();
    }

    /** The line {@link #relays} logs for {@code choice}, or null when the way did not change; records the choice. */
    String note(SyncVia.Choice choice) {
        if (relayed != null && relayed == choice.relays()) {
            return null;
        }
        relayed = choice.relays();
        return job + ": " + (choice.relays() ? step + "s relayed in one barrier stage" : "a Spark job per " + step)
                + " (" + choice.why() + ")";
    }
}
