package org.sparkmc.spark.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

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
                if (done == failAt) {
                    throw new IllegalStateException("step " + done + " failed");
                }
                StepLine line = new StepLine(done, "sampling", "step " + done, flagsLast && done == total);
                shown.add(line);
                lines.accept(line);
            }
        }

        @Override
        public void snapshot() {
            snapshots.add(done);
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
        StepRunner.checkpointingEvery(LOG, 5).run(job);
        assertEquals(23, job.done);
        assertEquals(List.of(5, 10, 15, 20, 23), job.snapshots);
        assertEquals(List.of(5, 5, 5, 5, 5), job.limits);
        assertEquals(23, job.shown.size());
        assertTrue(!job.released);
    }

    @Test
    void aJobThatRunsFewerStepsThanAllowedIsAskedAgainWithWhatIsLeftBeforeTheSave() {
        Counting job = new Counting(0, 10, 2, -1);
        StepRunner.checkpointingEvery(LOG, 3).run(job);
        assertEquals(List.of(3, 6, 9, 10), job.snapshots);
        assertEquals(List.of(3, 1, 3, 1, 3, 1, 3), job.limits);
    }

    @Test
    void aResumedRunCountsItsSavesFromWhereItStarted() {
        Counting job = new Counting(7, 20, 100, -1);
        StepRunner.checkpointingEvery(LOG, 5).run(job);
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
        StepRunner.checkpointingEvery(LOG, 4).run(job);
        assertEquals(List.of(), job.limits);
        assertEquals(List.of(), job.snapshots);
    }

    @Test
    void aFailedStepReleasesTheJobAndPropagates() {
        Counting job = new Counting(0, 20, 100, 8);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> StepRunner.checkpointingEvery(LOG, 5).run(job));
        assertEquals("step 8 failed", e.getMessage());
        assertTrue(job.released);
        assertEquals(List.of(5), job.snapshots);
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
        assertThrows(IllegalArgumentException.class, () -> StepRunner.checkpointingEvery(LOG, 0));
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
}
