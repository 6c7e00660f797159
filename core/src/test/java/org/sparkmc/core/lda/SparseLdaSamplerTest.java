package org.sparkmc.core.lda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.testing.ChiSquare;

/** The SparseLDA kernel against the dense collapsed-Gibbs conditional of Griffiths &amp; Steyvers (2004). */
class SparseLdaSamplerTest {
    private static final int REPETITIONS = 50;
    private static final int DRAWS = 20_000;

    /** The three buckets add up, topic by topic, to the dense formula (floating-point agreement, no randomness). */
    @Test
    void bucketsEqualTheDenseConditionalForEveryToken() {
        for (LdaPriors priors : new LdaPriors[] {new LdaPriors(7, 0.3, 0.05), new LdaPriors(4, 2.0, 1.0)}) {
            Corpus c = LdaFixtures.randomCorpus(12, 15, 9, 1);
            char[] z = LdaFixtures.randomTopics(c, priors.numTopics(), 2);
            SparseLdaSampler sampler = SparseLdaSampler.of(priors, TopicWordCounts.of(c, z, priors.numTopics()));
            for (int d = 0; d < c.numDocuments(); d++) {
                for (int i = c.docStart(d); i < c.docEnd(d); i++) {
                    double[] dense = LdaFixtures.denseConditional(c, z, d, i, priors, true);
                    double[] sparse = sampler.bucketMasses(c, z, d, i);
                    double total = 0;
                    for (int k = 0; k < priors.numTopics(); k++) {
                        assertEquals(dense[k], sparse[k], 1e-12 * dense[k], "token " + i + " topic " + k);
                        total += dense[k];
                    }
                    int k = priors.numTopics();
                    assertEquals(total, sparse[k] + sparse[k + 1] + sparse[k + 2], 1e-12 * total);
                }
            }
            // The state is restored after each probe.
            assertEquals(TopicWordCounts.of(c, z, priors.numTopics()), sampler.counts());
        }
    }

    /**
     * In an AD-LDA block the buckets use the global counts, other blocks' tokens included: the masses equal the dense
     * conditional computed on the whole corpus, for every token of the block.
     */
    @Test
    void bucketsInABlockUseTheOtherBlocksCounts() {
        LdaPriors priors = new LdaPriors(5, 0.3, 0.05);
        Corpus all = LdaFixtures.randomCorpus(12, 15, 9, 3);
        char[] z = LdaFixtures.randomTopics(all, 5, 4);
        Corpus block = all.range(4, 9);
        int offset = all.docStart(4);
        char[] zb = java.util.Arrays.copyOfRange(z, offset, all.docStart(9));
        SparseLdaSampler sampler = SparseLdaSampler.of(priors, TopicWordCounts.of(all, z, 5));
        for (int d = 0; d < block.numDocuments(); d++) {
            for (int i = block.docStart(d); i < block.docEnd(d); i++) {
                double[] dense = LdaFixtures.denseConditional(all, z, d + 4, i + offset, priors, true);
                double[] sparse = sampler.bucketMasses(block, zb, d, i);
                for (int k = 0; k < 5; k++) {
                    assertEquals(dense[k], sparse[k], 1e-12 * dense[k], "token " + i + " topic " + k);
                }
            }
        }
    }

    /**
     * A whole sweep sums its documents' term of log p(w, z) as each document ends: it equals, within rounding, the
     * term computed afresh from the new topics, sweep after sweep (no randomness in the check). A sweep over ranges
     * has none.
     */
    @Test
    void aWholeSweepSumsItsDocumentTerm() {
        LdaPriors priors = new LdaPriors(7, 0.3, 0.05);
        Corpus c = LdaFixtures.randomCorpus(40, 30, 20, 5);
        char[] z = LdaFixtures.randomTopics(c, 7, 6);
        SparseLdaSampler sampler = SparseLdaSampler.of(priors, TopicWordCounts.of(c, z, 7));
        assertTrue(Double.isNaN(sampler.documentTerm()), "no sweep yet");
        RandomStreams streams = new RandomStreams(9);
        for (int sweep = 0; sweep < 3; sweep++) {
            sampler.sweep(c, z, streams.stream("sweep", sweep));
            double fresh = LdaLogLikelihood.documentTerm(c, z, priors);
            assertEquals(fresh, sampler.documentTerm(), 1e-12 * Math.abs(fresh), "sweep " + sweep);
        }
        int[] wholeDocuments = new int[2 * c.numDocuments()];
        for (int d = 0; d < c.numDocuments(); d++) {
            wholeDocuments[2 * d] = c.docStart(d);
            wholeDocuments[2 * d + 1] = c.docEnd(d);
        }
        sampler.sweep(c, z, wholeDocuments, streams.stream("sweep", 3));
        assertTrue(Double.isNaN(sampler.documentTerm()), "a sweep over ranges");
    }

    /**
     * Repeated redraws of one token (the rest fixed) are independent draws from its conditional; binned by topic
     * they must fit the dense formula: 50 repetitions of 20,000 draws, chi-square at 1%, fail if more than 3 of 50
     * fail (binomial(50, 0.01) tail: about 0.16% false alarms). Priors with large α and β put mass in all three
     * buckets, so each path of the draw is exercised; the same draws against the conditional that forgets to remove
     * token i (a classic bug) must fail, and in case 0 so must the draws of a sampler whose q bucket keeps token i in
     * its own topic's n_{k,w} ({@link SparseLdaSampler.Variant#OWN_WORD_COUNT_KEPT}; 50 of 50 repetitions fail): the
     * test has power against a wrong target and against a wrong kernel. Not in case 1: there β = 2 dwarfs the one
     * count too many, which only 4 of 50 repetitions saw, too close to the threshold to rely on;
     * {@link #sweepsLeaveTheEnumeratedPosteriorInvariant} catches that sampler at every seed tried.
     */
    @Test
    void drawsFollowTheDenseConditional() {
        LdaPriors[] cases = {new LdaPriors(6, 0.5, 0.01), new LdaPriors(5, 3.0, 2.0)};
        for (int c = 0; c < cases.length; c++) {
            LdaPriors priors = cases[c];
            Corpus corpus = LdaFixtures.randomCorpus(6, 10, 5, 10 + c);
            char[] z = LdaFixtures.randomTopics(corpus, priors.numTopics(), 20 + c);
            int d = 2;
            int i = corpus.docStart(d) + 1;
            double[] exact = LdaFixtures.denseConditional(corpus, z, d, i, priors, true);
            double[] wrong = LdaFixtures.denseConditional(corpus, z, d, i, priors, false);
            SparseLdaSampler sampler = SparseLdaSampler.of(priors, TopicWordCounts.of(corpus, z, priors.numTopics()));
            RandomStreams streams = new RandomStreams(30 + c);
            int failed = 0;
            int failedWrong = 0;
            for (int rep = 0; rep < REPETITIONS; rep++) {
                long[] tally = new long[priors.numTopics()];
                sampler.resampleRepeatedly(corpus, z, d, i, DRAWS, streams.stream("test", rep), tally);
                if (ChiSquare.pValue(tally, exact) < 0.01) {
                    failed++;
                }
                if (ChiSquare.pValue(tally, wrong) < 0.01) {
                    failedWrong++;
                }
            }
            assertTrue(failed <= 3, "case " + c + ": " + failed + " of " + REPETITIONS + " repetitions failed");
            assertTrue(failedWrong > 3, "case " + c + ": the wrong conditional passed (" + failedWrong + " failures)");
            if (c == 0) {
                SparseLdaSampler broken = SparseLdaSampler.broken(SparseLdaSampler.Variant.OWN_WORD_COUNT_KEPT,
                        priors, TopicWordCounts.of(corpus, z, priors.numTopics()));
                char[] zBroken = z.clone();
                int failedBroken = 0;
                for (int rep = 0; rep < REPETITIONS; rep++) {
                    long[] tally = new long[priors.numTopics()];
                    broken.resampleRepeatedly(corpus, zBroken, d, i, DRAWS, streams.stream("broken", rep), tally);
                    if (ChiSquare.pValue(tally, exact) < 0.01) {
                        failedBroken++;
                    }
                }
                assertTrue(failedBroken > 3, "the broken sampler passed (" + failedBroken + " failures)");
            }
        }
    }

    /**
     * Whole sweeps leave the exact posterior invariant, checked against p(z | w) by enumeration
     * ({@link EnumeratedPosterior}): two documents of 4 and 3 tokens over 3 words, K = 2; 100,000 assignments drawn
     * exactly from the posterior, each swept 3 times by a fresh sampler on its counts, and the assignments reached
     * compared with the posterior by chi-square (those expected fewer than 5 times pooled); a case fails below
     * p = 0.001, so the test fails falsely with probability about 0.2% (two cases). Case 0 sweeps every token
     * (128 assignments); case 1 sweeps every document but its first token, as model-parallel LDA sweeps ranges
     * (32 assignments of the other 5 tokens given the 2 fixed). The sampler whose q bucket keeps token i in its own
     * topic's count must fail each case with 10,000 draws (its p-value was 0 in double precision at each of 10 other
     * seeds tried). Over 100 other seeds the correct sampler's p-values fell below 0.05 in 9 and 4 of 100 (the two
     * cases), below 0.01 in 2 and 0.
     */
    @Test
    void sweepsLeaveTheEnumeratedPosteriorInvariant() {
        EnumeratedPosterior.assertSweepsKeepItExact(SparseLdaSampler::of, List.of(
                (q, counts) -> SparseLdaSampler.broken(SparseLdaSampler.Variant.OWN_WORD_COUNT_KEPT, q, counts)), 80);
    }

    /** After sweeps, the sampler's local counts are exactly the counts of its assignment. */
    @Test
    void localCountsStayConsistentWithTheAssignment() {
        LdaPriors priors = new LdaPriors(20, 0.1, 0.01);
        Corpus c = LdaFixtures.randomCorpus(40, 60, 30, 5);
        char[] z = LdaFixtures.randomTopics(c, 20, 6);
        TopicWordCounts start = TopicWordCounts.of(c, z, 20);
        SparseLdaSampler sampler = SparseLdaSampler.of(priors, start);
        RandomStreams streams = new RandomStreams(7);
        for (int sweep = 0; sweep < 10; sweep++) {
            sampler.sweep(c, z, streams.stream("sweep", sweep));
        }
        TopicWordCounts after = TopicWordCounts.of(c, z, 20);
        assertEquals(after, sampler.counts());
        assertEquals(after, start.plus(java.util.List.of(sampler.delta(start, c))));
    }

    /**
     * A block of 20 documents swept against the counts of 160: against the counts it was made from or last restored
     * to, delta sums the tokens' moves (a sweep of the block moves under 500 tokens, against rows of up to 50 topics of
     * every word: the log is the cheaper; the eight sweeps of the last round make more moves than the log's floor of
     * 1,024, and it compares the changed rows instead) and restore visits only the rows that changed; against other
     * equal counts they visit every word of the block. All give the same change, and a restore makes the sampler a
     * fresh copy again.
     */
    @Test
    void changedRowsGiveTheSameDeltaAndRestoreAsTheBlocksWords() {
        LdaPriors priors = new LdaPriors(50, 0.1, 0.01);
        Corpus c = LdaFixtures.randomCorpus(160, 40, 30, 5);
        char[] z = LdaFixtures.randomTopics(c, 50, 6);
        TopicWordCounts start = TopicWordCounts.of(c, z, 50);
        TopicWordCounts copy = TopicWordCounts.fromDense(start.toDense(), 50, start.vocabularySize());
        Corpus block = c.range(0, 20);
        assertTrue(block.numTokens() < 500 && 8 * block.numTokens() > 2 * 1024, block.numTokens() + " tokens");
        SparseLdaSampler sampler = SparseLdaSampler.of(priors, start);
        RandomStreams streams = new RandomStreams(8);
        for (int round = 0; round < 3; round++) {
            char[] topics = java.util.Arrays.copyOf(z, block.numTokens());
            int sweeps = round == 2 ? 8 : 1;
            for (int s = 0; s < sweeps; s++) {
                sampler.sweep(block, topics, streams.stream("sweep", round, s));
            }
            TopicWordDelta changed = sampler.delta(start, block);
            TopicWordDelta scanned = sampler.delta(copy, block);
            assertArrayEquals(scanned.words(), changed.words());
            assertArrayEquals(scanned.topics(), changed.topics());
            assertArrayEquals(scanned.changes(), changed.changes());
            assertArrayEquals(scanned.topicChanges(), changed.topicChanges());
            assertTrue(changed.size() > 0);
            TopicWordDelta moves = sampler.deltaFromMoves();
            if (round < 2) {
                assertArrayEquals(scanned.words(), moves.words());
                assertArrayEquals(scanned.topics(), moves.topics());
                assertArrayEquals(scanned.changes(), moves.changes());
            } else {
                assertNull(moves, "the log stops past 1,024 moves");
            }
            sampler.restore(round == 1 ? copy : start, block);
            assertEquals(start, sampler.counts());
        }
    }

    /** Counts of another K or W are refused by delta and restore, with both shapes in the message. */
    @Test
    void deltaAndRestoreRefuseCountsOfAnotherShape() {
        Corpus c = LdaFixtures.randomCorpus(40, 60, 30, 5);
        TopicWordCounts start = TopicWordCounts.of(c, LdaFixtures.randomTopics(c, 20, 6), 20);
        SparseLdaSampler sampler = SparseLdaSampler.of(new LdaPriors(20, 0.1, 0.01), start);
        TopicWordCounts otherK = TopicWordCounts.empty(21, start.vocabularySize());
        TopicWordCounts otherW = TopicWordCounts.empty(20, start.vocabularySize() + 1);
        for (TopicWordCounts other : java.util.List.of(otherK, otherW)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> sampler.delta(other, c));
            assertEquals("counts for K=" + other.numTopics() + ", W=" + other.vocabularySize()
                    + "; this sampler is for K=20, W=" + start.vocabularySize(), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> sampler.restore(other, c));
        }
        assertEquals(start, sampler.counts());
    }

    /**
     * A word with more tokens than a packed cell holds at K (2^(31 − topic bits) − 1: 32,767 at K = 40,000) gets a
     * wide row and is sampled: one sweep leaves the sampler's counts equal to the counts of the new assignment.
     */
    @Test
    void aWordTooFrequentForAPackedCellIsSampledOnAWideRow() {
        int n = 40_000;
        int k = 40_000;
        Corpus c = Corpus.of(new int[] {0, n / 2, n}, new int[n], new int[] {1, 2}, 1);
        char[] z = LdaFixtures.randomTopics(c, k, 1);
        TopicWordCounts counts = TopicWordCounts.of(c, z, k);
        assertTrue(counts.isWide(0));
        assertEquals(k, counts.nonZeros());
        SparseLdaSampler sampler = SparseLdaSampler.of(new LdaPriors(k, 0.1, 0.01), counts);
        sampler.sweep(c, z, new RandomStreams(2).stream("sweep", 0));
        assertEquals(TopicWordCounts.of(c, z, k), sampler.counts());
    }

    /** The packed cell's limit by K. */
    @Test
    void cellLimitByNumberOfTopics() {
        assertEquals(2_097_151, TopicWordCounts.maxCellCount(1000));
        assertEquals(131_071, TopicWordCounts.maxCellCount(10_000));
        assertEquals(32_767, TopicWordCounts.maxCellCount(40_000));
    }
}
