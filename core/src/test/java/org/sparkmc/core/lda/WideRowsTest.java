package org.sparkmc.core.lda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.testing.ChiSquare;

/**
 * Wide rows ({@link TopicWordCounts#isWide}: K plain counts for a word with more tokens than a packed cell holds),
 * reached on small corpora by lowering the threshold ({@link TopicWordCounts#withWideRowsAbove}): every reader, the
 * merge, the slices and both kernels see the same counts as with packed rows, and the sparse kernel's draws on wide
 * rows follow the exact conditional.
 */
class WideRowsTest {
    private static final int K = 9;
    private final Corpus corpus = LdaFixtures.randomCorpus(80, 40, 60, 7);
    private final char[] topics = LdaFixtures.randomTopics(corpus, K, 8);
    private final TopicWordCounts packed = TopicWordCounts.of(corpus, topics, K);
    /** Half the words (those above the median total) wide. */
    private final int median = median(corpus.wordFrequencies());
    private final TopicWordCounts mixed = packed.withWideRowsAbove(median);

    private static int median(int[] totals) {
        int[] sorted = totals.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    @Test
    void wideRowsHoldTheSameCountsForEveryReader() {
        int wide = mixed.wideRows().length;
        assertTrue(wide > 10 && wide < 50, wide + " wide rows of 60");
        assertEquals(0, packed.wideRows().length);
        assertArrayEquals(packed.toDense(), mixed.toDense());
        assertNotEquals(packed, mixed);
        int[] t1 = new int[K];
        int[] c1 = new int[K];
        int[] t2 = new int[K];
        int[] c2 = new int[K];
        for (int w = 0; w < 60; w++) {
            assertEquals(corpus.wordFrequencies()[w] > median, mixed.isWide(w), "word " + w);
            assertEquals(packed.wordTotal(w), mixed.wordTotal(w));
            for (int k = 0; k < K; k++) {
                assertEquals(packed.count(w, k), mixed.count(w, k));
            }
            int n = packed.row(w, t1, c1);
            assertEquals(n, mixed.row(w, t2, c2));
            long[] a = new long[n];
            long[] b = new long[n];
            for (int e = 0; e < n; e++) {
                a[e] = (long) t1[e] << 32 | c1[e];
                b[e] = (long) t2[e] << 32 | c2[e];
            }
            Arrays.sort(a);
            Arrays.sort(b);
            assertArrayEquals(a, b, "word " + w);
        }
        double expected = LdaLogLikelihood.topicWordTerm(packed, 0.05);
        assertEquals(expected, LdaLogLikelihood.topicWordTerm(mixed, 0.05), 1e-12 * Math.abs(expected));
        PosteriorMeanTopics p1 = PosteriorMeanTopics.of(K, 60, 0.05);
        PosteriorMeanTopics p2 = PosteriorMeanTopics.of(K, 60, 0.05);
        p1.add(packed);
        p2.add(mixed);
        assertArrayEquals(p1.phi(), p2.phi());
        LdaPriors priors = new LdaPriors(K, 0.1, 0.05);
        TopicInference i1 = TopicInference.of(packed, priors, 1, 1);
        TopicInference i2 = TopicInference.of(mixed, priors, 1, 1);
        double[] r1 = new double[K];
        double[] r2 = new double[K];
        for (int w = 0; w < 60; w++) {
            i1.phiRow(w, r1, 0);
            i2.phiRow(w, r2, 0);
            assertArrayEquals(r1, r2, "word " + w);
        }
    }

    /** Merges and slices of mixed layouts give the counts of the sums, each row wide exactly when its total is. */
    @Test
    void mergesAndSlicesKeepTheLayoutRule() {
        Corpus[] halves = corpus.blocks(2);
        char[] first = Arrays.copyOfRange(topics, 0, halves[0].numTokens());
        char[] second = Arrays.copyOfRange(topics, halves[0].numTokens(), topics.length);
        TopicWordCounts empty = TopicWordCounts.empty(K, 60).withWideRowsAbove(median);
        LdaPriors priors = new LdaPriors(K, 0.1, 0.05);
        List<TopicWordDelta> deltas = List.of(
                SparseLdaSampler.of(priors, TopicWordCounts.of(halves[0], first, K)).delta(
                        TopicWordCounts.empty(K, 60), halves[0]),
                SparseLdaSampler.of(priors, TopicWordCounts.of(halves[1], second, K)).delta(
                        TopicWordCounts.empty(K, 60), halves[1]));
        assertEquals(mixed, empty.plus(deltas));
        assertEquals(packed, TopicWordCounts.empty(K, 60).plus(deltas));
        // rows no delta touches keep their layout, wide ones included, whichever rows between them change
        assertEquals(mixed, mixed.plus(List.of(TopicWordDelta.none(mixed))));
        int[] t = new int[K];
        int[] c = new int[K];
        for (int w : new int[] {0, 31, 59}) {
            assertTrue(mixed.row(w, t, c) > 0, "word " + w + " has tokens");
            int to = (t[0] + 1) % K;
            int[] topicChanges = new int[K];
            topicChanges[t[0]]--;
            topicChanges[to]++;
            TopicWordDelta move = TopicWordDelta.of(K, 60, new int[] {w, w},
                    new int[] {Math.min(t[0], to), Math.max(t[0], to)},
                    t[0] < to ? new int[] {-1, 1} : new int[] {1, -1}, topicChanges);
            int[] dense = mixed.toDense();
            dense[w * K + t[0]]--;
            dense[w * K + to]++;
            TopicWordCounts moved = mixed.plus(List.of(move));
            assertArrayEquals(dense, moved.toDense(), "word " + w);
            assertArrayEquals(mixed.wideRows(), moved.wideRows(), "word " + w);
        }

        WordSlices slices = WordSlices.balanced(corpus.wordFrequencies(), 5);
        TopicWordSlice[] cut = TopicWordSlice.cut(mixed, slices);
        assertEquals(mixed, TopicWordSlice.assemble(Arrays.asList(cut), 60));
        TopicWordSlice[] a = TopicWordSlice.cut(TopicWordCounts.of(halves[0], first, K).withWideRowsAbove(median),
                slices);
        TopicWordSlice[] b = TopicWordSlice.cut(TopicWordCounts.of(halves[1], second, K).withWideRowsAbove(median),
                slices);
        double beta = 0.05;
        double sum = LdaLogLikelihood.totalsTerm(mixed.topicTotals(), 60, beta);
        for (int j = 0; j < 5; j++) {
            assertEquals(cut[j], a[j].plus(b[j]), "slice " + j);
            assertArrayEquals(TopicWordSlice.cut(packed, slices)[j].topicSums(), cut[j].topicSums());
            TopicWordCounts seen = cut[j].asCounts(60, mixed.topicTotals());
            for (int w : cut[j].words()) {
                assertEquals(mixed.isWide(w), seen.isWide(w), "word " + w);
                for (int k = 0; k < K; k++) {
                    assertEquals(mixed.count(w, k), seen.count(w, k), "word " + w + ", topic " + k);
                }
            }
            sum += cut[j].cellTerm(beta);
        }
        double expected = LdaLogLikelihood.topicWordTerm(packed, beta);
        assertEquals(expected, sum, 1e-12 * Math.abs(expected));
    }

    /** The sparse kernel's three buckets on wide rows add up to the dense conditional, token by token. */
    @Test
    void sparseBucketsOnWideRowsEqualTheDenseConditional() {
        LdaPriors priors = new LdaPriors(7, 0.3, 0.05);
        Corpus c = LdaFixtures.randomCorpus(12, 15, 9, 1);
        char[] z = LdaFixtures.randomTopics(c, 7, 2);
        for (int wideAbove : new int[] {0, median(c.wordFrequencies())}) {
            SparseLdaSampler sampler = SparseLdaSampler.of(priors,
                    TopicWordCounts.of(c, z, 7).withWideRowsAbove(wideAbove));
            for (int d = 0; d < c.numDocuments(); d++) {
                for (int i = c.docStart(d); i < c.docEnd(d); i++) {
                    double[] dense = LdaFixtures.denseConditional(c, z, d, i, priors, true);
                    double[] sparse = sampler.bucketMasses(c, z, d, i);
                    for (int k = 0; k < 7; k++) {
                        assertEquals(dense[k], sparse[k], 1e-12 * dense[k], "token " + i + " topic " + k);
                    }
                }
            }
            assertEquals(TopicWordCounts.of(c, z, 7).withWideRowsAbove(wideAbove), sampler.counts());
        }
    }

    /**
     * Redraws of one token on a wide row follow its conditional: 50 repetitions of 20,000 draws, chi-square at 1%,
     * fail if more than 3 of 50 fail (about 0.16% false alarms); the conditional that keeps the token must fail.
     * Large α and β put mass in all three buckets.
     */
    @Test
    void sparseDrawsOnWideRowsFollowTheDenseConditional() {
        for (LdaPriors priors : new LdaPriors[] {new LdaPriors(6, 0.5, 0.01), new LdaPriors(5, 3.0, 2.0)}) {
            Corpus c = LdaFixtures.randomCorpus(6, 10, 5, 10);
            char[] z = LdaFixtures.randomTopics(c, priors.numTopics(), 20);
            int d = 2;
            int i = c.docStart(d) + 1;
            double[] exact = LdaFixtures.denseConditional(c, z, d, i, priors, true);
            double[] wrong = LdaFixtures.denseConditional(c, z, d, i, priors, false);
            TopicWordCounts counts = TopicWordCounts.of(c, z, priors.numTopics()).withWideRowsAbove(0);
            assertTrue(counts.isWide(c.word(i)));
            SparseLdaSampler sampler = SparseLdaSampler.of(priors, counts);
            RandomStreams streams = new RandomStreams(31);
            int failed = 0;
            int failedWrong = 0;
            for (int rep = 0; rep < 50; rep++) {
                long[] tally = new long[priors.numTopics()];
                sampler.resampleRepeatedly(c, z, d, i, 20_000, streams.stream("test", rep), tally);
                failed += ChiSquare.pValue(tally, exact) < 0.01 ? 1 : 0;
                failedWrong += ChiSquare.pValue(tally, wrong) < 0.01 ? 1 : 0;
            }
            assertTrue(failed <= 3, failed + " of 50 repetitions failed");
            assertTrue(failedWrong > 3, "the wrong conditional passed (" + failedWrong + " failures)");
        }
    }

    /**
     * A delta against counts that lay some row out the other way (wide on one side only) is still the change of
     * counts: from empty counts, as a block's initial counts are taken, and between the two layouts of equal counts.
     */
    @Test
    void sparseDeltaAgainstCountsOfTheOtherLayout() {
        LdaPriors priors = new LdaPriors(K, 0.1, 0.01);
        TopicWordCounts empty = TopicWordCounts.empty(K, 60);
        assertEquals(packed, empty.plus(List.of(SparseLdaSampler.of(priors, mixed).delta(empty, corpus))));
        assertEquals(mixed, empty.withWideRowsAbove(median).plus(
                List.of(SparseLdaSampler.of(priors, mixed).delta(empty, corpus))));
        assertEquals(0, SparseLdaSampler.of(priors, mixed).delta(packed, corpus).size());
        assertEquals(0, SparseLdaSampler.of(priors, packed).delta(mixed, corpus).size());
    }

    /**
     * After sweeps of a block, the sparse kernel's counts, delta and restore are right with mixed rows, and after the
     * first sweep the move log's sum is the rows' change too.
     */
    @Test
    void sparseCountsDeltaAndRestoreWithMixedRows() {
        LdaPriors priors = new LdaPriors(K, 0.1, 0.01);
        Corpus block = corpus.range(20, 50);
        int from = corpus.docStart(20);
        SparseLdaSampler sampler = SparseLdaSampler.of(priors, mixed);
        char[] all = topics.clone();
        char[] z = Arrays.copyOfRange(all, from, corpus.docStart(50));
        RandomStreams streams = new RandomStreams(9);
        for (int s = 0; s < 5; s++) {
            sampler.sweep(block, z, streams.stream("sweep", s));
            if (s == 0) {
                TopicWordDelta rows = sampler.delta(packed.withWideRowsAbove(median), block);
                TopicWordDelta moves = sampler.deltaFromMoves();
                assertArrayEquals(rows.words(), moves.words());
                assertArrayEquals(rows.topics(), moves.topics());
                assertArrayEquals(rows.changes(), moves.changes());
                assertArrayEquals(rows.topicChanges(), moves.topicChanges());
            }
        }
        System.arraycopy(z, 0, all, from, z.length);
        TopicWordCounts after = TopicWordCounts.of(corpus, all, K).withWideRowsAbove(median);
        assertEquals(after, sampler.counts());
        assertEquals(after, mixed.plus(List.of(sampler.delta(mixed, block))));
        TopicWordCounts copy = packed.withWideRowsAbove(median);
        assertEquals(after, copy.plus(List.of(sampler.delta(copy, block))));
        sampler.restore(mixed, block);
        assertEquals(mixed, sampler.counts());
    }

    /**
     * The cycle MH kernel holds its rows in its own layout, so the counts' layout changes none of its draws: sweeps
     * from packed and from mixed counts give the same topics, and counts in the layout they came in.
     */
    @Test
    void cycleMhDrawsDoNotDependOnTheCountsLayout() {
        LdaPriors priors = new LdaPriors(K, 0.1, 0.01);
        Corpus block = corpus.range(20, 50);
        int from = corpus.docStart(20);
        List<char[]> results = new ArrayList<>();
        for (TopicWordCounts start : List.of(packed, mixed)) {
            CycleMhLdaSampler sampler = CycleMhLdaSampler.of(priors, start, 2);
            char[] z = Arrays.copyOfRange(topics, from, corpus.docStart(50));
            RandomStreams streams = new RandomStreams(9);
            for (int s = 0; s < 5; s++) {
                sampler.sweep(block, z, streams.stream("sweep", s));
            }
            char[] all = topics.clone();
            System.arraycopy(z, 0, all, from, z.length);
            TopicWordCounts after = TopicWordCounts.of(corpus, all, K).withWideRowsAbove(start.wideAbove());
            assertEquals(after, sampler.counts());
            assertEquals(after, start.plus(List.of(sampler.delta(start, block))));
            sampler.restore(start, block);
            assertEquals(start, sampler.counts());
            results.add(z);
        }
        assertArrayEquals(results.get(0), results.get(1));
    }
}
