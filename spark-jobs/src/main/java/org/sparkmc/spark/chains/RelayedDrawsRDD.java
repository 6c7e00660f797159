package org.sparkmc.spark.chains;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.Partition;
import org.apache.spark.SparkContext;
import org.apache.spark.SparkEnv;
import org.apache.spark.TaskContext;
import org.apache.spark.rdd.RDD;
import org.apache.spark.storage.RDDBlockId;
import org.apache.spark.storage.StorageLevel;
import org.sparkmc.core.mcmc.ChainRound;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.RoundResult;
import org.sparkmc.core.random.RandomStreams;
import scala.collection.Iterator;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

/**
 * The sampling rounds that a relayed stage of the {@code chains} job kept, as a persisted RDD with the stage's
 * partitions. Each task of the stage stores its partition's rounds in its executor's block store as this RDD's
 * cached partition ({@link #keep}), so the draws stay where they were sampled, as a job per round's persisted rounds
 * do, and nothing copies them through a shuffle. A partition lost later (with its executor, or after
 * {@code unpersist}) is computed again by replaying its chains from the states they had before the first kept round,
 * with the same (chain, round) streams: the same draws, round after round.
 *
 * <p>Partition p holds the chains that {@code parallelize} gives slice p of the chains (chain order), each round's
 * chains in chain order, rounds in order: the order the stage's task kept them in.
 */
final class RelayedDrawsRDD extends RDD<RoundResult> {
    private static final long serialVersionUID = 1L;
    private static final ClassTag<RoundResult> TAG = ClassTag$.MODULE$.apply(RoundResult.class);
    private static final StorageLevel LEVEL = StorageLevel.MEMORY_AND_DISK();

    private final int partitions;
    private final ChainsConfig config;
    private final RandomStreams streams;
    /** Every chain's state before the first kept round, in chain order; null until that round is kept. */
    private List<ChainState> before;
    private int firstRound;
    private int lastRound;

    /** An empty, persisted RDD of {@code partitions} partitions, for a stage's tasks to {@linkplain #keep fill}. */
    RelayedDrawsRDD(SparkContext sc, int partitions, ChainsConfig config, RandomStreams streams) {
        super(sc, CollectionConverters.asScala(List.<org.apache.spark.Dependency<?>>of()).toSeq(), TAG);
        this.partitions = partitions;
        this.config = config;
        this.streams = streams;
        persist(LEVEL);
    }

    /**
     * Records, on the driver, that the stage kept {@code round}, whose chains started from {@code statesBefore}
     * (in chain order; only the first kept round's are needed, as the later rounds follow from it).
     */
    void kept(int round, List<ChainState> statesBefore) {
        if (before == null) {
            before = List.copyOf(statesBefore);
            firstRound = round;
        } else if (round != lastRound + 1) {
            throw new IllegalStateException("round " + round + " kept after round " + lastRound);
        }
        lastRound = round;
    }

    /**
     * In a task of the relayed stage: stores its partition's kept rounds in the executor's block store, as this
     * RDD's cached partition (Spark's block manager, and its master, learn of it as of any cached partition).
     */
    static void keep(int rddId, int partition, List<RoundResult> rounds) {
        SparkEnv.get().blockManager().putIterator(new RDDBlockId(rddId, partition),
                CollectionConverters.asScala(rounds.iterator()), LEVEL, true, TAG);
    }

    /** Spark's own messages about this RDD (caching, unpersisting) go where those about its RDDs go. */
    @Override
    public String logName() {
        return "org.apache.spark.rdd.RelayedDrawsRDD";
    }

    @Override
    public Partition[] getPartitions() {
        Partition[] out = new Partition[partitions];
        for (int i = 0; i < partitions; i++) {
            out[i] = new Slice(i);
        }
        return out;
    }

    /** Partition i: the chains of the stage's slice i. */
    private record Slice(int index) implements Partition {
    }

    /** Replays partition {@code split}'s kept rounds (when its cached copy is gone). */
    @Override
    public Iterator<RoundResult> compute(Partition split, TaskContext context) {
        if (before == null) {
            return CollectionConverters.asScala(java.util.Collections.<RoundResult>emptyIterator());
        }
        int chains = before.size();
        int from = (int) ((long) split.index() * chains / partitions); // ParallelCollectionRDD's slices
        int to = (int) ((long) (split.index() + 1) * chains / partitions);
        List<ChainState> states = new ArrayList<>(before.subList(from, to));
        List<RoundResult> out = new ArrayList<>();
        for (int r = firstRound; r <= lastRound; r++) {
            for (int c = 0; c < states.size(); c++) {
                RoundResult result = ChainRound.run(config.target(), config.kernel(), states.get(c), r,
                        config.iterations(r), false, true, streams);
                states.set(c, result.state());
                out.add(result);
            }
        }
        return CollectionConverters.asScala(out.iterator());
    }
}
