package org.sparkmc.spark.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Serializable;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.scheduler.BarrierJobSlotsNumberCheckFailed;
import org.junit.jupiter.api.Test;
import org.sparkmc.spark.SparkTestBase;
import scala.Tuple2;
import scala.collection.Iterator;
import scala.runtime.AbstractFunction1;

/**
 * {@link RelayedStage#mapStageOnly} on a real local[2] context: Spark's check that a barrier map stage has a slot for
 * each task, which Spark does not retry for a map stage submitted alone, is retried as Spark retries it for a job.
 */
class MapStageSlotCheckTest extends SparkTestBase {

    /** A barrier stage of {@code tasks} tasks feeding a shuffle. */
    private JavaPairRDD<Integer, Integer> barrierStage(int tasks) {
        JavaRDD<Integer> numbers = jsc().parallelize(List.of(1, 2, 3, 4, 5, 6), tasks);
        return numbers.rdd().barrier().mapPartitions(new Same(), false,
                scala.reflect.ClassTag$.MODULE$.apply(Integer.class)).toJavaRDD()
                .mapToPair(i -> new Tuple2<>(i, i)).partitionBy(new HashPartitioner(2));
    }

    /** The identity on a partition's iterator, as a serialisable Scala function. */
    private static final class Same extends AbstractFunction1<Iterator<Integer>, Iterator<Integer>>
            implements Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public Iterator<Integer> apply(Iterator<Integer> partition) {
            return partition;
        }
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
