package org.sparkmc.spark.run;

import java.util.Locale;
import java.util.Objects;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.sparkmc.spark.cli.Progress;

/**
 * The one driver loop of the iterative jobs ({@code chains}, {@code lda}, {@code smc} and {@code bn}'s Gibbs
 * sampling): initialises a {@link SteppedJob}, advances it until it is done, saves its state at the
 * {@link CheckpointCadence}'s steps and after the last, shows each step's progress line, and releases the job's
 * executor state when a step fails. Between two saves the job may run all the steps in one go (one relayed stage, one
 * task); it is never asked to run past a save that is due.
 */
public final class StepRunner {
    private final Logger log;
    /** Null: no saves. */
    private final CheckpointCadence cadence;
    private final LongSupplier nanoClock;

    StepRunner(Logger log, CheckpointCadence cadence, LongSupplier nanoClock) {
        this.log = log;
        this.cadence = cadence;
        this.nanoClock = nanoClock;
    }

    /** A runner that never asks for a snapshot; progress lines go to {@code log}. */
    public static StepRunner withoutCheckpoints(Logger log) {
        return new StepRunner(log, null, System::nanoTime);
    }

    /** A runner that asks for a snapshot when {@code cadence} says, and after the last step. */
    public static StepRunner checkpointing(Logger log, CheckpointCadence cadence) {
        return new StepRunner(log, Objects.requireNonNull(cadence), System::nanoTime);
    }

    /** Runs {@code job} to its end; a failure releases the job's executor state and propagates. */
    public void run(SteppedJob job) {
        try {
            job.initialise();
            Progress progress = Progress.forJob(log, job.plannedSteps());
            boolean[] closed = {false};
            int savedAt = job.stepsDone();
            long workStart = nanoClock.getAsLong();
            long stepNanos = 0; // what a step took in the last advance (0: none timed yet)
            long saveNanos = 0; // what the last save took (0: none yet)
            int said = 0; // the interval the log last gave (0: none yet)
            while (!job.isDone()) {
                int limit = cadence == null ? Integer.MAX_VALUE : Math.max(1, cadence.stepsBeforeSave(
                        job.stepsDone() - savedAt, nanoClock.getAsLong() - workStart, stepNanos, saveNanos));
                int before = job.stepsDone();
                long start = nanoClock.getAsLong();
                job.advance(limit, line -> {
                    closed[0] = line.last();
                    progress.step(line.step(), line.phase(), line.text(), line.last());
                });
                long end = nanoClock.getAsLong();
                stepNanos = Math.max(1, (end - start) / Math.max(1, job.stepsDone() - before));
                if (cadence == null) {
                    continue;
                }
                // The cadence first: a job may block in isDone (an online feed waits there for its next batch), and
                // a save that is due must not wait for it.
                boolean due = cadence.stepsBeforeSave(job.stepsDone() - savedAt, end - workStart, stepNanos,
                        saveNanos) == 0;
                if (due || job.isDone()) {
                    long saving = nanoClock.getAsLong();
                    job.snapshot();
                    long saved = nanoClock.getAsLong();
                    saveNanos = saved - saving;
                    savedAt = job.stepsDone();
                    workStart = saved;
                    int next = cadence.stepsBeforeSave(0, 0, stepNanos, saveNanos);
                    boolean changed = said == 0 || next >= 2 * said || 2 * next <= said; // first, then on 2× changes
                    if (cadence.isAuto() && due && changed) {
                        log.info(String.format(Locale.ROOT, "checkpoints: the next save in about %d steps "
                                + "(--checkpoint-every auto: the last save took %.2f s, a step %.3f s)", next,
                                saveNanos / 1e9, stepNanos / 1e9));
                        said = next;
                    }
                }
            }
            if (!closed[0]) {
                progress.step(job.stepsDone(), "end", job.closingLine(), true);
            }
        } catch (Throwable e) { // also Spark's SparkException: checked, yet thrown undeclared from Scala
            releaseAfter(e, job::release);
            throw e;
        }
    }

    /**
     * Runs {@code release} after {@code failure} (catch {@code Throwable}: Spark's SparkException is checked, yet
     * thrown undeclared); a failure of the release itself, Spark already shut down say, is added to the first one as
     * suppressed rather than thrown in its place.
     */
    public static void releaseAfter(Throwable failure, Runnable release) {
        try {
            release.run();
        } catch (RuntimeException | Error releasing) {
            failure.addSuppressed(releasing);
        }
    }
}
