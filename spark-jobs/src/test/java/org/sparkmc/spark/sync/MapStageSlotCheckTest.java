package org.sparkmc.spark.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.ExecutionException;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.scheduler.BarrierJobSlotsNumberCheckFailed;
import org.junit.jupiter.api.Test;
import org.sparkmc.spark.SparkTestBase;

/**
 * {@link RelayedStage#mapStageOnly} on a real local[2] context: Spark's check that a barrier map stage has a slot for
 * each task, which Spark does not retry for a map stage submitted alone, is retried as Spark retries it for a job.
 */
class MapStageSlotCheckTest extends SparkTestBase {

    private JavaPairRDD<Integer, Integer> barrierStage(int tasks) {
        return BarrierStages.feedingAShuffle(jsc(), tasks);
    }

    @Test
    void aStageWithItsSlotsRunsAtOnce() throws Exception {
        int before = jsc().parallelize(List.of(1)).countAsync().jobIds().get(0);
        JavaFutureAction<Void> stage = RelayedStage.mapStageOnly(barrierStage(2), 3, 2_000);
        assertNull(stage.get());
        assertEquals(before + 1, stage.jobIds().get(0), "one attempt: no retry for a stage that fits");
    }

    /**
     * Three tasks never fit two slots: the check fails on every attempt, the first and two retries (each a job of its
     * own, so three job ids), an interval apart, and the last failure is returned. Without the retry there is one
     * attempt and no wait.
     */
    @Test
    void aStageShortOfSlotsIsTriedAgainAsOftenAsSparkWouldTryAJob() throws Exception {
        int before = jsc().parallelize(List.of(1)).countAsync().jobIds().get(0);
        long t0 = System.nanoTime();
        JavaFutureAction<Void> stage = RelayedStage.mapStageOnly(barrierStage(3), 2, 300);
        double seconds = (System.nanoTime() - t0) / 1e9;
        ExecutionException e = assertThrows(ExecutionException.class, stage::get);
        assertInstanceOf(BarrierJobSlotsNumberCheckFailed.class, e.getCause());
        assertEquals(before + 3, stage.jobIds().get(0), "the first attempt and two retries");
        assertTrue(seconds >= 0.6, "two retries 300 ms apart took " + seconds + " s");
    }
}
