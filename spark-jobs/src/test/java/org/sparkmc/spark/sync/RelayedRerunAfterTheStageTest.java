package org.sparkmc.spark.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.spark.BarrierTaskContext;
import org.apache.spark.MapOutputTrackerMaster;
import org.apache.spark.ShuffleDependency;
import org.apache.spark.SparkEnv;
import org.apache.spark.SparkException;
import org.apache.spark.api.java.JavaPairRDD;
import org.junit.jupiter.api.Test;
import org.sparkmc.spark.SparkTestBase;

/**
 * A relayed stage whose output Spark loses after the stage ended (an executor lost with it) is rerun after its relay
 * has closed; its tasks fail at once naming the cause ({@link RelayAddress#connect(BarrierTaskContext)}) instead of
 * waiting for their peers or failing with a bare "connection refused". The loss is made on a real local[2] context by
 * unregistering one map output, as Spark does for the outputs of a lost executor. Spark first reruns the lost
 * partition's task alone (refused before it connects), then every task (refused by the closed relay); the job ends
 * with the last attempt's reason.
 */
class RelayedRerunAfterTheStageTest extends SparkTestBase {

    @Test
    void aRerunAfterTheRelayClosedFailsAtOnceNamingTheCause() throws Exception {
        JavaPairRDD<Integer, Integer> shuffled;
        try (RoundRelay relay = RoundRelay.onDriver(jsc().getConf(), 2)) {
            shuffled = BarrierStages.relayedFeedingAShuffle(jsc(), relay.address(), -1);
            RelayedStage.run(relay, RelayedStage.mapStageOnly(shuffled), 1, round -> { });
        }
        assertEquals(4, shuffled.count(), "the stage's output, read whole");
        int shuffleId = ((ShuffleDependency<?, ?, ?>) shuffled.rdd().dependencies().head()).shuffleId();
        ((MapOutputTrackerMaster) SparkEnv.get().mapOutputTracker()).unregisterMapOutput(shuffleId, 0,
                SparkEnv.get().blockManager().blockManagerId());
        long t0 = System.nanoTime();
        SparkException e = assertThrows(SparkException.class, shuffled::count);
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertTrue(e.getMessage().contains("the relayed stage's task (attempt "), e.getMessage());
        assertTrue(e.getMessage().contains(") cannot reach its relay on the driver at "), e.getMessage());
        assertTrue(e.getMessage().contains("the relay has closed if Spark reran the stage after it ended"),
                e.getMessage());
        assertTrue(seconds < 60, "failed after " + seconds + " s, not at once");
    }
}
