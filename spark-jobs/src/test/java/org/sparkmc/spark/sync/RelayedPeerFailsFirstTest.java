package org.sparkmc.spark.sync;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.spark.BarrierTaskContext;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.junit.jupiter.api.Test;
import org.sparkmc.spark.SparkTestBase;
import scala.Tuple2;
import scala.collection.Iterator;
import scala.runtime.AbstractFunction1;

/**
 * A relayed map stage whose task fails before it reaches the relay (as a task fails reading a lost local lineage
 * cut): Spark fails the stage attempt, kills its other tasks without interrupting them, and retries the stage, which
 * needs their slots. The task waiting at the relay for its failed peer must notice the kill and end, so that the
 * retries run and the job fails within seconds, not after the relay's timeout (90 s here) for every attempt. On a
 * real local[2] context, through {@link RelayedStage#mapStageOnly} as the jobs submit such a stage.
 */
class RelayedPeerFailsFirstTest extends SparkTestBase {

    /** Partition 1 fails before it connects; partition 0 waits at the relay for it. */
    private static final class PeerFailsFirst extends AbstractFunction1<Iterator<Integer>, Iterator<Integer>>
            implements Serializable {
        private static final long serialVersionUID = 1L;
        private final RelayAddress relay;

        PeerFailsFirst(RelayAddress relay) {
            this.relay = relay;
        }

        @Override
        public Iterator<Integer> apply(Iterator<Integer> partition) {
            BarrierTaskContext context = BarrierTaskContext.get();
            if (context.partitionId() == 1) {
                throw new IllegalStateException("partition 1 fails before it reaches the relay");
            }
            try (RoundClient client = relay.connect(context)) {
                client.exchange(0, new byte[] {0});
                client.done();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return partition;
        }
    }

    @Test
    void theTaskWaitingForAFailedPeerEndsAndTheJobFailsAtOnce() throws Exception {
        try (RoundRelay relay = RoundRelay.onDriver(jsc().getConf().clone()
                .set(RoundRelay.TIMEOUT_SETTING, "90s"), 2)) {
            JavaRDD<Integer> numbers = jsc().parallelize(List.of(1, 2, 3, 4), 2);
            JavaPairRDD<Integer, Integer> shuffled = numbers.rdd().barrier().mapPartitions(
                    new PeerFailsFirst(relay.address()), false, scala.reflect.ClassTag$.MODULE$.apply(Integer.class))
                    .toJavaRDD().mapToPair(i -> new Tuple2<>(i, i)).partitionBy(new HashPartitioner(2));
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
