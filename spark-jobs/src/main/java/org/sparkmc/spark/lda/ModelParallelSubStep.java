package org.sparkmc.spark.lda;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.broadcast.Broadcast;
import org.sparkmc.core.lda.Corpus;
import org.sparkmc.core.lda.LdaKernel;
import org.sparkmc.core.lda.LdaLogLikelihood;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.ModelParallelLda;
import org.sparkmc.core.lda.WordSlices;
import org.sparkmc.core.random.RandomStreams;
import scala.Tuple2;

/**
 * What a partition does in one sub-step of model-parallel LDA: each of its blocks samples its tokens of the slice it
 * holds ({@link ModelParallelLda#sample}), against the topic totals of the last synchronisation (right after one)
 * or its own view of them (between two). It returns the blocks' new topics and the slices' new counts; at the end
 * of a sweep also their terms of log p(w, z). No number depends on the partition or on the order of its blocks.
 */
final class ModelParallelSubStep implements Serializable {
    private static final long serialVersionUID = 1L;

    private final Broadcast<WordSlices> slices;
    private final LdaPriors priors;
    private final LdaKernel kernel;
    private final RandomStreams streams;
    private final int sweep;
    private final int subStep;
    private final int[] syncedTotals;
    private final boolean afterSync;
    private final boolean syncAfter;

    /**
     * @param sweep the sweep (0-based), which with the block and slice keys the streams
     * @param subStep s in 0..P−1
     * @param syncedTotals the topic totals of the last synchronisation
     * @param afterSync whether the totals were synchronised right before this sub-step (the blocks' views then
     *     restart from them)
     * @param syncAfter whether they are synchronised after it (the blocks then report their views)
     */
    ModelParallelSubStep(Broadcast<WordSlices> slices, LdaPriors priors, LdaKernel kernel, RandomStreams streams,
            int sweep, int subStep, int[] syncedTotals, boolean afterSync, boolean syncAfter) {
        this.slices = slices;
        this.priors = priors;
        this.kernel = kernel;
        this.streams = streams;
        this.sweep = sweep;
        this.subStep = subStep;
        this.syncedTotals = syncedTotals.clone();
        this.afterSync = afterSync;
        this.syncAfter = syncAfter;
    }

    /** The partition's new states: every block's topics and the slices its blocks held. */
    List<ModelParallelState> apply(int partition, Iterator<Tuple2<Integer, Corpus>> docs,
            List<ModelParallelState.BlockTopics> topics, List<ModelParallelState.SliceCounts> held) {
        WordSlices ws = slices.value();
        int p = ws.numSlices();
        boolean sweepEnd = subStep == p - 1;
        Map<Integer, ModelParallelState.BlockTopics> byBlock = new TreeMap<>();
        topics.forEach(t -> byBlock.put(t.block(), t));
        Map<Integer, ModelParallelState.SliceCounts> bySlice = new TreeMap<>();
        held.forEach(c -> bySlice.put(c.counts().slice(), c));
        List<ModelParallelState> out = new ArrayList<>(2 * byBlock.size());
        while (docs.hasNext()) {
            Tuple2<Integer, Corpus> doc = docs.next();
            int b = doc._1();
            int j = ModelParallelLda.sliceOf(b, subStep, p);
            ModelParallelState.BlockTopics own = byBlock.remove(b);
            ModelParallelState.SliceCounts slice = bySlice.remove(j);
            if (own == null || slice == null) {
                throw new IllegalStateException("sub-step " + subStep + " of sweep " + sweep + ": block " + b
                        + (own == null ? " has no topics" : " does not hold slice " + j) + " in partition "
                        + partition);
            }
            long t0 = System.nanoTime();
            ModelParallelLda.SubStep r = ModelParallelLda.sample(doc._2(), own.topics(), slice.counts(),
                    afterSync ? syncedTotals : own.totals(), ws, priors, kernel, streams, sweep, b);
            double seconds = (System.nanoTime() - t0) / 1e9;
            out.add(new ModelParallelState.BlockTopics(b, r.topics(), r.topicTotals(), syncAfter,
                    sweepEnd ? LdaLogLikelihood.documentTerm(doc._2(), r.topics(), priors) : Double.NaN, seconds,
                    partition));
            out.add(new ModelParallelState.SliceCounts(r.slice(),
                    sweepEnd ? r.slice().cellTerm(priors.beta()) : Double.NaN));
        }
        if (!byBlock.isEmpty() || !bySlice.isEmpty()) {
            throw new IllegalStateException("sub-step " + subStep + " of sweep " + sweep + ": blocks " + byBlock.keySet()
                    + " without documents, slices " + bySlice.keySet() + " without a block in partition " + partition);
        }
        return out;
    }
}
