package org.sparkmc.core.lda;

import java.util.Arrays;
import org.sparkmc.core.random.RandomStreams;

/**
 * Model-parallel collapsed LDA on one machine ({@link ModelParallelLda}): the corpus cut into P contiguous
 * document blocks as {@link Corpus#blocks} cuts it, the vocabulary into P word slices balanced by tokens, and every
 * sweep run as P sub-steps in which block b samples its tokens of slice (b + s) mod P, the blocks in turn. It is the
 * single-JVM counterpart of the Spark job's model-parallel mode — the same calls with the same stream keys and the
 * same synchronisation of the topic totals — so the two give the same topics bit for bit for the same documents,
 * seed and P. Follows initialise → next sweep → result.
 */
public final class ModelParallelDriver {
    /** When the blocks' changes of the K topic totals are added into the shared totals. */
    public enum TotalsSync {
        /** After every sub-step: a block's totals are stale by at most its own sub-step's changes of the others. */
        SUB_STEP,
        /** After every sweep (as LightLDA): a block sees the others' changes of the totals one sweep late. */
        SWEEP
    }

    private final Corpus[] blocks;
    private final char[][] topics;
    private final WordSlices wordSlices;
    private final LdaPriors priors;
    private final LdaKernel kernel;
    private final RandomStreams streams;
    private final TotalsSync sync;
    private TopicWordSlice[] slices;
    private int[] totals;
    private final int[][] changes;
    private int sweeps;

    private ModelParallelDriver(Corpus corpus, int numBlocks, LdaPriors priors, LdaKernel kernel,
            RandomStreams streams, TotalsSync sync) {
        this.wordSlices = WordSlices.balanced(corpus.wordFrequencies(), numBlocks);
        Corpus[] cut = corpus.blocks(numBlocks);
        this.blocks = new Corpus[numBlocks];
        this.topics = new char[numBlocks][];
        this.priors = priors;
        this.kernel = kernel;
        this.streams = streams;
        this.sync = sync;
        this.changes = new int[numBlocks][priors.numTopics()];
        TopicWordSlice[] sum = null;
        for (int b = 0; b < numBlocks; b++) {
            blocks[b] = wordSlices.arrange(cut[b]);
            topics[b] = ModelParallelLda.initialTopics(blocks[b], b, priors, streams);
            TopicWordSlice[] own = ModelParallelLda.blockSlices(blocks[b], topics[b], wordSlices,
                    priors.numTopics());
            if (sum == null) {
                sum = own;
            } else {
                for (int j = 0; j < numBlocks; j++) {
                    sum[j] = sum[j].plus(own[j]);
                }
            }
        }
        this.slices = sum;
        this.totals = new int[priors.numTopics()];
        for (TopicWordSlice s : slices) {
            add(totals, s.topicSums());
        }
    }

    /**
     * Random initial topics for {@code corpus} cut into {@code numBlocks} blocks and as many word slices, swept with
     * the SparseLDA Gibbs kernel.
     */
    public static ModelParallelDriver start(Corpus corpus, int numBlocks, LdaPriors priors, RandomStreams streams,
            TotalsSync sync) {
        return start(corpus, numBlocks, priors, LdaKernel.SPARSE_GIBBS, streams, sync);
    }

    /** As {@link #start(Corpus, int, LdaPriors, RandomStreams, TotalsSync)}, swept with {@code kernel}. */
    public static ModelParallelDriver start(Corpus corpus, int numBlocks, LdaPriors priors, LdaKernel kernel,
            RandomStreams streams, TotalsSync sync) {
        return new ModelParallelDriver(corpus, numBlocks, priors, kernel, streams, sync);
    }

    /** One sweep: P sub-steps, every block sampling its tokens of one slice in each. */
    public void sweep() {
        int p = blocks.length;
        for (int s = 0; s < p; s++) {
            TopicWordSlice[] next = new TopicWordSlice[p];
            for (int b = 0; b < p; b++) {
                int j = ModelParallelLda.sliceOf(b, s, p);
                int[] view = plus(totals, changes[b]);
                ModelParallelLda.SubStep r = ModelParallelLda.sample(blocks[b], topics[b], slices[j], view,
                        wordSlices, priors, kernel, streams, sweeps, b);
                topics[b] = r.topics();
                next[j] = r.slice();
                for (int k = 0; k < view.length; k++) {
                    changes[b][k] += r.topicTotals()[k] - view[k];
                }
            }
            slices = next;
            if (sync == TotalsSync.SUB_STEP || s == p - 1) {
                for (int[] c : changes) {
                    add(totals, c);
                    Arrays.fill(c, 0);
                }
            }
        }
        sweeps++;
    }

    private static int[] plus(int[] a, int[] b) {
        int[] out = a.clone();
        add(out, b);
        return out;
    }

    private static void add(int[] into, int[] b) {
        for (int k = 0; k < into.length; k++) {
            into[k] += b[k];
        }
    }

    public int sweepsDone() {
        return sweeps;
    }

    /** The topic–word counts of the current state, the slices put together. */
    public TopicWordCounts counts() {
        return TopicWordSlice.assemble(Arrays.asList(slices), wordSlices.vocabularySize());
    }

    /** The shared topic totals (after a sweep, the column sums of the counts). */
    public int[] topicTotals() {
        return totals.clone();
    }

    /** Slice j's counts (shared; immutable). */
    public TopicWordSlice slice(int slice) {
        return slices[slice];
    }

    public WordSlices wordSlices() {
        return wordSlices;
    }

    /** The topics of block b's tokens, aligned with {@link #block(int)} (shared; do not modify). */
    public char[] topics(int block) {
        return topics[block];
    }

    /** Block b, arranged: each document's tokens ordered by slice. */
    public Corpus block(int block) {
        return blocks[block];
    }

    public int numBlocks() {
        return blocks.length;
    }

    /** log p(w, z) of the current state, from its parts as {@link ModelParallelLda#logLikelihood} adds them. */
    public double logLikelihood() {
        double[] cells = new double[slices.length];
        for (int j = 0; j < slices.length; j++) {
            cells[j] = slices[j].cellTerm(priors.beta());
        }
        double[] docs = new double[blocks.length];
        for (int b = 0; b < blocks.length; b++) {
            docs[b] = LdaLogLikelihood.documentTerm(blocks[b], topics[b], priors);
        }
        return ModelParallelLda.logLikelihood(cells, totals, wordSlices.vocabularySize(), docs, priors.beta());
    }
}
