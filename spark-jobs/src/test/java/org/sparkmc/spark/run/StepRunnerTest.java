package org.sparkmc.spark.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.spark.SparkException;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.sparkmc.core.InvalidInputException;

/** The runner's contract: the loop, the checkpoint cadence, the step limits, the closing line, release on failure. */
class StepRunnerTest {
    /** A job of {@code total} steps that runs {@code chunk} of them when it may, and records what it was asked. */
    private static class Counting implements SteppedJob {
        final int total;
        final int chunk;
        final int failAt;
        int done;
        final List<Integer> limits = new ArrayList<>();
        final List<Integer> snapshots = new ArrayList<>();
        final List<StepLine> shown = new ArrayList<>();
        boolean initialised;
        boolean released;
        boolean flagsLast = true;
        /** A clock the steps and saves move: {@code stepNanos} a step, {@code saveNanos} a save. */
        long clock;
        long stepNanos;
        long saveNanos;

        Counting(int start, int total, int chunk, int failAt) {
            this.done = start;
            this.total = total;
            this.chunk = chunk;
            this.failAt = failAt;
        }

        @Override
        public void initialise() {
            initialised = true;
        }

        @Override
        public int plannedSteps() {
            return total;
        }

        @Override
        public int stepsDone() {
            return done;
        }

        @Override
        public boolean isDone() {
            return done >= total;
        }

        @Override
        public void advance(int limit, Consumer<StepLine> lines) {
            assertTrue(initialised);
            assertTrue(limit >= 1, "limit " + limit);
            limits.add(limit);
            int run = Math.min(Math.min(limit, chunk), total - done);
            for (int k = 0; k < run; k++) {
                done++;
                clock += stepCost(done);
                if (done == failAt) {
                    throw new IllegalStateException("step " + done + " failed");
                }
                StepLine line = new StepLine(done, "sampling", "step " + done, flagsLast && done == total);
                shown.add(line);
                lines.accept(line);
            }
        }

        /** What step {@code step} takes on the clock. */
        long stepCost(int step) {
            return stepNanos;
        }

        @Override
        public void snapshot() {
            snapshots.add(done);
            clock += saveNanos;
        }

        @Override
        public void release() {
            released = true;
        }
    }

    private static final org.slf4j.Logger LOG = LoggerFactory.getLogger(StepRunnerTest.class);

    @Test
    void savesEveryNStepsAndAfterTheLastNeverRunningPastADueSave() {
        Counting job = new Counting(0, 23, 100, -1);
        StepRunner.checkpointing(LOG, CheckpointCadence.every(5)).run(job);
        assertEquals(23, job.done);
        assertEquals(List.of(5, 10, 15, 20, 23), job.snapshots);
        assertEquals(List.of(5, 5, 5, 5, 5), job.limits);
        assertEquals(23, job.shown.size());
        assertTrue(!job.released);
    }

    @Test
    void aJobThatRunsFewerStepsThanAllowedIsAskedAgainWithWhatIsLeftBeforeTheSave() {
        Counting job = new Counting(0, 10, 2, -1);
        StepRunner.checkpointing(LOG, CheckpointCadence.every(3)).run(job);
        assertEquals(List.of(3, 6, 9, 10), job.snapshots);
        assertEquals(List.of(3, 1, 3, 1, 3, 1, 3), job.limits);
    }

    @Test
    void aResumedRunCountsItsSavesFromWhereItStarted() {
        Counting job = new Counting(7, 20, 100, -1);
        StepRunner.checkpointing(LOG, CheckpointCadence.every(5)).run(job);
        assertEquals(List.of(12, 17, 20), job.snapshots);
    }

    @Test
    void withoutCheckpointsTheJobMayRunEverythingAtOnce() {
        Counting job = new Counting(0, 50, 100, -1);
        StepRunner.withoutCheckpoints(LOG).run(job);
        assertEquals(List.of(Integer.MAX_VALUE), job.limits);
        assertEquals(List.of(), job.snapshots);
    }

    @Test
    void aResumedRunThatWasAlreadyDoneRunsNothing() {
        Counting job = new Counting(9, 9, 100, -1);
        StepRunner.checkpointing(LOG, CheckpointCadence.every(4)).run(job);
        assertEquals(List.of(), job.limits);
        assertEquals(List.of(), job.snapshots);
    }

    @Test
    void aFailedStepReleasesTheJobAndPropagates() {
        Counting job = new Counting(0, 20, 100, 8);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> StepRunner.checkpointing(LOG, CheckpointCadence.every(5)).run(job));
        assertEquals("step 8 failed", e.getMessage());
        assertTrue(job.released);
        assertEquals(List.of(5), job.snapshots);
    }

    /** Spark's job failure is a checked {@code SparkException} that Scala throws undeclared: it releases too. */
    @Test
    void aSparkJobFailureReleasesTheJob() {
        Counting job = new Counting(0, 20, 100, -1) {
            @Override
            public void snapshot() {
                throwUndeclared(new SparkException("Job aborted due to stage failure"));
            }
        };
        SparkException e = assertThrows(SparkException.class,
                () -> StepRunner.checkpointing(LOG, CheckpointCadence.every(5)).run(job));
        assertEquals("Job aborted due to stage failure", e.getMessage());
        assertTrue(job.released);
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void throwUndeclared(Throwable t) throws T {
        throw (T) t;
    }

    @Test
    void aFailedStartReleasesTooAndARefusedIntervalIsAnError() {
        Counting job = new Counting(0, 3, 1, -1) {
            @Override
            public void initialise() {
                throw new IllegalArgumentException("no checkpoint");
            }
        };
        RuntimeException e = assertThrows(IllegalArgumentException.class,
                () -> StepRunner.withoutCheckpoints(LOG).run(job));
        assertEquals("no checkpoint", e.getMessage());
        assertTrue(job.released);
        assertThrows(IllegalArgumentException.class, () -> CheckpointCadence.every(0));
    }

    @Test
    void anOpenEndedRunIsClosedByTheJobsClosingLine() {
        List<String> closing = new ArrayList<>();
        Counting job = new Counting(0, 4, 100, -1) {
            @Override
            public String closingLine() {
                closing.add("closed");
                return "closed after " + stepsDone();
            }
        };
        job.flagsLast = false;
        StepRunner.withoutCheckpoints(LOG).run(job);
        assertEquals(List.of("closed"), closing);
        Counting flagged = new Counting(0, 4, 100, -1) {
            @Override
            public String closingLine() {
                throw new AssertionError("a run whose last line was flagged needs no closing line");
            }
        };
        StepRunner.withoutCheckpoints(LOG).run(flagged);
        assertEquals(4, flagged.done);
    }

    /** Under auto: a job of {@code total} steps of {@code stepMs} each whose saves take {@code saveMs}. */
    private static Counting autoRun(int total, long stepMs, long saveMs) {
        Counting job = new Counting(0, total, 100_000, -1);
        job.stepNanos = stepMs * 1_000_000;
        job.saveNanos = saveMs * 1_000_000;
        new StepRunner(LOG, CheckpointCadence.auto(), () -> job.clock).run(job);
        return job;
    }

    @Test
    void autoSavesAfterThirtySecondsOfStepsOrNineteenTimesTheLastSave() {
        // 10 ms steps and 100 ms saves: 10 steps timed, then a save every 30 s (3,000 steps) and after the last.
        Counting cheap = autoRun(10_000, 10, 100);
        assertEquals(List.of(3_000, 6_000, 9_000, 10_000), cheap.snapshots);
        assertEquals(List.of(10, 2_990, 3_000, 3_000, 3_000), cheap.limits); // the job stops at its end itself
        // 5 s saves: after the first, 19 × 5 s = 95 s of steps (9,500) between saves.
        Counting dearSaves = autoRun(20_000, 10, 5_000);
        assertEquals(List.of(3_000, 12_500, 20_000), dearSaves.snapshots);
        // 60 s steps: the first 10 are run before any is timed, then a save after every step.
        Counting slowSteps = autoRun(13, 60_000, 1_000);
        assertEquals(List.of(10, 11, 12, 13), slowSteps.snapshots);
        // A run shorter than 30 s saves only after its last step.
        Counting shortRun = autoRun(2_000, 10, 2_000);
        assertEquals(List.of(2_000), shortRun.snapshots);
        assertEquals(List.of(10, 2_990), shortRun.limits);
    }

    /**
     * Steps that speed up (100 ms for the first 40, then 50 ms; saves of 100 ms): the runner's guess from the slower
     * steps falls short of the 30 s mark, and within a tenth of it the save comes at once rather than after a third
     * short advance.
     */
    @Test
    void autoSavesAtOnceWhenAGuessFallsJustShort() {
        Counting job = new Counting(0, 600, 100_000, -1) {
            @Override
            long stepCost(int step) {
                return step <= 40 ? 100_000_000L : 50_000_000L;
            }
        };
        job.saveNanos = 100_000_000;
        new StepRunner(LOG, CheckpointCadence.auto(), () -> job.clock).run(job);
        // 10 steps (1 s); 290 at the 100 ms they took (16 s in fact); 236 at the 55 ms those took (11.8 s): 28.8 s.
        assertEquals(List.of(10, 290, 236), job.limits.subList(0, 3));
        assertEquals(536, job.snapshots.get(0));
    }

    @Test
    void autoKeepsTheSavesNearFivePercentOfTheRun() {
        for (long[] costs : new long[][] {{10, 100}, {3, 700}, {250, 4_000}, {1_000, 1_000}, {2, 30_000}}) {
            Counting job = autoRun(200_000, costs[0], costs[1]);
            double share = job.snapshots.size() * costs[1] * 1e6 / job.clock;
            // 5%, and the shares of the first save (before any save was timed) and of the last (after the last step,
            // however few steps preceded it).
            double bound = 0.05 + 2 * costs[1] * 1e6 / job.clock;
            assertTrue(share <= bound + 1e-9, "steps " + costs[0] + " ms, saves " + costs[1] + " ms: share " + share);
            assertEquals(200_000, job.snapshots.get(job.snapshots.size() - 1));
        }
    }

    /**
     * A job that blocks in isDone (an online feed waiting for its next batch): a save that is due is made right after
     * the steps, before the runner asks whether the run is done, and the wait does not count as the save's time.
     */
    @Test
    void aDueSaveDoesNotWaitForIsDone() {
        for (CheckpointCadence cadence : List.of(CheckpointCadence.every(5), CheckpointCadence.auto())) {
            List<String> events = new ArrayList<>();
            Counting job = new Counting(0, 40, 5, -1) {
                @Override
                public boolean isDone() {
                    events.add("isDone");
                    clock += 3_600_000_000_000L; // an hour's wait for the next batch
                    return super.isDone();
                }

                @Override
                public void advance(int limit, Consumer<StepLine> lines) {
                    events.add("advance");
                    super.advance(limit, lines);
                }

                @Override
                public void snapshot() {
                    events.add("snapshot");
                    super.snapshot();
                }
            };
            job.stepNanos = 10_000_000;
            job.saveNanos = 100_000_000;
            new StepRunner(LOG, cadence, () -> job.clock).run(job);
            for (int i = 0; i < events.size(); i++) {
                if (events.get(i).equals("snapshot") && job.snapshots.size() > 0 && i > 0
                        && !events.get(i - 1).equals("advance")) {
                    // only the save after the last step may follow isDone (the run's end is known there)
                    assertEquals(events.size() - 1, i, cadence + ": a save waited for isDone: " + events);
                }
            }
            assertEquals(40, job.snapshots.get(job.snapshots.size() - 1));
            if (!cadence.isAuto()) {
                assertEquals(List.of(5, 10, 15, 20, 25, 30, 35, 40), job.snapshots);
            }
        }
    }

    @Test
    void aFixedCadenceIgnoresTheClock() {
        Counting job = new Counting(0, 12, 100, -1);
        job.stepNanos = 1;
        job.saveNanos = 1_000_000_000;
        new StepRunner(LOG, CheckpointCadence.every(4), () -> job.clock).run(job);
        assertEquals(List.of(4, 8, 12), job.snapshots);
    }

    @Test
    void theOptionTakesAutoOrAWholeNumberOfStepsAndRoundsFixedOnesUp() {
        assertTrue(CheckpointCadence.parse("auto", "--checkpoint-every").isAuto());
        assertEquals(CheckpointCadence.every(12), CheckpointCadence.parse(" 12 ", "--checkpoint-every"));
        for (String bad : new String[] {"0", "-3", "ten", "", "1.5"}) {
            InvalidInputException e = assertThrows(InvalidInputException.class,
                    () -> CheckpointCadence.parse(bad, "--checkpoint-every"));
            assertEquals("--checkpoint-every must be a whole number ≥ 1 or auto, is '" + bad + "'", e.getMessage());
        }
        assertEquals(CheckpointCadence.every(12), CheckpointCadence.every(10).roundedUpTo(4));
        assertEquals(CheckpointCadence.every(8), CheckpointCadence.every(8).roundedUpTo(4));
        assertTrue(CheckpointCadence.auto().roundedUpTo(4).isAuto());
        assertEquals(CheckpointCadence.every(Integer.MAX_VALUE - 1), CheckpointCadence.every(Integer.MAX_VALUE)
                .roundedUpTo(2)); // the largest multiple there is, not an overflow
        assertEquals("auto", CheckpointCadence.auto().toString());
        assertEquals("12", CheckpointCadence.every(12).toString());
    }
}
