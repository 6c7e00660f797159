package org.sparkmc.spark.bench;

import java.io.Serializable;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.storage.StorageLevel;
import org.sparkmc.spark.SparkSetup;
import scala.collection.Iterator;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractFunction1;

/**
 * The floor under any per-step Spark job on this machine: the median wall time of (a) {@code map} + {@code collect}
 * over 2 cached partitions, (b) the same reading a fresh 150 KB broadcast per job (the lda job's counts), (c) a
 * persisted {@code map} whose result is then collected by a second map (the lda and smc jobs' step shape), and
 * (d) {@code treeAggregate} of a 150 KB int array per partition.
 *
 * <p>Usage: {@code submit/bench spark-jobs org.sparkmc.spark.bench.MinimalJobBenchmark [jobs] [master] [partitions]}
 */
public final class MinimalJobBenchmark {
    private static final int CHAIN = 100;

    public static void main(String[] args) {
        int jobs = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        String master = args.length > 1 ? args[1] : "local[2]";
        int partitions = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        SparkSession spark = SparkSetup.session("minimal-job", master);
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(spark.sparkContext());
        List<Integer> ids = java.util.stream.IntStream.range(0, partitions).boxed().toList();
        JavaRDD<Integer> cached = sc.parallelize(ids, partitions).persist(StorageLevel.MEMORY_ONLY());
        cached.count();
        System.out.printf(Locale.ROOT, "%s, %d partitions, %d jobs each, median ms per job%n", master, partitions,
                jobs);
        System.out.printf(Locale.ROOT, "map+collect: %.2f%n", median(jobs, () -> cached.map(x -> x + 1).collect()));
        scala.collection.immutable.Seq<Object> both = scala.jdk.javaapi.CollectionConverters.asScala(
                List.<Object>copyOf(ids)).toSeq();
        System.out.printf(Locale.ROOT, "the same with named functions (no closure cleaning): %.2f%n", median(jobs,
                () -> sc.sc().runJob(cached.rdd().map(new PlusOne(), INT), new ToArrayInTask(), both,
                        ClassTag$.MODULE$.apply(Object[].class))));
        System.out.printf(Locale.ROOT, "map+collect again: %.2f%n", median(jobs, () -> cached.map(x -> x + 1).collect()));
        int[] payload = new int[37_000];
        System.out.printf(Locale.ROOT, "map+collect with a new 150 KB broadcast: %.2f%n", median(jobs, () -> {
            Broadcast<int[]> b = sc.broadcast(payload);
            cached.map(x -> x + b.value().length).collect();
            b.destroy(false);
        }));
        System.out.printf(Locale.ROOT, "persisted map, then map+collect of it: %.2f%n",
                median(jobs, chainOfPersistedMaps(cached, true)));
        System.out.printf(Locale.ROOT, "the same without unpersisting the previous: %.2f%n",
                median(jobs, chainOfPersistedMaps(cached, false)));
        System.out.printf(Locale.ROOT, "treeAggregate of a 150 KB int[] per partition: %.2f%n", median(jobs,
                () -> cached.treeAggregate(new int[37_000], (a, x) -> {
                    a[x] += 1;
                    return a;
                }, (a, c) -> {
                    for (int i = 0; i < a.length; i++) {
                        a[i] += c[i];
                    }
                    return a;
                })));
        spark.stop();
    }

    private static final ClassTag<Integer> INT = ClassTag$.MODULE$.apply(Integer.class);

    /** x + 1 as a named class: Spark's closure cleaner skips it. */
    private static final class PlusOne extends AbstractFunction1<Integer, Integer> implements Serializable {
        @Override
        public Integer apply(Integer x) {
            return x + 1;
        }
    }

    /** A partition's elements as an array, as a named class. */
    private static final class ToArray extends AbstractFunction1<Iterator<Integer>, Object[]>
            implements Serializable {
        @Override
        public Object[] apply(Iterator<Integer> it) {
            java.util.List<Object> out = new java.util.ArrayList<>();
            it.foreach(out::add);
            return out.toArray();
        }
    }

    /** {@link ToArray} with the task context, the form {@code runJob} runs without wrapping it in a closure. */
    private static final class ToArrayInTask
            extends scala.runtime.AbstractFunction2<org.apache.spark.TaskContext, Iterator<Integer>, Object[]>
            implements Serializable {
        @Override
        public Object[] apply(org.apache.spark.TaskContext context, Iterator<Integer> it) {
            return new ToArray().apply(it);
        }
    }

    /**
     * A job that persists a map of the previous job's RDD and collects a map of it (the lda and smc jobs' step
     * shape). The chain starts again from {@code start} every {@value #CHAIN} jobs, as the jobs cut their lineage:
     * a lineage hundreds of maps deep overflows the stack when a task is serialised. (RDDs left persisted are
     * removed by Spark's context cleaner once unreachable.)
     */
    private static Runnable chainOfPersistedMaps(JavaRDD<Integer> start, boolean unpersistPrevious) {
        int[] jobs = {0};
        var previous = new java.util.concurrent.atomic.AtomicReference<>(start);
        return () -> {
            JavaRDD<Integer> from = jobs[0]++ % CHAIN == 0 ? start : previous.get();
            JavaRDD<Integer> next = from.map(x -> x + 1).persist(StorageLevel.MEMORY_AND_DISK());
            next.map(x -> x).collect();
            if (unpersistPrevious && from != start) {
                from.unpersist(false);
            }
            previous.set(next);
        };
    }

    private static double median(int jobs, Runnable job) {
        for (int i = 0; i < Math.max(20, jobs / 10); i++) {
            job.run();
        }
        double[] ms = new double[jobs];
        for (int i = 0; i < jobs; i++) {
            long t0 = System.nanoTime();
            job.run();
            ms[i] = (System.nanoTime() - t0) / 1e6;
        }
        Arrays.sort(ms);
        return ms[jobs / 2];
    }
}
