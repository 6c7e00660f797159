package org.sparkmc.spark.cluster;

import java.io.Serializable;
import java.util.List;
import org.apache.spark.HashPartitioner;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.sparkmc.spark.sync.RelayedStage;
import scala.Tuple2;
import scala.collection.Iterator;
import scala.runtime.AbstractFunction1;

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
            JavaRDD<Integer> numbers = jsc.parallelize(List.of(1, 2, 3, 4), 2);
            JavaPairRDD<Integer, Integer> shuffled = numbers.rdd().barrier().mapPartitions(new Same(), false,
                    scala.reflect.ClassTag$.MODULE$.apply(Integer.class)).toJavaRDD()
                    .mapToPair(i -> new Tuple2<>(i, i)).partitionBy(new HashPartitioner(2));
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

    /** The identity on a partition's iterator, as a serialisable Scala function. */
    private static final class Same extends AbstractFunction1<Iterator<Integer>, Iterator<Integer>>
            implements Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public Iterator<Integer> apply(Iterator<Integer> partition) {
            return partition;
        }
    }
}
