package org.sparkmc.spark.run;

import java.util.function.Consumer;

/**
 * An iterative job as {@link StepRunner} drives it: steps (sweeps, rounds, time steps) that run on the executors, a
 * state the driver can save between them, and a progress line for each. The job decides how its steps run (one
 * Spark job per step, several in one task, or a relayed stage) and when it is done; the runner owns the loop, the
 * checkpoint cadence, the progress lines and the release after a failure.
 */
public interface SteppedJob {
    /** Starts afresh, or from the newest checkpoint when resuming. Called once, before any other method. */
    void initialise();

    /** The steps the run expects in all, for the progress bar; {@link Integer#MAX_VALUE} when not known. */
    int plannedSteps();

    /** The steps done so far, counting those of the checkpoint a resumed run started from. */
    int stepsDone();

    /** Whether the run has ended: every step run, converged, or its data used up. */
    boolean isDone();

    /**
     * Runs at least one and at most {@code limit} further steps, handing each step's progress line to {@code lines}
     * as the driver learns that the step ended. A job whose steps come in groups (lda's sync steps of several sweeps)
     * runs at least one whole group, which may pass the limit; the runner then saves after that group.
     */
    void advance(int limit, Consumer<StepLine> lines);

    /** Saves the state after {@link #stepsDone()} steps, so that a resumed run goes on from there. */
    void snapshot();

    /** The line that closes the progress of a run whose steps' lines did not say which was the last. */
    default String closingLine() {
        return "done after " + stepsDone() + " steps";
    }

    /** Drops what the job keeps on the executors (cached state, a step run ahead): called when a step fails. */
    void release();

    /**
     * A step's progress line.
     *
     * @param step  the step's number as users count it (from 1)
     * @param phase warm-up, sampling, filtering…: a new phase always gets a line
     * @param text  the figures a user watches, with the step's compute and sync time
     * @param last  whether this is the run's last step (its line is always shown)
     */
    record StepLine(int step, String phase, String text, boolean last) {
    }
}
