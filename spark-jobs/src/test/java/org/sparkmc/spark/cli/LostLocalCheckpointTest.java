package org.sparkmc.spark.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.apache.spark.SparkEnv;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.storage.RDDBlockId;
import org.junit.jupiter.api.Test;
import org.sparkmc.spark.SparkTestBase;

/**
 * A local lineage cut lost with its executor, as Spark reports it on a real local[2] context: the cut's block is
 * removed from the block manager, as a lost executor takes it, and the RDD is read again. The run's message says
 * what happened and which options prevent it, instead of Spark's advice to call {@code rdd.checkpoint()}.
 */
class LostLocalCheckpointTest extends SparkTestBase {
    @Test
    void aLostLocalCutIsReportedWithTheOptionsThatMakeCutsReliable() {
        JavaRDD<Integer> cut = jsc().parallelize(List.of(1, 2, 3, 4), 2).map(i -> i * 2);
        cut.rdd().localCheckpoint();
        assertEquals(4, cut.count());
        SparkEnv.get().blockManager().removeBlock(new RDDBlockId(cut.id(), 1), true);
        Exception e = assertThrows(Exception.class, cut::count);
        assertEquals("an executor was lost, and with it a local checkpoint of the run's state that Spark cannot "
                + "compute again (block rdd_" + cut.id() + "_1); no output was written. Where executors can be lost, "
                + "give --lineage-dir on a shared file system (for lda, --checkpoint there does as well) and run "
                + "again, with --resume where a --checkpoint was given", EnvironmentFailures.describe(e, "--out '/o'"));
    }
}
