package org.sparkmc.spark.sync;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaPairRDD;
import org.junit.jupiter.api.Test;
import org.sparkmc.spark.SparkTestBase;

/**
 * A relayed map stage whose task fails before it reaches the relay (as a task fails reading a lost local lineage
 * cut): Spark fails the stage attempt, kills its other tasks without interrupting them, and retries the stage, which
 * needs their slots. The task waiting at the relay for its failed peer must notice the kill and end, so that the
 * retries run and the job fails within seconds, not after the relay's timeout (90 s here) for every attempt. On a
 * real local[2] context, through {@link RelayedStage#mapStageOnly} as the jobs submit such a stage.
 */
class RelayedPeerFailsFirstTest extends SparkTestBase {

    @Test
    void theTaskWaitingForAFailedPeerEndsAndTheJobFailsAtOnce() throws Exception {
        try (RoundRelay relay = RoundRelay.onDriver(jsc().getConf().clone()
                .set(RoundRelay.TIMEOUT_SETTING, "90s"), 2)) {
            JavaPairRDD<Integer, Integer> shuffled = BarrierStages.relayedFeedingAShuffle(jsc(), relay.address(), 1);
            long t0 = System.nanoTime();
            JavaFutureAction<Void> stage = RelayedStage.mapStageOnly(shuffled);
            try {
                ExecutionException e = assertThrows(ExecutionException.class, () -> stage.get(60, TimeUnit.SECONDS));
                assertTrue(e.getCause().getMessage().contains("partition 1 fails before it reaches the relay"),
                        e.getCause().getMessage());
            } finally {
                stage.cancel(true);
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            assertTrue(seconds < 30, "failed after " + seconds + " s");
        }
    }
}
