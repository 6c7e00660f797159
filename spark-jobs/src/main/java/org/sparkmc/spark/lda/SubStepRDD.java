package org.sparkmc.spark.lda;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.NarrowDependency;
import org.apache.spark.OneToOneDependency;
import org.apache.spark.Partition;
import org.apache.spark.TaskContext;
import org.apache.spark.rdd.RDD;
import org.sparkmc.core.lda.Corpus;
import scala.Tuple2;
import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * One sub-step of model-parallel LDA as an RDD of n partitions: partition i samples its document blocks (partition i
 * of the cached documents) with its blocks' topics (partition i of the previous state) and the word slices of its
 * neighbour (partition (i + 1) mod n of the previous state). The slices thus rotate by one partition per sub-step,
 * read from the neighbour's cached block through Spark's block manager, executor to executor — never through the
 * driver, and without shuffle files. With P blocks and slices on n partitions (n dividing P, block b and the slice
 * it holds in partition b mod n), block b holds slice (b + s) mod P in sub-step s.
 *
 * <p>Both dependencies are narrow, so a sub-step is one stage; its tasks prefer the executors that cache their
 * documents. A lost partition is recomputed from the previous state, by the same deterministic sub-step.
 */
final class SubStepRDD extends RDD<ModelParallelState> {
    private static final long serialVersionUID = 1L;
    private static final ClassTag<ModelParallelState> TAG = ClassTag$.MODULE$.apply(ModelParallelState.class);

    // Not final: a checkpoint cuts the lineage by dropping them (clearDependencies).
    private RDD<Tuple2<Integer, Corpus>> docs;
    private RDD<ModelParallelState> state;
    private final ModelParallelSubStep step;

    /** @param docs and {@code state} with the same number of partitions, laid out by block (b mod n) */
    SubStepRDD(RDD<Tuple2<Integer, Corpus>> docs, RDD<ModelParallelState> state, ModelParallelSubStep step) {
        super(docs.context(), dependencies(docs, state), TAG);
        if (docs.getNumPartitions() != state.getNumPartitions()) {
            throw new IllegalArgumentException(docs.getNumPartitions() + " document partitions, "
                    + state.getNumPartitions() + " state partitions");
        }
        this.docs = docs;
        this.state = state;
        this.step = step;
    }

    private static scala.collection.immutable.Seq<org.apache.spark.Dependency<?>> dependencies(
            RDD<Tuple2<Integer, Corpus>> docs, RDD<ModelParallelState> state) {
        List<org.apache.spark.Dependency<?>> deps = List.of(new OneToOneDependency<>(docs), new Rotation(state));
        return CollectionConverters.asScala(deps).toSeq();
    }

    /** Partition i of a sub-step depends on partitions i and (i + 1) mod n of the previous state. */
    private static final class Rotation extends NarrowDependency<ModelParallelState> {
        private static final long serialVersionUID = 1L;

        Rotation(RDD<ModelParallelState> state) {
            super(state);
        }

        @Override
        public scala.collection.immutable.Seq<Object> getParents(int partitionId) {
            int n = rdd().getNumPartitions();
            List<Object> parents = n == 1 ? List.of(partitionId) : List.of(partitionId, (partitionId + 1) % n);
            return CollectionConverters.asScala(parents).toSeq();
        }
    }

    /** Partition i, holding its parents' partitions (serialised with the task). */
    private static final class SubStepPartition implements Partition {
        private static final long serialVersionUID = 1L;
        private final int index;
        private final Partition docs;
        private final Partition own;
        private final Partition next;

        SubStepPartition(int index, Partition docs, Partition own, Partition next) {
            this.index = index;
            this.docs = docs;
            this.own = own;
            this.next = next;
        }

        @Override
        public int index() {
            return index;
        }

        @Override
        public int hashCode() {
            return index;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof SubStepPartition p && p.index == index;
        }
    }

    /** Spark's own messages about this RDD (caching, unpersisting) go where those about its RDDs go. */
    @Override
    public String logName() {
        return "org.apache.spark.rdd.SubStepRDD";
    }

    /** After a checkpoint: the parents may be collected (and their shuffles and broadcasts cleaned). */
    @Override
    public void clearDependencies() {
        super.clearDependencies();
        docs = null;
        state = null;
    }

    @Override
    public Partition[] getPartitions() {
        Partition[] d = docs.partitions();
        Partition[] s = state.partitions();
        int n = d.length;
        Partition[] out = new Partition[n];
        for (int i = 0; i < n; i++) {
            out[i] = new SubStepPartition(i, d[i], s[i], s[(i + 1) % n]);
        }
        return out;
    }

    @Override
    public Iterator<ModelParallelState> compute(Partition split, TaskContext context) {
        SubStepPartition p = (SubStepPartition) split;
        List<ModelParallelState.BlockTopics> topics = new ArrayList<>();
        List<ModelParallelState.SliceCounts> slices = new ArrayList<>();
        CollectionConverters.asJava(state.iterator(p.own, context)).forEachRemaining(item -> {
            if (item instanceof ModelParallelState.BlockTopics t) {
                topics.add(t);
            } else if (p.next.index() == p.index()) {
                slices.add((ModelParallelState.SliceCounts) item);
            }
        });
        if (p.next.index() != p.index()) {
            CollectionConverters.asJava(state.iterator(p.next, context)).forEachRemaining(item -> {
                if (item instanceof ModelParallelState.SliceCounts c) {
                    slices.add(c);
                }
            });
        }
        List<ModelParallelState> out = step.apply(context.partitionId(),
                CollectionConverters.asJava(docs.iterator(p.docs, context)), topics, slices);
        return CollectionConverters.asScala(out.iterator());
    }
}
