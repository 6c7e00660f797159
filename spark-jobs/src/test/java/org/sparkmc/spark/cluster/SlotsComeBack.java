package org.sparkmc.spark.cluster;

import java.util.List;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.sparkmc.spark.sync.BarrierStages;
import org.sparkmc.spark.sync.RelayedStage;

/**
 * A driver for {@link ClusterIT}, submitted with spark-submit to the loopback cluster: once both executors are up it
 * prints {@link #READY}, waits until the test has killed one, and then submits a barrier map stage of two tasks
 * through {@link RelayedStage#mapStageOnly} while the worker starts the executor's replacement. Spark's slot check
 * fails until the replacement registers; the stage must then run. Prints how many times it was submitted.
 */
public final class SlotsComeBack {
    static final String READY = "slots-come-back: both executors up";
    static final String DONE = "slots-come-back: the stage ran, submitted ";

    private SlotsComeBack() {
    }

    public static void main(String[] args) throws Exception {
        SparkConf conf = new SparkConf().setAppName("slots-come-back")
                .set("spark.scheduler.barrier.maxConcurrentTasksCheck.interval", "1s");
        try (JavaSparkContext jsc = new JavaSparkContext(conf)) {
            awaitExecutors(jsc, 2);
            JavaFutureAction<Long> warm = jsc.parallelize(List.of(1, 2), 2).countAsync();
            warm.get();
            int before = warm.jobIds().get(0);
            System.out.println(READY);
            awaitExecutors(jsc, 1);
            JavaPairRDD<Integer, Integer> shuffled = BarrierStages.feedingAShuffle(jsc, 2);
            JavaFutureAction<Void> stage = RelayedStage.mapStageOnly(shuffled);
            stage.get();
            System.out.println(DONE + (stage.jobIds().get(0) - before) + " times");
        }
    }

    /** Waits (up to 2 minutes) until exactly {@code n} executors are registered, the driver left out. */
    private static void awaitExecutors(JavaSparkContext jsc, int n) throws InterruptedException {
        for (int i = 0; i < 6000; i++) {
            if (jsc.sc().statusTracker().getExecutorInfos().length - 1 == n) {
                return;
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("never " + n + " executors");
    }
}
