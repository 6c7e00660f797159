package org.sparkmc.spark.consensus;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.Partitioner;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.function.PairFlatMapFunction;
import org.sparkmc.core.consensus.ShardAssignment;
import scala.Tuple2;

/**
 * The table's rows cut into shards, shard s in partition s, the copies of identical rows spread over the shards as
 * {@link ShardAssignment#shards} says; rows travel between executors only.
 *
 * <p>Counting a row's copies needs all of them in one place. The rows are shuffled by the shard of their key
 * ({@link ShardAssignment#key}), which every copy of a row shares, so partition s then holds every copy of each of
 * its rows. A row's first copy belongs to shard(key) = s and stays; only the later copies that belong elsewhere
 * move, in a second shuffle (nothing at all for a table of distinct rows). Partition s is read twice, once to find
 * what moves and once to keep what stays; both reads count the same copies, and which of the identical copies
 * moves does not matter. Shard s is then its stayers and the copies that moved to it: a union of the two RDDs,
 * partitioned alike, which Spark joins partition by partition.
 */
final class ShardedRows {
    private ShardedRows() {
    }

    /**
     * Shard s's rows in partition s.
     *
     * @param byKey each row keyed by the shard of its {@link ShardAssignment#key} ({@link GlmTable#byShard})
     * @return each row keyed by its shard, partitioned by {@link ShardPartitioner}
     */
    static JavaPairRDD<Integer, double[]> of(JavaPairRDD<Integer, double[]> byKey, int shards, long seed) {
        ShardPartitioner partitioner = new ShardPartitioner(shards);
        JavaPairRDD<Integer, double[]> grouped = byKey.partitionBy(partitioner);
        JavaPairRDD<Integer, double[]> stay = grouped.mapPartitionsToPair(new Copies(seed, shards, true), true);
        JavaPairRDD<Integer, double[]> moved = grouped.mapPartitionsToPair(new Copies(seed, shards, false))
                .partitionBy(partitioner);
        return stay.union(moved);
    }

    /** Shard s is partition s: the key is the shard. */
    static final class ShardPartitioner extends Partitioner {
        private static final long serialVersionUID = 1L;
        private final int shards;

        ShardPartitioner(int shards) {
            this.shards = shards;
        }

        @Override
        public int numPartitions() {
            return shards;
        }

        @Override
        public int getPartition(Object key) {
            return (Integer) key;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ShardPartitioner p && p.shards == shards;
        }

        @Override
        public int hashCode() {
            return shards;
        }
    }

    /**
     * The rows of one partition of the first shuffle that stay in its shard ({@code stay}), or those that move, keyed
     * by the shard they move to. A named function: nothing captured but what it holds.
     */
    private static final class Copies implements PairFlatMapFunction<Iterator<Tuple2<Integer, double[]>>, Integer,
            double[]> {
        private static final long serialVersionUID = 1L;
        private final long seed;
        private final int shards;
        private final boolean stay;

        Copies(long seed, int shards, boolean stay) {
            this.seed = seed;
            this.shards = shards;
            this.stay = stay;
        }

        @Override
        public Iterator<Tuple2<Integer, double[]>> call(Iterator<Tuple2<Integer, double[]>> rows) {
            List<double[]> list = new ArrayList<>();
            int here = -1;
            while (rows.hasNext()) {
                Tuple2<Integer, double[]> row = rows.next();
                here = row._1();
                list.add(row._2());
            }
            double[][] all = list.toArray(double[][]::new);
            list.clear();
            int[] to = ShardAssignment.shards(seed, all, shards);
            int shard = here;
            return new Iterator<>() {
                private int next = advance(0);

                private int advance(int from) {
                    int i = from;
                    while (i < all.length && (to[i] == shard) != stay) {
                        i++;
                    }
                    return i;
                }

                @Override
                public boolean hasNext() {
                    return next < all.length;
                }

                @Override
                public Tuple2<Integer, double[]> next() {
                    if (!hasNext()) {
                        throw new java.util.NoSuchElementException();
                    }
                    Tuple2<Integer, double[]> row = new Tuple2<>(to[next], all[next]);
                    all[next] = null;
                    next = advance(next + 1);
                    return row;
                }
            };
        }
    }
}
