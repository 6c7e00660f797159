package org.sparkmc.spark.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class SyncPathLogTest {
    private static final SyncVia.Choice RELAY = new SyncVia.Choice(true,
            "--sync-via auto: 2 partitions need 2 task slots and the executors have 2");
    private static final SyncVia.Choice JOBS = new SyncVia.Choice(false,
            "--sync-via auto: 2 partitions need 2 task slots and the executors have 1");

    /** A line when the way is first chosen and when it changes, none while it stays: one per change, not per step. */
    @Test
    void logsTheWayWhenChosenAndWhenItChanges() {
        SyncPathLog log = new SyncPathLog(LoggerFactory.getLogger(SyncPathLogTest.class), "lda", "sync step");
        assertEquals("lda: sync steps relayed in one barrier stage (--sync-via auto: 2 partitions need 2 task slots "
                + "and the executors have 2)", log.note(RELAY));
        assertNull(log.note(RELAY));
        assertEquals("lda: a Spark job per sync step (--sync-via auto: 2 partitions need 2 task slots and the "
                + "executors have 1)", log.note(JOBS));
        assertNull(log.note(JOBS));
        assertEquals("lda: sync steps relayed in one barrier stage (--sync-via auto: 2 partitions need 2 task slots "
                + "and the executors have 2)", log.note(RELAY));
    }

    @Test
    void jobsAreChosenWithoutAskingSpark() {
        SyncVia.Choice choice = SyncVia.JOBS.choose(null, 4);
        assertFalse(choice.relays());
        assertEquals("--sync-via jobs", choice.why());
        assertFalse(new SyncPathLog(LoggerFactory.getLogger(SyncPathLogTest.class), "smc", "step").relays(choice));
    }
}
