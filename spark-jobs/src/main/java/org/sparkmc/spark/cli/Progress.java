package org.sparkmc.spark.cli;

import java.io.PrintStream;
import java.util.Locale;
import org.slf4j.Logger;

/**
 * Progress of a long job in steps (rounds, sweeps, time steps). In a terminal: one line redrawn in place, with a
 * bar and an estimate of the time left. Otherwise (logs, schedulers): an INFO line at a steady rhythm — at most one
 * every {@code minSeconds}, but always the first and last step and whenever the phase changes.
 */
public final class Progress {
    private final Logger log;
    private final PrintStream terminal;
    private final int total;
    private final double minSeconds;
    private final long started = System.nanoTime();
    private long lastPrinted = Long.MIN_VALUE;
    private String lastPhase = "";

    /**
     * @param terminal where to draw the bar, or null to log lines instead
     * @param total    the number of steps at most (the estimate of time left assumes all of them run)
     */
    public Progress(Logger log, PrintStream terminal, int total, double minSeconds) {
        this.log = log;
        this.terminal = terminal;
        this.total = total;
        this.minSeconds = minSeconds;
    }

    /** A bar on standard error when the JVM has a terminal, log lines otherwise. */
    public static Progress forJob(Logger log, int total) {
        return new Progress(log, System.console() != null ? System.err : null, total, 2.0);
    }

    /**
     * Reports step {@code done} of {@code total}.
     *
     * @param line the figures a user watches, as one line
     * @param last whether this is the final step (it is always shown)
     */
    public void step(int done, String phase, String line, boolean last) {
        long now = System.nanoTime();
        boolean phaseChanged = !phase.equals(lastPhase);
        lastPhase = phase;
        if (terminal != null) {
            double elapsed = (now - started) / 1e9;
            double left = done == 0 ? Double.NaN : elapsed / done * (total - done);
            int width = 24;
            int filled = (int) Math.round(width * Math.min(1.0, (double) done / total));
            terminal.print("\r[" + "#".repeat(filled) + ".".repeat(width - filled) + "] " + done + "/" + total
                    + "  " + (last ? "done" : "≤ " + clock(left) + " left") + "  " + line + "\u001b[K");
            if (last) {
                terminal.println();
            }
            terminal.flush();
            return;
        }
        if (last || phaseChanged || (now - lastPrinted) / 1e9 >= minSeconds) {
            lastPrinted = now;
            log.info(line);
        }
    }

    static String clock(double seconds) {
        if (!Double.isFinite(seconds)) {
            return "?";
        }
        long s = Math.round(seconds);
        return s >= 3600 ? String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60);
    }
}
