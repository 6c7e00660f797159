package org.sparkmc.spark.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;

/**
 * {@link RelayedStage#slotsAtMost}: the cap on task slots that the settings put, so that a run with more partitions
 * does not wait for executors that cannot come before it picks a job per step.
 */
class SlotsAtMostTest {
    private static SparkConf conf(String master) {
        return new SparkConf(false).setMaster(master);
    }

    @Test
    void standaloneIsCappedByItsMaximumCores() {
        assertEquals(4, RelayedStage.slotsAtMost(conf("spark://m:7077").set("spark.cores.max", "4")));
        assertEquals(2, RelayedStage.slotsAtMost(conf("spark://m:7077").set("spark.cores.max", "4")
                .set("spark.task.cpus", "2")));
        assertEquals(Integer.MAX_VALUE, RelayedStage.slotsAtMost(conf("spark://m:7077")));
        assertEquals(Integer.MAX_VALUE, RelayedStage.slotsAtMost(conf("spark://m:7077")
                .set("spark.executor.instances", "2"))); // standalone does not fix its executors by this
    }

    /** Spark honours spark.cores.max on a standalone cluster only, and a setting Spark would refuse caps nothing. */
    @Test
    void otherMastersIgnoreTheMaximumCores() {
        assertEquals(Integer.MAX_VALUE, RelayedStage.slotsAtMost(conf("local[4]").set("spark.cores.max", "1")));
        assertEquals(Integer.MAX_VALUE, RelayedStage.slotsAtMost(conf("yarn").set("spark.cores.max", "2")));
        assertEquals(2, RelayedStage.slotsAtMost(conf("local-cluster[2,1,1024]").set("spark.cores.max", "2")));
        assertEquals(Integer.MAX_VALUE, RelayedStage.slotsAtMost(conf("spark://m:7077").set("spark.cores.max", "x")));
    }

    @Test
    void yarnAndKubernetesAreCappedByTheirExecutors() {
        assertEquals(6, RelayedStage.slotsAtMost(conf("yarn").set("spark.executor.instances", "3")
                .set("spark.executor.cores", "2")));
        assertEquals(3, RelayedStage.slotsAtMost(conf("k8s://https://api:6443").set("spark.executor.instances", "3")));
        assertEquals(Integer.MAX_VALUE, RelayedStage.slotsAtMost(conf("yarn")));
        // Three executors of 3 cores run one task of 2 cores each, as Spark counts slots per executor.
        assertEquals(3, RelayedStage.slotsAtMost(conf("yarn").set("spark.executor.instances", "3")
                .set("spark.executor.cores", "3").set("spark.task.cpus", "2")));
    }
}
