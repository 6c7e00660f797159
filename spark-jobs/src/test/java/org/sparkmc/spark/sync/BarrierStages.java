package org.sparkmc.spark.sync;

import java.io.Serializable;
import java.util.List;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import scala.Tuple2;
import scala.collection.Iterator;
import scala.runtime.AbstractFunction1;

/** Barrier map stages for the tests of {@link RelayedStage#mapStageOnly}: a few numbers, nothing computed. */
public final class BarrierStages {
    private BarrierStages() {
    }

    /** A barrier stage of {@code tasks} tasks passing six numbers on, feeding a shuffle into 2 partitions. */
    public static JavaPairRDD<Integer, Integer> feedingAShuffle(JavaSparkContext jsc, int tasks) {
        JavaRDD<Integer> numbers = jsc.parallelize(List.of(1, 2, 3, 4, 5, 6), tasks);
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
}
