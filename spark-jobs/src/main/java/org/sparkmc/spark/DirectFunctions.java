package org.sparkmc.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.FutureAction;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.Function;
import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractFunction0;
import scala.runtime.AbstractFunction1;
import scala.runtime.AbstractFunction2;
import scala.runtime.BoxedUnit;

/**
 * {@code map} and map-then-{@code collect} (now or submitted) for the per-step jobs, passing Spark a named function object instead of
 * the Scala closures that the Java API and {@code RDD.collect} wrap around a lambda. Spark's closure cleaner skips
 * named classes; for a closure it reads and parses the defining class's bytecode (e.g. {@code RDD.class} from the
 * Spark jar) on every call: 55% of the {@code lda} driver's CPU per sweep on KOS. The functions run exactly as
 * with the Java API (still serialised with the task), so no result changes.
 */
public final class DirectFunctions {
    private static final ClassTag<Object> ANY = ClassTag$.MODULE$.AnyRef();

    private DirectFunctions() {
    }

    /** {@code rdd.map(f)}. */
    @SuppressWarnings("unchecked")
    public static <T, R> JavaRDD<R> map(JavaRDD<T> rdd, Function<T, R> f) {
        ClassTag<R> tag = (ClassTag<R>) (ClassTag<?>) ANY;
        return new JavaRDD<>(rdd.rdd().map(new Apply<>(f), tag), tag);
    }

    /** {@code rdd.map(f).collect()}: one job, the results in partition order. */
    @SuppressWarnings("unchecked")
    public static <T, R> List<R> mapCollect(JavaRDD<T> rdd, Function<T, R> f) {
        Object[] parts = (Object[]) rdd.context().runJob(rdd.rdd(), new ApplyAll<>(f),
                ClassTag$.MODULE$.apply(Object[].class));
        List<R> out = new ArrayList<>();
        for (Object part : parts) {
            for (Object r : (Object[]) part) {
                out.add((R) r);
            }
        }
        return out;
    }

    /**
     * {@code rdd.map(f).collectAsync()}: the job is submitted now and runs while the caller goes on. Its tasks run as
     * {@link #mapCollect}'s; {@link Collecting#get()} waits for them. Like Spark's {@code collectAsync}, and unlike
     * {@link #mapCollect} ({@code runJob}), it does not write the RDD checkpoints marked on {@code rdd}'s lineage, so
     * it is not for RDDs whose lineage must be cut (a later job would still serialise, for instance, the destroyed
     * broadcasts of earlier steps).
     */
    public static <T, R> Collecting<R> mapCollectAsync(JavaRDD<T> rdd, Function<T, R> f) {
        return mapCollectAsync(rdd, f, (partition, results) -> { });
    }

    /** Told on the driver as each partition's results arrive, on Spark's scheduler thread: it must be quick. */
    public interface PartitionDone<R> {
        void done(int partition, List<R> results);
    }

    /** {@link #mapCollectAsync(JavaRDD, Function)} that tells {@code onEach} of every partition's results. */
    public static <T, R> Collecting<R> mapCollectAsync(JavaRDD<T> rdd, Function<T, R> f, PartitionDone<R> onEach) {
        int partitions = rdd.getNumPartitions();
        Object[][] parts = new Object[partitions][];
        List<Object> ids = new ArrayList<>(partitions);
        for (int p = 0; p < partitions; p++) {
            ids.add(p);
        }
        FutureAction<BoxedUnit> job = rdd.context().submitJob(rdd.rdd(), new ApplyEach<>(f),
                CollectionConverters.asScala(ids).toSeq(), new Store<>(parts, onEach), new Done());
        return new Collecting<>(job, parts);
    }

    /** A submitted {@link #mapCollectAsync} job. */
    public static final class Collecting<R> {
        private final FutureAction<BoxedUnit> job;
        private final Object[][] parts;

        private Collecting(FutureAction<BoxedUnit> job, Object[][] parts) {
            this.job = job;
            this.parts = parts;
        }

        /**
         * Waits for the job and returns its results in partition order.
         *
         * @throws RuntimeException Spark's failure of the job (a {@code SparkException}, which Scala throws undeclared)
         */
        @SuppressWarnings("unchecked")
        public List<R> get() {
            try {
                job.get();
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Exception e) { // SparkException: the job failed
                throw new IllegalStateException(e.getMessage(), e);
            }
            List<R> out = new ArrayList<>();
            for (Object[] part : parts) {
                for (Object r : part) {
                    out.add((R) r);
                }
            }
            return out;
        }

        /** Whether the job has ended, done, failed or cancelled. */
        public boolean isDone() {
            return job.isCompleted();
        }

        /** Cancels the job if it still runs. */
        public void cancel() {
            job.cancel();
        }
    }

    /** Keeps each partition's results where {@link Collecting#get()} reads them once the job is done. */
    private static final class Store<R> extends AbstractFunction2<Object, Object[], BoxedUnit> {
        private final Object[][] parts;
        private final PartitionDone<R> onEach;

        Store(Object[][] parts, PartitionDone<R> onEach) {
            this.parts = parts;
            this.onEach = onEach;
        }

        @Override
        @SuppressWarnings("unchecked")
        public BoxedUnit apply(Object partition, Object[] results) {
            parts[(Integer) partition] = results;
            onEach.done((Integer) partition, (List<R>) (List<?>) java.util.Arrays.asList(results));
            return BoxedUnit.UNIT;
        }
    }

    /** The submitted job's own result: nothing (the results are in {@link Store}). */
    private static final class Done extends AbstractFunction0<BoxedUnit> {
        @Override
        public BoxedUnit apply() {
            return BoxedUnit.UNIT;
        }
    }

    /** One element through {@code f}. */
    private static final class Apply<T, R> extends AbstractFunction1<T, R> implements Serializable {
        private static final long serialVersionUID = 1L;
        private final Function<T, R> f;

        Apply(Function<T, R> f) {
            this.f = f;
        }

        @Override
        public R apply(T t) {
            try {
                return f.call(t);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** A partition's elements through {@code f}, as an array (for {@code runJob}). */
    private static final class ApplyAll<T, R> extends AbstractFunction2<TaskContext, Iterator<T>, Object[]>
            implements Serializable {
        private static final long serialVersionUID = 1L;
        private final ApplyEach<T, R> each;

        ApplyAll(Function<T, R> f) {
            this.each = new ApplyEach<>(f);
        }

        @Override
        public Object[] apply(TaskContext context, Iterator<T> it) {
            return each.apply(it);
        }
    }

    /** A partition's elements through {@code f}, as an array (for {@code submitJob}). */
    private static final class ApplyEach<T, R> extends AbstractFunction1<Iterator<T>, Object[]>
            implements Serializable {
        private static final long serialVersionUID = 1L;
        private final Apply<T, R> f;

        ApplyEach(Function<T, R> f) {
            this.f = new Apply<>(f);
        }

        @Override
        public Object[] apply(Iterator<T> it) {
            List<Object> out = new ArrayList<>();
            while (it.hasNext()) {
                out.add(f.apply(it.next()));
            }
            return out.toArray();
        }
    }
}
