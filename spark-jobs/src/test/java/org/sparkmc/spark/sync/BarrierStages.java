package org.sparkmc.spark.sync;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.util.List;
import org.apache.spark.BarrierTaskContext;
import org.apache.spark.HashPartitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import scala.Tuple2;
import scala.collection.Iterator;
import scala.runtime.AbstractFunction1;

/** Barrier map stages for the tests of relayed stages: a few numbers, nothing computed, one round relayed or none. */
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

    /**
     * A barrier stage of 2 tasks passing four numbers on to a shuffle into 2 partitions, each meeting its peer at
     * {@code relay} for one round first; the task of partition {@code failing} (none if negative) fails instead,
     * before it reaches the relay.
     */
    public static JavaPairRDD<Integer, Integer> relayedFeedingAShuffle(JavaSparkContext jsc, RelayAddress relay,
            int failing) {
        JavaRDD<Integer> numbers = jsc.parallelize(List.of(1, 2, 3, 4), 2);
        return numbers.rdd().barrier().mapPartitions(new OneRound(relay, failing), false,
                scala.reflect.ClassTag$.MODULE$.apply(Integer.class)).toJavaRDD()
                .mapToPair(i -> new Tuple2<>(i, i)).partitionBy(new HashPartitioner(2));
    }

    /** A relayed task: meets its peers at the relay for one round, then passes its partition on. */
    private static final class OneRound extends AbstractFunction1<Iterator<Integer>, Iterator<Integer>>
            implements Serializable {
        private static final long serialVersionUID = 1L;
        private final RelayAddress relay;
        private final int failing;

        OneRound(RelayAddress relay, int failing) {
            this.relay = relay;
            this.failing = failing;
        }

        @Override
        public Iterator<Integer> apply(Iterator<Integer> partition) {
            BarrierTaskContext context = BarrierTaskContext.get();
            if (context.partitionId() == failing) {
                throw new IllegalStateException("partition " + failing + " fails before it reaches the relay");
            }
            try (RoundClient client = relay.connect(context)) {
                client.exchange(0, new byte[] {(byte) context.partitionId()});
                client.done();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return partition;
        }
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
