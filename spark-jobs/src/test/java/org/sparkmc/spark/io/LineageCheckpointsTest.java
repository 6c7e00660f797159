package org.sparkmc.spark.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.storage.StorageLevel;
import org.junit.jupiter.api.Test;
import org.sparkmc.spark.SparkTestBase;

/**
 * {@link LineageCheckpoints#writeMarked}: the relayed stages' asynchronous jobs leave a marked checkpoint unwritten,
 * and the lineage uncut, until it is called.
 */
class LineageCheckpointsTest extends SparkTestBase {
    @Test
    void anAsynchronousJobLeavesTheMarkedCheckpointToWriteMarked() throws Exception {
        JavaRDD<Integer> parent = jsc().parallelize(List.of(1, 2, 3, 4, 5, 6), 2);
        JavaRDD<Integer> next = parent.map(x -> x * 2);
        next.persist(StorageLevel.MEMORY_AND_DISK());
        next.rdd().localCheckpoint();
        assertEquals(6L, next.countAsync().get());
        // Spark's behaviour the jobs work around: were it to change, writeMarked would only cost nothing.
        assertFalse(next.isCheckpointed(), "an asynchronous job wrote the marked checkpoint");
        assertEquals(parent.rdd(), next.rdd().dependencies().head().rdd(), "the lineage was cut");

        LineageCheckpoints.writeMarked(next);
        assertTrue(next.isCheckpointed());
        assertFalse(parent.rdd().equals(next.rdd().dependencies().head().rdd()),
                "the lineage still reaches the parent");
        assertEquals(List.of(2, 4, 6, 8, 10, 12), next.collect());
        LineageCheckpoints.writeMarked(next); // written already: no job
        assertTrue(next.isCheckpointed());
    }
}
