package org.sparkmc.core.lda;

import org.apache.commons.rng.UniformRandomProvider;
import org.sparkmc.core.random.Categorical;

/**
 * Collapsed Gibbs sampling for LDA (Griffiths &amp; Steyvers 2004) with SparseLDA's exact bucket decomposition
 * (Yao, Mimno &amp; McCallum 2009). Each token i of word w in document d is redrawn from
 * <pre>
 *   p(z_i = k | rest) ∝ (n_{k,w} + β)(n_{d,k} + α) / (n_k + Wβ)
 *                     = αβ/(n_k + Wβ)  +  n_{d,k} β/(n_k + Wβ)  +  n_{k,w} (n_{d,k} + α)/(n_k + Wβ)
 *                       (s: all K)        (r: topics in d)         (q: topics of w)
 * </pre>
 * with all counts excluding token i. s is kept over the sweep, r over the document, and q is summed over the
 * non-zero topics of w only, so a token costs O(topics of w) rather than O(K); the draw is exact.
 *
 * <p>The sampler owns a mutable local copy of the topic–word counts (copied from a {@link TopicWordCounts}), with
 * each word's row of packed {@code count << bits | topic} cells kept in decreasing order by bubbling after each
 * change, so the q walk usually stops early. A row has room for min(K, word frequency) cells, so the copy takes at
 * most 4·min(N, W·K) bytes. The tokens' topic moves since the copy was made or restored are logged ({@link MoveLog},
 * 8 bytes a move, at most a quarter as many moves as the copy has cells, or 1,024: half its bytes, or 8 KB), so that
 * {@link #delta} can sum them rather than read every changed row (or {@link #addDelta} hand them to a task's
 * {@link DeltaSum}); past that bound it reads the rows. A word with more
 * tokens than a packed cell holds ({@link TopicWordCounts#isWide}: over 2,097,151 at K = 1,000) keeps K plain counts
 * instead, its q walk over all K topics with a binary search in the prefix sums; such words have over 100 tokens a
 * topic, so their rows are dense anyway. Document–topic counts are rebuilt per document from z, so the chain state is
 * just z. A whole sweep also sums its documents' term of log p(w, z) from those counts as each document ends
 * ({@link #documentTerm}). No allocation per token, beyond the move log's growth to its size. Not thread-safe: one
 * sampler per thread or task.
 */
public final class SparseLdaSampler implements LdaSampler {
    /** The exact draw, or a deliberately wrong variant of it for tests that must be able to fail. */
    enum Variant {
        /** The buckets of the conditional with all counts excluding token i. */
        EXACT,
        /**
         * The q bucket's n_{k,w} still counts token i in its own topic (a classic bug: the row's cell not decremented
         * for the walk); s and r exclude it, and so do the counts kept. Packed rows only: a wide row draws exactly.
         */
        OWN_WORD_COUNT_KEPT
    }

    private final int numTopics;
    private final int vocabularySize;
    private final double alpha;
    private final double beta;
    private final double betaSum;
    private final double alphaBeta;
    private final int bits;
    private final int mask;
    private final int one;
    private final int wideAbove;
    /** What the q bucket takes off the cell of token i's own topic: 1, or 0 in the broken variant. */
    private final int ownCount;

    // Local topic-word counts: row w is cells[rows[2w] .. rows[2w] + rows[2w+1]), with room up to rows[2w+2]
    // (start and length side by side: one cache line per token); a wide row has rows[2w+1] = WIDE and K plain
    // counts from rows[2w].
    static final int WIDE = -1;
    private final int[] rows;
    private final int[] cells;
    private final int[] topicTotals;

    // Scratch: inverse denominators 1/(n_k + Wβ), q coefficients (n_dk + α)/(n_k + Wβ), document counts.
    private final double[] invDenominator;
    private final double[] coefficient;
    private final double[] qTerms;
    private final int[] docCounts;
    private final int[] docTopics;
    private final int[] docTopicIndex;
    private int docTopicCount;
    // The documents' term of log p(w, z) (LdaLogLikelihood#documentTerm), summed over a whole sweep's documents.
    private final LdaLogLikelihood.DocumentTerms documentTerms;
    private double documentTerm = Double.NaN;
    private double s;
    private double r;
    // A lower bound on min_k n_k (exact at the start of a sweep, lowered whenever a total drops below it).
    private int minTotal;

    // The words whose rows changed since the local copy was made or last restored (one bit a word), and what delta
    // and restore do with them.
    private final long[] changed;
    private final ChangedRows changedRows;
    // The tokens' topic moves since the same point, while few enough: delta sums them instead of reading rows.
    private final MoveLog moves;

    private SparseLdaSampler(LdaPriors priors, TopicWordCounts counts, Variant variant) {
        this.numTopics = priors.numTopics();
        this.vocabularySize = counts.vocabularySize();
        this.alpha = priors.alpha();
        this.beta = priors.beta();
        this.betaSum = beta * vocabularySize;
        this.alphaBeta = alpha * beta;
        this.bits = counts.topicBits();
        this.mask = (1 << bits) - 1;
        this.one = 1 << bits;
        this.wideAbove = counts.wideAbove();
        this.ownCount = variant == Variant.EXACT ? 1 : 0;
        int[] srcStarts = counts.rowStarts();
        int[] src = counts.entries();
        rows = new int[2 * vocabularySize + 2];
        long capacity = 0;
        for (int w = 0; w < vocabularySize; w++) {
            rows[2 * w] = (int) capacity;
            boolean wide = counts.isWide(w);
            rows[2 * w + 1] = wide ? WIDE : 0;
            capacity += wide ? numTopics : Math.min(numTopics, counts.wordTotal(w));
            if (capacity > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("the local topic-word table would exceed 2^31 cells");
            }
        }
        rows[2 * vocabularySize] = (int) capacity;
        cells = new int[(int) capacity];
        for (int w = 0; w < vocabularySize; w++) {
            int n = srcStarts[w + 1] - srcStarts[w];
            System.arraycopy(src, srcStarts[w], cells, rows[2 * w], n);
            if (rows[2 * w + 1] != WIDE) {
                rows[2 * w + 1] = n;
            }
        }
        topicTotals = counts.topicTotals().clone();
        invDenominator = new double[numTopics];
        coefficient = new double[numTopics];
        qTerms = new double[numTopics];
        docCounts = new int[numTopics];
        docTopics = new int[numTopics];
        docTopicIndex = new int[numTopics];
        documentTerms = LdaLogLikelihood.DocumentTerms.of(priors);
        changed = new long[(vocabularySize + 63) >>> 6];
        moves = new MoveLog(numTopics, vocabularySize, cells.length / 4);
        changedRows = new ChangedRows(numTopics, bits, rows, cells, topicTotals, changed, moves, counts);
    }

    /**
     * A sampler whose local counts start as a copy of {@code counts}, which must be the counts of the full
     * assignment (every block's tokens), as AD-LDA broadcasts them.
     */
    public static SparseLdaSampler of(LdaPriors priors, TopicWordCounts counts) {
        return of(priors, counts, Variant.EXACT);
    }

    /** A deliberately wrong sampler, for tests that must be able to fail. */
    static SparseLdaSampler broken(Variant variant, LdaPriors priors, TopicWordCounts counts) {
        return of(priors, counts, variant);
    }

    private static SparseLdaSampler of(LdaPriors priors, TopicWordCounts counts, Variant variant) {
        if (priors.numTopics() != counts.numTopics()) {
            throw new IllegalArgumentException("priors for K=" + priors.numTopics() + ", counts for K="
                    + counts.numTopics());
        }
        return new SparseLdaSampler(priors, counts, variant);
    }

    /**
     * One Gibbs sweep over the documents, in order: each token's topic in {@code topics} (aligned with
     * {@code docs.words()}) is redrawn given all others, updating the local counts.
     */
    @Override
    public void sweep(Corpus docs, char[] topics, UniformRandomProvider rng) {
        checkAligned(docs, topics);
        startSweep();
        documentTerm = 0;
        for (int d = 0; d < docs.numDocuments(); d++) {
            sweepDocument(docs, topics, d, docs.docStart(d), docs.docEnd(d), true, rng);
        }
    }

    /**
     * One Gibbs sweep over part of every document: in document d only the tokens {@code [ranges[2d], ranges[2d+1])}
     * are redrawn, each given all others, with n_{d,k} counted over all of d's tokens. Model-parallel LDA samples a
     * block's tokens of one word slice this way ({@link WordSlices#ranges}); the local counts need only that
     * slice's rows.
     */
    @Override
    public void sweep(Corpus docs, char[] topics, int[] ranges, UniformRandomProvider rng) {
        checkAligned(docs, topics);
        if (ranges.length != 2 * docs.numDocuments()) {
            throw new IllegalArgumentException(ranges.length + " range bounds for " + docs.numDocuments()
                    + " documents");
        }
        startSweep();
        documentTerm = Double.NaN;
        for (int d = 0; d < docs.numDocuments(); d++) {
            if (ranges[2 * d] < ranges[2 * d + 1]) {
                sweepDocument(docs, topics, d, ranges[2 * d], ranges[2 * d + 1], false, rng);
            }
        }
    }

    /**
     * Redraws tokens [from, to) of document d, its topic counts taken over all its tokens; when {@code scored}, adds
     * the document's term of log p(w, z), from its counts as it ends, to {@link #documentTerm}.
     */
    private void sweepDocument(Corpus docs, char[] topics, int d, int from, int to, boolean scored,
            UniformRandomProvider rng) {
        if (from < docs.docStart(d) || to > docs.docEnd(d)) {
            throw new IllegalArgumentException("tokens [" + from + ", " + to + ") are not in document " + d);
        }
        int[] words = docs.words();
        beginDocument(topics, docs.docStart(d), docs.docEnd(d));
        for (int i = from; i < to; i++) {
            topics[i] = (char) resample(words[i], topics[i], rng);
        }
        if (scored) {
            documentTerm = documentTerms.add(documentTerm, docs.docLength(d), docCounts, docTopics, docTopicCount);
        }
        endDocument();
    }

    /**
     * The documents' term of log p(w, z) ({@link LdaLogLikelihood#documentTerm}) after the last whole sweep, summed
     * from each document's topic counts as it ends; NaN after a sweep over ranges. The same terms in another order,
     * so it may differ from {@code LdaLogLikelihood}'s sum in the last bits.
     */
    @Override
    public double documentTerm() {
        return documentTerm;
    }

    private void checkAligned(Corpus docs, char[] topics) {
        if (docs.numTokens() != topics.length) {
            throw new IllegalArgumentException(topics.length + " topics for " + docs.numTokens() + " tokens");
        }
        if (docs.vocabularySize() != vocabularySize) {
            throw new IllegalArgumentException("corpus vocabulary " + docs.vocabularySize() + ", counts' "
                    + vocabularySize);
        }
    }

    /** Recomputes s and the per-topic caches from the topic totals (no drift across sweeps). */
    private void startSweep() {
        double sum = 0;
        for (int k = 0; k < numTopics; k++) {
            double inv = 1.0 / (topicTotals[k] + betaSum);
            invDenominator[k] = inv;
            coefficient[k] = alpha * inv;
            sum += alphaBeta * inv;
        }
        s = sum;
        int min = Integer.MAX_VALUE;
        for (int k = 0; k < numTopics; k++) {
            min = Math.min(min, topicTotals[k]);
        }
        minTotal = min;
    }

    private void beginDocument(char[] topics, int from, int to) {
        int n = 0;
        for (int i = from; i < to; i++) {
            int k = topics[i];
            if (docCounts[k]++ == 0) {
                docTopicIndex[k] = n;
                docTopics[n++] = k;
            }
        }
        docTopicCount = n;
        double sum = 0;
        for (int j = 0; j < n; j++) {
            int k = docTopics[j];
            sum += docCounts[k] * beta * invDenominator[k];
            coefficient[k] = (alpha + docCounts[k]) * invDenominator[k];
        }
        r = sum;
    }

    private void endDocument() {
        for (int j = 0; j < docTopicCount; j++) {
            int k = docTopics[j];
            docCounts[k] = 0;
            coefficient[k] = alpha * invDenominator[k];
        }
        docTopicCount = 0;
    }

    /**
     * Removes a token of word w from topic k, then draws and adds its new topic; returns the new topic. The row of w
     * is scanned once: the q terms are computed with the token's own cell counted one less, and the row is only
     * changed when the topic changes (late in a run most tokens keep theirs).
     */
    private int resample(int w, int k, UniformRandomProvider rng) {
        removeFromTopic(k);
        final int base = rows[2 * w];
        final int len = rows[2 * w + 1];
        if (len == WIDE) {
            return resampleWide(w, k, base, rng);
        }
        final int[] cells = this.cells;
        final double[] qTerms = this.qTerms;
        final double[] coefficient = this.coefficient;
        double q = 0;
        int own = 0;
        for (int j = 0; j < len; j++) {
            int cell = cells[base + j];
            int t = cell & mask;
            int c = cell >>> bits;
            if (t == k) {
                c -= ownCount;
                own = j;
            }
            q += coefficient[t] * c;
            qTerms[j] = q; // prefix sums: the walk below is then a scan of comparisons, no chain of subtractions
        }
        double u = rng.nextDouble() * (s + r + q);
        int topic;
        if (u < q) {
            int j = 0;
            while (qTerms[j] <= u && j < len - 1) {
                j++;
            }
            topic = cells[base + j] & mask;
            if (topic != k) {
                moves.add(w, k, topic);
                int moved = decrementAt(w, base, own);
                if (j > own && j <= moved) {
                    j--;
                }
                incrementAt(base, j);
            }
        } else {
            topic = sampleDocumentOrSmoothing(u - q, rng);
            if (topic != k) {
                moves.add(w, k, topic);
                decrementAt(w, base, own);
                incrementWord(w, topic);
            }
        }
        addToTopic(topic);
        return topic;
    }

    /** {@link #resample} for a wide row: K plain counts from {@code base}, the q walk over every topic. */
    private int resampleWide(int w, int k, int base, UniformRandomProvider rng) {
        cells[base + k]--;
        double q = 0;
        for (int t = 0; t < numTopics; t++) {
            q += coefficient[t] * cells[base + t];
            qTerms[t] = q;
        }
        double u = rng.nextDouble() * (s + r + q);
        int topic;
        if (u < q) {
            topic = Categorical.firstAbove(qTerms, numTopics, u);
        } else {
            topic = sampleDocumentOrSmoothing(u - q, rng);
        }
        cells[base + topic]++;
        if (topic != k) {
            markChanged(w);
            moves.add(w, k, topic);
        }
        addToTopic(topic);
        return topic;
    }

    /** Draws from the r bucket if u &lt; r (u uniform on [0, r + s)), else from the s bucket. */
    private int sampleDocumentOrSmoothing(double u, UniformRandomProvider rng) {
        if (u >= r) {
            return sampleSmoothingBucket(rng);
        }
        int j = 0;
        int last = docTopicCount - 1;
        int topic = docTopics[0];
        u -= docCounts[topic] * beta * invDenominator[topic];
        while (u > 0 && j < last) {
            topic = docTopics[++j];
            u -= docCounts[topic] * beta * invDenominator[topic];
        }
        return topic;
    }

    /**
     * Draws k with probability ∝ s_k = αβ/(n_k + Wβ). Rejection from a uniform topic, accepting with probability
     * (m + Wβ)/(n_k + Wβ) ≤ 1 where m ≤ min n_k, is exact and usually takes a few tries instead of an O(K) walk;
     * after 64 rejections the walk is used (the mixture of the two exact draws is exact).
     */
    private int sampleSmoothingBucket(UniformRandomProvider rng) {
        double bound = minTotal + betaSum;
        for (int tries = 0; tries < 64; tries++) {
            int k = rng.nextInt(numTopics);
            if (rng.nextDouble() < bound * invDenominator[k]) {
                return k;
            }
        }
        double u = rng.nextDouble() * s;
        int topic = 0;
        u -= alphaBeta * invDenominator[0];
        while (u > 0 && topic < numTopics - 1) {
            u -= alphaBeta * invDenominator[++topic];
        }
        return topic;
    }

    /** Takes one token of word w out of topic k: topic-level counts and caches, then w's row. */
    private void remove(int w, int k) {
        removeFromTopic(k);
        int base = rows[2 * w];
        if (rows[2 * w + 1] == WIDE) {
            cells[base + k]--;
            markChanged(w);
            return;
        }
        int at = 0;
        while ((cells[base + at] & mask) != k) {
            at++;
        }
        decrementAt(w, base, at);
    }

    /** Takes the current token out of topic k: topic total, document count, s, r and caches (not the row). */
    private void removeFromTopic(int k) {
        double inv = invDenominator[k];
        int nd = docCounts[k];
        s -= alphaBeta * inv;
        r -= nd * beta * inv;
        int n = --topicTotals[k];
        if (n < minTotal) {
            minTotal = n;
        }
        nd = --docCounts[k];
        inv = 1.0 / (n + betaSum);
        invDenominator[k] = inv;
        s += alphaBeta * inv;
        r += nd * beta * inv;
        coefficient[k] = (alpha + nd) * inv;
        if (nd == 0) {
            int j = docTopicIndex[k];
            int lastTopic = docTopics[--docTopicCount];
            docTopics[j] = lastTopic;
            docTopicIndex[lastTopic] = j;
        }
    }

    /**
     * Decrements the cell at row position j of word w and bubbles it toward the end (a cell reaching 0 ends last and
     * is dropped); returns its new position.
     */
    private int decrementAt(int w, int base, int j) {
        int end = base + rows[2 * w + 1];
        int at = base + j;
        int cell = cells[at] - one;
        markChanged(w);
        while (at + 1 < end && cells[at + 1] > cell) {
            cells[at] = cells[at + 1];
            at++;
        }
        cells[at] = cell;
        if (cell >>> bits == 0) {
            rows[2 * w + 1]--;
        }
        return at - base;
    }

    /** Notes that word w's row changed (for {@link #delta} and {@link #restore}). */
    private void markChanged(int w) {
        changed[w >>> 6] |= 1L << w;
    }

    /** Adds the current token to topic k: topic total, document count, s, r, caches (not w's row). */
    private void addToTopic(int k) {
        double inv = invDenominator[k];
        int nd = docCounts[k];
        s -= alphaBeta * inv;
        r -= nd * beta * inv;
        int n = ++topicTotals[k];
        nd = ++docCounts[k];
        inv = 1.0 / (n + betaSum);
        invDenominator[k] = inv;
        s += alphaBeta * inv;
        r += nd * beta * inv;
        coefficient[k] = (alpha + nd) * inv;
        if (nd == 1) {
            docTopicIndex[k] = docTopicCount;
            docTopics[docTopicCount++] = k;
        }
    }

    /** Increments the cell at row position j and bubbles it toward the front. */
    private void incrementAt(int base, int j) {
        int at = base + j;
        int cell = cells[at] + one;
        while (at > base && cells[at - 1] < cell) {
            cells[at] = cells[at - 1];
            at--;
        }
        cells[at] = cell;
    }

    /** Increments w's cell for topic k, appending it if absent. */
    private void incrementWord(int w, int k) {
        int base = rows[2 * w];
        int len = rows[2 * w + 1];
        if (len == WIDE) {
            cells[base + k]++;
            return;
        }
        for (int j = 0; j < len; j++) {
            if ((cells[base + j] & mask) == k) {
                incrementAt(base, j);
                return;
            }
        }
        cells[base + len] = k; // count 0; incrementAt makes it 1 and moves it into place
        rows[2 * w + 1] = len + 1;
        incrementAt(base, len);
    }

    /** The current local counts as an immutable {@link TopicWordCounts} (canonical order). */
    @Override
    public TopicWordCounts counts() {
        int[] starts = new int[vocabularySize + 1];
        TopicWordCounts.IntList wide = new TopicWordCounts.IntList(16);
        int total = 0;
        for (int w = 0; w < vocabularySize; w++) {
            total += storedLength(w);
            starts[w + 1] = total;
            if (rows[2 * w + 1] == WIDE) {
                wide.add(w);
            }
        }
        int[] out = new int[total];
        for (int w = 0; w < vocabularySize; w++) {
            System.arraycopy(cells, rows[2 * w], out, starts[w], storedLength(w));
        }
        return TopicWordCounts.ofPacked(numTopics, vocabularySize, wideAbove, starts, out, wide.toArray(),
                topicTotals.clone());
    }

    /** The ints row w takes: its packed cells, or K for a wide row. */
    private int storedLength(int w) {
        return rows[2 * w + 1] == WIDE ? numTopics : rows[2 * w + 1];
    }

    /**
     * The change of the local counts from {@code before} (the counts this sampler was created from), over the
     * words of {@code docs} — the only rows a sweep of {@code docs} can change. Against the very counts it was
     * created from or last restored to, the tokens' logged moves are summed where that is the cheaper, and otherwise
     * only the rows that changed since are compared.
     */
    @Override
    public TopicWordDelta delta(TopicWordCounts before, Corpus docs) {
        return changedRows.delta(before, docs);
    }

    /**
     * Adds what {@link #delta} returns to {@code sum}, as the logged moves themselves unless the changed rows are
     * shorter than the log (a lower bar than {@link #delta}'s: the sum groups all its logs once).
     */
    @Override
    public void addDelta(DeltaSum sum, TopicWordCounts before, Corpus docs) {
        changedRows.addDelta(sum, before, docs);
    }

    /**
     * Copies back the rows of {@code docs}' words and the topic totals from {@code before}. Every other row is
     * {@code before}'s already, each row keeps its capacity (the word totals never change), and the per-sweep caches
     * are rebuilt from the totals at the start of every sweep, so the sampler is then a fresh copy of {@code before}.
     * Against the counts it was created from or last restored to, only the rows that changed since are copied.
     */
    @Override
    public boolean restore(TopicWordCounts before, Corpus docs) {
        changedRows.restore(before, docs);
        return true;
    }

    // ---- test hooks: the same code paths, one token at a time ----

    /** The change since the counts were made or last restored as the move log sums it; null if it is incomplete. */
    TopicWordDelta deltaFromMoves() {
        return changedRows.deltaFromMoves();
    }


    /**
     * Redraws token i (in document d of {@code docs}) {@code draws} times from the same full conditional, counting
     * the topics drawn; the other tokens stay fixed, so the draws are independent. Leaves z_i at its last draw.
     */
    void resampleRepeatedly(Corpus docs, char[] topics, int d, int i, int draws, UniformRandomProvider rng,
            long[] tally) {
        checkAligned(docs, topics);
        startSweep();
        beginDocument(topics, docs.docStart(d), docs.docEnd(d));
        int w = docs.word(i);
        for (int t = 0; t < draws; t++) {
            int k = resample(w, topics[i], rng);
            topics[i] = (char) k;
            tally[k]++;
        }
        endDocument();
    }

    /**
     * The unnormalised conditional of token i as the three buckets hold it: element k is s_k + r_k + q_k (each
     * from the sampler's own caches after removing token i), with the bucket totals s, r, q in elements K..K+2.
     * The state is restored afterwards.
     */
    double[] bucketMasses(Corpus docs, char[] topics, int d, int i) {
        checkAligned(docs, topics);
        startSweep();
        beginDocument(topics, docs.docStart(d), docs.docEnd(d));
        int w = docs.word(i);
        int k0 = topics[i];
        remove(w, k0);
        double[] out = new double[numTopics + 3];
        for (int k = 0; k < numTopics; k++) {
            out[k] += alphaBeta * invDenominator[k];
        }
        for (int j = 0; j < docTopicCount; j++) {
            int k = docTopics[j];
            out[k] += docCounts[k] * beta * invDenominator[k];
        }
        double q = 0;
        int[] rowTopics = new int[numTopics];
        int[] rowCounts = new int[numTopics];
        int n = TopicWordCounts.decode(cells, rows[2 * w], rows[2 * w] + storedLength(w), rows[2 * w + 1] == WIDE,
                bits, rowTopics, rowCounts);
        for (int j = 0; j < n; j++) {
            double term = coefficient[rowTopics[j]] * rowCounts[j];
            out[rowTopics[j]] += term;
            q += term;
        }
        out[numTopics] = s;
        out[numTopics + 1] = r;
        out[numTopics + 2] = q;
        incrementWord(w, k0);
        addToTopic(k0);
        endDocument();
        return out;
    }
}
