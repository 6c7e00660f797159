package org.sparkmc.core.lda;

import java.util.Arrays;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * A Metropolis–Hastings kernel for collapsed LDA in O(1) per token, whatever K: LightLDA's cycle proposal (Yuan et al.
 * 2015) — alternately a word proposal q_w(k) ∝ n_{k,w} + β and a document proposal q_d(k) ∝ n_{d,k} + α, each
 * accepted with the MH ratio against the exact conditional
 * p(k) ∝ (n_{d,k} + α)(n_{k,w} + β)/(n_k + Wβ) (all counts without token i), which reduces to
 * <pre>
 *   word step: min(1, (n_{d,t} + α)(n_s + Wβ) / ((n_{d,s} + α)(n_t + Wβ)))
 *   doc step:  min(1, (n_{t,w} + β)(n_s + Wβ) / ((n_{s,w} + β)(n_t + Wβ)))
 * </pre>
 * for a move from topic s to t. This is an MH kernel, not a Gibbs draw: each step leaves the token's exact full
 * conditional invariant, so the chain's stationary distribution is exactly the collapsed posterior; successive
 * sweeps are more correlated than Gibbs sweeps, so it needs more sweeps for the same quality.
 *
 * <p>Both proposals are drawn exactly from the current counts without token i, so neither depends on the topic being
 * updated and each step is a valid MH step for the token's full conditional. (LightLDA instead draws word proposals
 * from alias tables built earlier from counts that include the token's own earlier topic; we avoid that dependence.)
 * The document proposal picks another token of the document at random and takes its topic
 * (with probability (n_d − 1)/(n_d − 1 + Kα), else a uniform topic): the "random positioning" of WarpLDA (Chen et
 * al. 2016). The word proposal does the same over this block's other tokens of w, and draws the part of n_{k,w}
 * held by other AD-LDA blocks (fixed during the block's sweep) from a Walker/Vose alias table per word. The tables
 * are rebuilt at the start of each sweep for every word of the block that other blocks hold too, visiting only the
 * topics of the word's row in the sparse counts the sampler was made from or restored to: O(non-zeros of the row +
 * K/64) a word, not O(K). With one block that part is empty and no table is built. Between blocks the sampler is
 * restored ({@link #restore}) rather than made again, so a task does not fill its count table anew for every block.
 *
 * <p>The topic–word counts are held in LightLDA's hybrid layout ({@link HybridTopicRows}): a dense row of K ints for
 * a word with many tokens, a hash row sized by the word's total otherwise, never W·K ints. Every lookup returns what
 * a dense table would and the rows' topics are visited in the same order, so the draws do not depend on the layout.
 * The sampler takes, with t_w the tokens of word w in the counts it is made from, N_b the tokens of the block it
 * sweeps and A_b its alias cells,
 * <pre>
 *   4·Σ_w r(t_w) + 24·W + 12·A_b + 6·N_b + O(K) bytes,     A_b = Σ_{w in the block} min(o_w, m_w) ≤ Σ_w min(K, t_w)
 * </pre>
 * where r is the row size of {@link HybridTopicRows} (r(t) ≤ 4·min(K, t), dense K when that is smaller), 24·W the
 * row index and four per-word arrays, o_w = t_w − (the block's tokens of w) the other blocks' tokens and m_w the
 * non-zero topics of w's row in the counts made from (each alias cell a char topic, a char alias and a double
 * threshold), and 6·N_b the block's tokens grouped by word. On the generated NYTimes shape (W = 102,660, 99.8 M
 * tokens, 8 blocks of 12.5 M tokens) that is 0.17 + 0.31 + 0.08 GB at K = 1,000 and 0.50 + 0.60 + 0.08 GB at
 * K = 10,000 at most (rows + alias bound + tokens; the alias cells fall as rows concentrate), against 4.1 GB for the
 * dense rows alone at K = 10,000 ({@link #tableBytes}). Not thread-safe.
 */
public final class CycleMhLdaSampler implements LdaSampler {
    /** Word + document proposal cycles per token by default. */
    public static final int DEFAULT_CYCLES = 2;

    /** The kernel, or a deliberately wrong variant of it for tests that must be able to fail. */
    enum Variant {
        /** Each step accepted with the MH ratio, proposal correction included: leaves the conditional invariant. */
        EXACT,
        /**
         * The word step accepted with the target's ratio p(t)/p(s) alone, without q_w(s)/q_w(t): Metropolis with an
         * asymmetric proposal, so the step leaves p(k)·q_w(k) invariant instead of p(k).
         */
        NO_WORD_PROPOSAL_CORRECTION,
        /** The same mistake in the document step: it leaves p(k)·q_d(k) invariant. */
        NO_DOCUMENT_PROPOSAL_CORRECTION
    }

    private final int numTopics;
    private final int vocabularySize;
    private final double alpha;
    private final double beta;
    private final double betaSum;
    private final double alphaSum;
    private final double smoothingMass;
    private final int cycles;
    private final Variant variant;

    private final HybridTopicRows rows;
    private final int[] topicTotals;
    private final int[] wordTotals;
    private final int[] docCounts;
    // The counts made from or last restored to: a word's other blocks' counts are non-zero only in its row there.
    private TopicWordCounts base;
    // The block the per-sweep tables were built for, and the rows' bookkeeping for delta and restore.
    private Corpus lastDocs;
    private final HybridRowChanges changes;

    // Per sweep: the block's tokens grouped by word, and alias tables of the other blocks' counts per word.
    // (aliasTopic: a cell's topic; aliasOther: the topic of its alias; aliasKeep: the threshold keeping the cell's.)
    private int[] wordStart = new int[0];
    private int[] slotOf = new int[0];
    private char[] topicsByWord = new char[0];
    private final int[] otherMass;
    private int[] aliasStart = new int[0];
    private char[] aliasTopic = new char[0];
    private char[] aliasOther = new char[0];
    private double[] aliasKeep = new double[0];

    private CycleMhLdaSampler(LdaPriors priors, TopicWordCounts counts, int cycles, HybridTopicRows.Layout layout,
            Variant variant) {
        this.numTopics = priors.numTopics();
        this.vocabularySize = counts.vocabularySize();
        this.alpha = priors.alpha();
        this.beta = priors.beta();
        this.betaSum = beta * vocabularySize;
        this.alphaSum = alpha * numTopics;
        this.smoothingMass = beta * numTopics;
        this.cycles = cycles;
        this.variant = variant;
        this.topicTotals = counts.topicTotals().clone();
        this.wordTotals = new int[vocabularySize];
        for (int w = 0; w < vocabularySize; w++) {
            wordTotals[w] = counts.wordTotal(w);
        }
        this.rows = HybridTopicRows.of(counts, wordTotals, layout);
        this.docCounts = new int[numTopics];
        this.otherMass = new int[vocabularySize];
        this.base = counts;
        this.changes = new HybridRowChanges(numTopics, rows, topicTotals, wordTotals);
    }

    /**
     * A sampler whose local counts start as a copy of {@code counts} (the counts of every block's assignment).
     *
     * @param cycles word + document proposal pairs per token (≥ 1)
     */
    public static CycleMhLdaSampler of(LdaPriors priors, TopicWordCounts counts, int cycles) {
        return of(priors, counts, cycles, HybridTopicRows.Layout.HYBRID);
    }

    /** As {@link #of(LdaPriors, TopicWordCounts, int)} with the rows laid out as given (tests compare layouts). */
    static CycleMhLdaSampler of(LdaPriors priors, TopicWordCounts counts, int cycles, HybridTopicRows.Layout layout) {
        return of(priors, counts, cycles, layout, Variant.EXACT);
    }

    /** A deliberately wrong kernel (in dense rows), for tests that must be able to fail. */
    static CycleMhLdaSampler broken(Variant variant, LdaPriors priors, TopicWordCounts counts, int cycles) {
        return of(priors, counts, cycles, HybridTopicRows.Layout.ALL_DENSE, variant);
    }

    private static CycleMhLdaSampler of(LdaPriors priors, TopicWordCounts counts, int cycles,
            HybridTopicRows.Layout layout, Variant variant) {
        if (priors.numTopics() != counts.numTopics()) {
            throw new IllegalArgumentException("priors for K=" + priors.numTopics() + ", counts for K="
                    + counts.numTopics());
        }
        if (cycles < 1) {
            throw new IllegalArgumentException("cycles must be positive, is " + cycles);
        }
        return new CycleMhLdaSampler(priors, counts, cycles, layout, variant);
    }

    /**
     * The bytes a sampler made from counts with these word totals takes whatever block it sweeps (the formula in the
     * class comment without the block's tokens, the alias cells at their bound Σ_w min(K, t_w)).
     */
    public static long tableBytes(int numTopics, int[] wordTotals) {
        return HybridTopicRows.bytes(numTopics, wordTotals) + 16L * wordTotals.length
                + 12 * TopicWordCounts.cellBound(numTopics, wordTotals);
    }

    /** The rows (for tests). */
    HybridTopicRows rows() {
        return rows;
    }

    @Override
    public void sweep(Corpus docs, char[] topics, UniformRandomProvider rng) {
        sweepTokens(docs, topics, null, rng);
    }

    /**
     * One sweep over part of every document: in document d only the tokens {@code [ranges[2d], ranges[2d+1])} are
     * updated. n_{d,k} is counted over all of d's tokens and the document proposal draws from all of them (the others
     * keep their current topics), so q_d(k) ∝ n_{d,k} + α without token i as before. The word proposal's own tokens
     * of w are the swept ones; w's other tokens (other blocks', and this block's outside the ranges) stay fixed
     * during the sweep and are drawn from its alias table. So each step is still a valid MH step for the token's
     * full conditional. Model-parallel LDA samples a block's tokens of one word slice this way
     * ({@link WordSlices#ranges}): the counts then hold only that slice's rows, and the words without tokens get no
     * row and no memory.
     */
    @Override
    public void sweep(Corpus docs, char[] topics, int[] ranges, UniformRandomProvider rng) {
        if (ranges.length != 2 * docs.numDocuments()) {
            throw new IllegalArgumentException(ranges.length + " range bounds for " + docs.numDocuments()
                    + " documents");
        }
        for (int d = 0; d < docs.numDocuments(); d++) {
            int from = ranges[2 * d];
            int to = ranges[2 * d + 1];
            if (from < to && (from < docs.docStart(d) || to > docs.docEnd(d))) {
                throw new IllegalArgumentException("tokens [" + from + ", " + to + ") are not in document " + d);
            }
        }
        sweepTokens(docs, topics, ranges, rng);
    }

    /** The sweep over the tokens {@code ranges} name in every document (all of them when it is null). */
    private void sweepTokens(Corpus docs, char[] topics, int[] ranges, UniformRandomProvider rng) {
        startSweep(docs, topics, ranges);
        int[] words = docs.words();
        for (int d = 0; d < docs.numDocuments(); d++) {
            int from = ranges == null ? docs.docStart(d) : ranges[2 * d];
            int to = ranges == null ? docs.docEnd(d) : ranges[2 * d + 1];
            if (from >= to) {
                continue;
            }
            int docFrom = docs.docStart(d);
            int docTo = docs.docEnd(d);
            for (int i = docFrom; i < docTo; i++) {
                docCounts[topics[i]]++;
            }
            for (int i = from; i < to; i++) {
                int w = words[i];
                int s = topics[i];
                remove(w, s);
                s = metropolisHastings(w, s, i, docFrom, docTo - docFrom, topics, rng);
                add(w, s);
                topics[i] = (char) s;
                topicsByWord[slotOf[i]] = (char) s;
            }
            for (int i = docFrom; i < docTo; i++) {
                docCounts[topics[i]] = 0;
            }
        }
    }

    /**
     * Groups the swept tokens (those {@code ranges} name, all when it is null) by word and builds the alias tables of
     * every word's other tokens.
     */
    private void startSweep(Corpus docs, char[] topics, int[] ranges) {
        if (docs.numTokens() != topics.length || docs.vocabularySize() != vocabularySize) {
            throw new IllegalArgumentException("corpus, topics and counts disagree in size");
        }
        int[] words = docs.words();
        lastDocs = docs;
        if (wordStart.length != vocabularySize + 1) {
            wordStart = new int[vocabularySize + 1];
        } else {
            Arrays.fill(wordStart, 0);
        }
        int swept = 0;
        for (int d = 0; d < docs.numDocuments(); d++) {
            int to = ranges == null ? docs.docEnd(d) : ranges[2 * d + 1];
            for (int i = ranges == null ? docs.docStart(d) : ranges[2 * d]; i < to; i++) {
                wordStart[words[i] + 1]++;
                swept++;
            }
        }
        for (int w = 0; w < vocabularySize; w++) {
            wordStart[w + 1] += wordStart[w];
        }
        if (slotOf.length != words.length) {
            slotOf = new int[words.length];
        }
        if (topicsByWord.length != swept) {
            topicsByWord = new char[swept];
        }
        int[] fill = Arrays.copyOf(wordStart, vocabularySize);
        for (int d = 0; d < docs.numDocuments(); d++) {
            int to = ranges == null ? docs.docEnd(d) : ranges[2 * d + 1];
            for (int i = ranges == null ? docs.docStart(d) : ranges[2 * d]; i < to; i++) {
                int slot = fill[words[i]]++;
                slotOf[i] = slot;
                topicsByWord[slot] = topics[i];
            }
        }
        // The other tokens' counts o_{k,w} = n_{k,w} − (the swept tokens' count), fixed during the sweep. They are
        // n_{k,w} − (the swept tokens' count) in the base counts too, so positive only where the base row is: at most
        // min(o_w, non-zeros of the base row) topics a word.
        int[] baseStarts = base.rowStarts();
        long cells = 0;
        for (int w = 0; w < vocabularySize; w++) {
            int inBlock = wordStart[w + 1] - wordStart[w];
            otherMass[w] = inBlock == 0 ? 0 : wordTotals[w] - inBlock;
            if (otherMass[w] > 0) {
                cells += Math.min(otherMass[w], baseStarts[w + 1] - baseStarts[w]);
            }
        }
        if (cells > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("the block's alias tables would exceed 2^31 cells");
        }
        if (aliasStart.length != vocabularySize + 1) {
            aliasStart = new int[vocabularySize + 1];
        }
        if (aliasTopic.length < cells) {
            aliasTopic = new char[(int) cells];
            aliasOther = new char[(int) cells];
            aliasKeep = new double[(int) cells];
        }
        int[] scratch = docCounts; // all zero between documents
        int[] small = new int[numTopics];
        int[] large = new int[numTopics];
        int[] other = new int[numTopics];
        int[] possible = new int[numTopics];
        // Other blocks' counts are fixed, so o_{k,w} > 0 only where the base row has topic k: the row's possible
        // topics, visited in increasing order through a bit set (O(non-zeros + K/64) a word, not O(K)).
        int at = 0;
        for (int w = 0; w < vocabularySize; w++) {
            aliasStart[w] = at;
            if (otherMass[w] == 0) {
                continue;
            }
            for (int j = wordStart[w]; j < wordStart[w + 1]; j++) {
                scratch[topicsByWord[j]]++;
            }
            int limit = Math.min(otherMass[w], baseStarts[w + 1] - baseStarts[w]);
            int n = 0;
            for (int j = 0, m = changes.possibleTopics(base, w, wordStart, topicsByWord, possible); j < m; j++) {
                int k = possible[j];
                int o = rows.get(w, k) - scratch[k];
                if (o > 0) {
                    if (n == limit) {
                        throw new IllegalStateException("word " + w + " has other blocks' counts beyond its row "
                                + "in the base counts: the sampler swept another block without a restore");
                    }
                    aliasTopic[at + n] = (char) k;
                    aliasKeep[at + n] = o;
                    n++;
                }
            }
            for (int j = wordStart[w]; j < wordStart[w + 1]; j++) {
                scratch[topicsByWord[j]] = 0;
            }
            buildAlias(at, n, otherMass[w], small, large, other);
            at += n;
        }
        aliasStart[vocabularySize] = at;
    }

    /**
     * Vose's alias method (Walker 1977; Vose 1991) over weights aliasKeep[at..at+n) summing to total, of the topics
     * aliasTopic[at..at+n): sets each cell's threshold and the topic of its alias.
     */
    private void buildAlias(int at, int n, double total, int[] small, int[] large, int[] other) {
        int ns = 0;
        int nl = 0;
        for (int j = 0; j < n; j++) {
            double scaled = aliasKeep[at + j] * n / total;
            aliasKeep[at + j] = scaled;
            other[j] = j;
            if (scaled < 1) {
                small[ns++] = j;
            } else {
                large[nl++] = j;
            }
        }
        while (ns > 0 && nl > 0) {
            int l = small[--ns];
            int g = large[--nl];
            other[l] = g;
            double rest = aliasKeep[at + g] + aliasKeep[at + l] - 1;
            aliasKeep[at + g] = rest;
            if (rest < 1) {
                small[ns++] = g;
            } else {
                large[nl++] = g;
            }
        }
        while (nl > 0) {
            aliasKeep[at + large[--nl]] = 1;
        }
        while (ns > 0) {
            aliasKeep[at + small[--ns]] = 1;
        }
        for (int j = 0; j < n; j++) {
            aliasOther[at + j] = aliasTopic[at + other[j]];
        }
    }

    /** Runs the MH cycles for token i (already removed from the counts) from topic s; returns the final topic. */
    private int metropolisHastings(int w, int s, int i, int docFrom, int docLength, char[] topics,
            UniformRandomProvider rng) {
        int blockOthers = wordStart[w + 1] - wordStart[w] - 1;
        double wordMass = blockOthers + otherMass[w] + smoothingMass;
        int docOthers = docLength - 1;
        double docMass = docOthers + alphaSum;
        for (int c = 0; c < cycles; c++) {
            // Word proposal: q(k) ∝ n_{k,w} + β (without token i).
            int t;
            double u = rng.nextDouble() * wordMass;
            if (u < blockOthers) {
                // Another token of w in this block, uniformly (the topics are kept word by word for locality).
                int own = slotOf[i];
                int slot;
                do {
                    slot = wordStart[w] + rng.nextInt(blockOthers + 1);
                } while (slot == own);
                t = topicsByWord[slot];
            } else if (u < blockOthers + otherMass[w]) {
                int from = aliasStart[w];
                int n = aliasStart[w + 1] - from;
                double v = rng.nextDouble() * n;
                int e = (int) v;
                t = v - e < aliasKeep[from + e] ? aliasTopic[from + e] : aliasOther[from + e];
            } else {
                t = rng.nextInt(numTopics);
            }
            if (t != s) {
                double ratio = (docCounts[t] + alpha) * (topicTotals[s] + betaSum)
                        / ((docCounts[s] + alpha) * (topicTotals[t] + betaSum));
                if (variant == Variant.NO_WORD_PROPOSAL_CORRECTION) {
                    ratio *= (rows.get(w, t) + beta) / (rows.get(w, s) + beta);
                }
                if (ratio >= 1 || rng.nextDouble() < ratio) {
                    s = t;
                }
            }
            // Document proposal: q(k) ∝ n_{d,k} + α (without token i).
            u = rng.nextDouble() * docMass;
            if (u < docOthers) {
                int j;
                do {
                    j = docFrom + rng.nextInt(docLength);
                } while (j == i);
                t = topics[j];
            } else {
                t = rng.nextInt(numTopics);
            }
            if (t != s) {
                double ratio = (rows.get(w, t) + beta) * (topicTotals[s] + betaSum)
                        / ((rows.get(w, s) + beta) * (topicTotals[t] + betaSum));
                if (variant == Variant.NO_DOCUMENT_PROPOSAL_CORRECTION) {
                    ratio *= (docCounts[t] + alpha) / (docCounts[s] + alpha);
                }
                if (ratio >= 1 || rng.nextDouble() < ratio) {
                    s = t;
                }
            }
        }
        return s;
    }

    private void remove(int w, int k) {
        rows.decrement(w, k);
        topicTotals[k]--;
        docCounts[k]--;
    }

    private void add(int w, int k) {
        rows.increment(w, k);
        topicTotals[k]++;
        docCounts[k]++;
    }

    /** The current local counts (canonical form), built from the rows' non-zero cells. */
    @Override
    public TopicWordCounts counts() {
        int[] starts = new int[vocabularySize + 1];
        TopicWordCounts.IntList cells = new TopicWordCounts.IntList(1 << 16);
        TopicWordCounts.IntList wide = new TopicWordCounts.IntList(16);
        int wideAbove = base.wideAbove();
        for (int w = 0; w < vocabularySize; w++) {
            boolean isWide = wordTotals[w] > wideAbove;
            if (isWide) {
                wide.add(w);
            }
            rows.appendRow(w, cells, isWide);
            starts[w + 1] = cells.size;
        }
        return TopicWordCounts.ofPacked(numTopics, vocabularySize, wideAbove, starts, cells.toArray(), wide.toArray(),
                topicTotals.clone());
    }

    @Override
    public TopicWordDelta delta(TopicWordCounts before, Corpus docs) {
        return changes.delta(before, docs, sweptWordStart(docs), topicsByWord);
    }

    /**
     * Puts the rows of {@code docs}' words and the topic totals back to {@code before}'s. A sweep changes no other
     * row and no word's total, and every per-sweep table is rebuilt when the next sweep starts, so the sampler then
     * samples as a new one on {@code before} would, without new rows for every block.
     */
    @Override
    public boolean restore(TopicWordCounts before, Corpus docs) {
        changes.restore(before, docs, sweptWordStart(docs), topicsByWord);
        base = before;
        return true;
    }

    /** Where each word's swept tokens start, when the last sweep was over {@code docs}; else null. */
    private int[] sweptWordStart(Corpus docs) {
        return docs == lastDocs ? wordStart : null;
    }

    // ---- test hook ----

    /**
     * Invariance probe: {@code draws} times, sets token i's topic to an exact draw from its full conditional (the
     * dense formula on this sampler's counts), applies one MH update (all cycles) and tallies the result — which
     * must again follow the full conditional. The other tokens stay fixed. With {@code ranges}, the tables are set
     * up as for {@link #sweep(Corpus, char[], int[], UniformRandomProvider)} over those tokens (i must be one).
     */
    void updateFromStationary(Corpus docs, char[] topics, int[] ranges, int d, int i, int draws,
            UniformRandomProvider rng, long[] tally) {
        if (ranges != null && (i < ranges[2 * d] || i >= ranges[2 * d + 1])) {
            throw new IllegalArgumentException("token " + i + " is not in the ranges");
        }
        startSweep(docs, topics, ranges);
        int from = docs.docStart(d);
        int to = docs.docEnd(d);
        for (int j = from; j < to; j++) {
            docCounts[topics[j]]++;
        }
        int w = docs.word(i);
        double[] cumulative = new double[numTopics];
        for (int n = 0; n < draws; n++) {
            remove(w, topics[i]);
            double sum = 0;
            for (int k = 0; k < numTopics; k++) {
                sum += (docCounts[k] + alpha) * (rows.get(w, k) + beta) / (topicTotals[k] + betaSum);
                cumulative[k] = sum;
            }
            double u = rng.nextDouble() * sum;
            int s = 0;
            while (s < numTopics - 1 && cumulative[s] <= u) {
                s++;
            }
            topics[i] = (char) s; // its value is not read while it is excluded, but keep it consistent
            s = metropolisHastings(w, s, i, from, to - from, topics, rng);
            add(w, s);
            topics[i] = (char) s;
            topicsByWord[slotOf[i]] = (char) s;
            tally[s]++;
        }
        for (int j = from; j < to; j++) {
            docCounts[topics[j]] = 0;
        }
    }
}
