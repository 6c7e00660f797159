package org.sparkmc.spark.run;

import org.slf4j.Logger;
import org.sparkmc.spark.cli.Progress;

/**
 * The one driver loop of the iterative jobs ({@code chains}, {@code lda}, {@code smc} and {@code bn}'s Gibbs
 * sampling): initialises a {@link SteppedJob}, advances it until it is done, saves its state every
 * {@code checkpointEvery} steps and after the last, shows each step's progress line, and releases the job's executor
 * state when a step fails. Between two saves the job may run all the steps in one go (one relayed stage, one task);
 * it is never asked to run past a save that is due.
 */
public final class StepRunner {
    private final Logger log;
    private final int checkpointEvery;

    private StepRunner(Logger log, int checkpointEvery) {
        this.log = log;
        this.checkpointEvery = checkpointEvery;
    }

    /** A runner that never asks for a snapshot; progress lines go to {@code log}. */
    public static StepRunner withoutCheckpoints(Logger log) {
        return new StepRunner(log, 0);
    }

    /**
     * A runner that asks for a snapshot once {@code every} steps have run since the last one (or since the start)
     * and after the last step.
     *
     * @throws IllegalArgumentException if {@code every} &lt; 1
     */
    public static StepRunner checkpointingEvery(Logger log, int every) {
        if (every < 1) {
            throw new IllegalArgumentException("checkpoint-every must be ≥ 1, is " + every);
        }
        return new StepRunner(log, every);
    }

    /** Runs {@code job} to its end; a failure releases the job's executor state and propagates. */
    public void run(SteppedJob job) {
        try {
            job.initialise();
            Progress progress = Progress.forJob(log, job.plannedSteps());
            boolean[] closed = {false};
            int savedAt = job.stepsDone();
            while (!job.isDone()) {
                int limit = checkpointEvery == 0 ? Integer.MAX_VALUE
                        : checkpointEvery - (job.stepsDone() - savedAt);
                job.advance(limit, line -> {
                    closed[0] = line.last();
                    progress.step(line.step(), line.phase(), line.text(), line.last());
                });
                if (checkpointEvery > 0 && (job.stepsDone() - savedAt >= checkpointEvery || job.isDone())) {
                    job.snapshot();
                    savedAt = job.stepsDone();
                }
            }
            if (!closed[0]) {
                progress.step(job.stepsDone(), "end", job.closingLine(), true);
            }
        } catch (RuntimeException | Error e) {
            job.release();
            throw e;
        }
    }
}
