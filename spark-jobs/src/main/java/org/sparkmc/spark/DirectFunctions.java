package org.sparkmc.spark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.function.Function;
import scala.collection.Iterator;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;
import scala.runtime.AbstractFunction1;
import scala.runtime.AbstractFunction2;

/**
 * {@code map} and map-then-{@code collect} for the per-step jobs, passing Spark a named function object instead of
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

    /** A partition's elements through {@code f}, as an array. */
    private static final class ApplyAll<T, R> extends AbstractFunction2<TaskContext, Iterator<T>, Object[]>
            implements Serializable {
        private static final long serialVersionUID = 1L;
        private final Apply<T, R> f;

        ApplyAll(Function<T, R> f) {
            this.f = new Apply<>(f);
        }

        @Override
        public Object[] apply(TaskContext context, Iterator<T> it) {
            List<Object> out = new ArrayList<>();
            while (it.hasNext()) {
                out.add(f.apply(it.next()));
            }
            return out.toArray();
        }
    }
}
