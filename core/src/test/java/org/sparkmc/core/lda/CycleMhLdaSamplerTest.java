package org.sparkmc.core.lda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiFunction;
import org.apache.commons.rng.UniformRandomProvider;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.testing.ChiSquare;

/** The cycle MH kernel leaves the exact collapsed conditional invariant. */
class CycleMhLdaSamplerTest {
    /**
     * Invariance, checked exactly: token i's topic is drawn from its full conditional, one MH update (2 cycles) is
     * applied, and the result must again follow the full conditional. 50 repetitions of 20,000 updates, chi-square at
     * 1%, fail if more than 3 of 50 fail (about 0.16% false alarms). Cases: one block; an AD-LDA block whose
     * counts include another block's tokens (so the alias-table part of the word proposal is used); and that block
     * swept only in part, as model-parallel LDA sweeps a block's tokens of one word slice: every document's first
     * token is left out, so the document proposal draws from tokens that are not swept and the word's tokens left
     * out of the sweep (one at least) join the other blocks' in the alias table. The same draws
     * against the conditional that forgets to remove token i must fail, and so must the kernel with either step
     * accepted by the target's ratio alone, without the proposal correction ({@link CycleMhLdaSampler.Variant}; 50
     * of 50 repetitions fail in every case): the test has power against a wrong target and against a wrong kernel.
     * Case 0 holds its counts in dense rows, cases 1 and 2 in hash rows ({@link HybridTopicRows}; the broken kernels
     * in dense rows);
     * {@link #everyRowLayoutDrawsAsTheDenseSamplerDid} shows the layout changes no draw.
     */
    @Test
    void oneUpdateFromTheConditionalStaysInTheConditional() {
        LdaPriors[] priors = {new LdaPriors(6, 0.5, 0.05), new LdaPriors(5, 0.2, 0.5), new LdaPriors(6, 0.3, 0.1)};
        for (int c = 0; c < 3; c++) {
            LdaPriors p = priors[c];
            Corpus all = LdaFixtures.randomCorpus(8, 10, 5, 40 + c);
            char[] zAll = LdaFixtures.randomTopics(all, p.numTopics(), 50 + c);
            TopicWordCounts global = TopicWordCounts.of(all, zAll, p.numTopics());
            // Case 0: the whole corpus is the block. Cases 1 and 2: the block is the first 4 documents.
            Corpus block = c == 0 ? all : all.range(0, 4);
            char[] z = Arrays.copyOf(zAll, block.numTokens());
            int d = 2;
            int i = block.docStart(d) + 1;
            int[] ranges = null;
            if (c == 2) {
                ranges = new int[2 * block.numDocuments()];
                boolean wordLeftOut = false;
                for (int e = 0; e < block.numDocuments(); e++) {
                    ranges[2 * e] = block.docStart(e) + 1;
                    ranges[2 * e + 1] = block.docEnd(e);
                    wordLeftOut |= block.word(block.docStart(e)) == block.word(i);
                }
                assertTrue(wordLeftOut, "a token of the word is left out of the sweep");
            }
            // The conditional given everything else, other blocks included.
            double[] exact = LdaFixtures.denseConditional(all, zAll, d, i, p, true);
            double[] wrong = LdaFixtures.denseConditional(all, zAll, d, i, p, false);
            CycleMhLdaSampler sampler = CycleMhLdaSampler.of(p, global, 2,
                    c == 0 ? HybridTopicRows.Layout.ALL_DENSE : HybridTopicRows.Layout.ALL_HASH);
            RandomStreams streams = new RandomStreams(60 + c);
            int failed = 0;
            int failedWrong = 0;
            for (int rep = 0; rep < 50; rep++) {
                long[] tally = new long[p.numTopics()];
                sampler.updateFromStationary(block, z, ranges, d, i, 20_000, streams.stream("test", rep), tally);
                failed += ChiSquare.pValue(tally, exact) < 0.01 ? 1 : 0;
                failedWrong += ChiSquare.pValue(tally, wrong) < 0.01 ? 1 : 0;
            }
            assertTrue(failed <= 3, "case " + c + ": " + failed + " of 50 repetitions failed");
            assertTrue(failedWrong > 3, "case " + c + ": the wrong conditional passed");
            for (CycleMhLdaSampler.Variant v : BROKEN) {
                CycleMhLdaSampler broken = CycleMhLdaSampler.broken(v, p, global, 2);
                char[] zBroken = Arrays.copyOf(zAll, block.numTokens());
                int failedBroken = 0;
                for (int rep = 0; rep < 50; rep++) {
                    long[] tally = new long[p.numTopics()];
                    broken.updateFromStationary(block, zBroken, ranges, d, i, 20_000, streams.stream("broken", rep),
                            tally);
                    failedBroken += ChiSquare.pValue(tally, exact) < 0.01 ? 1 : 0;
                }
                assertTrue(failedBroken > 3, "case " + c + ": " + v + " passed (" + failedBroken + " of 50 failed)");
            }
        }
    }

    private static final CycleMhLdaSampler.Variant[] BROKEN = {CycleMhLdaSampler.Variant.NO_WORD_PROPOSAL_CORRECTION,
        CycleMhLdaSampler.Variant.NO_DOCUMENT_PROPOSAL_CORRECTION};

    /**
     * Whole sweeps leave the exact posterior invariant, checked against p(z | w) by enumeration
     * ({@link EnumeratedPosterior}): two documents of 4 and 3 tokens over 3 words, K = 2; 100,000 assignments drawn
     * exactly from the posterior, each swept 3 times by a fresh sampler (2 cycles) on its counts, and the assignments
     * reached compared with the posterior by chi-square (those expected fewer than 5 times pooled); a case fails
     * below p = 0.001, so the test fails falsely with probability about 0.2% (two cases). Case 0 sweeps every token
     * (128 assignments); case 1 sweeps every document but its first token, as model-parallel LDA sweeps ranges, so
     * the word proposals of words 0 and 1 draw the fixed token from the alias table (32 assignments of the other 5
     * tokens given the 2 fixed). Each broken variant must fail each case with 10,000 draws (its p-value was 0 in
     * double precision at each of 10 other seeds tried). Over 100 other seeds the correct kernel's p-values fell
     * below 0.05 in 5 and 4 of 100 (the two cases), below 0.01 in 0 and 1.
     */
    @Test
    void sweepsLeaveTheEnumeratedPosteriorInvariant() {
        EnumeratedPosterior.assertSweepsKeepItExact((q, counts) -> CycleMhLdaSampler.of(q, counts, 2),
                Arrays.stream(BROKEN).<BiFunction<LdaPriors, TopicWordCounts, LdaSampler>>map(
                        v -> (q, counts) -> CycleMhLdaSampler.broken(v, q, counts, 2)).toList(), 70);
    }

    @Test
    void countsAndDeltasStayConsistentInAnAdLdaBlock() {
        LdaPriors p = new LdaPriors(12, 0.1, 0.01);
        Corpus all = LdaFixtures.randomCorpus(40, 50, 30, 7);
        char[] zAll = LdaFixtures.randomTopics(all, 12, 8);
        TopicWordCounts global = TopicWordCounts.of(all, zAll, 12);
        Corpus block = all.range(10, 25);
        int from = all.docStart(10);
        char[] z = java.util.Arrays.copyOfRange(zAll, from, all.docStart(25));
        CycleMhLdaSampler sampler = CycleMhLdaSampler.of(p, global, 2);
        RandomStreams streams = new RandomStreams(9);
        for (int s = 0; s < 5; s++) {
            sampler.sweep(block, z, streams.stream("sweep", s));
        }
        System.arraycopy(z, 0, zAll, from, z.length);
        TopicWordCounts after = TopicWordCounts.of(all, zAll, 12);
        assertEquals(after, sampler.counts());
        assertEquals(after, global.plus(List.of(sampler.delta(global, block))));
    }

    /** Counts of another K or W are refused by delta and restore, with both shapes in the message. */
    @Test
    void deltaAndRestoreRefuseCountsOfAnotherShape() {
        LdaPriors p = new LdaPriors(12, 0.1, 0.01);
        Corpus all = LdaFixtures.randomCorpus(40, 50, 30, 7);
        TopicWordCounts global = TopicWordCounts.of(all, LdaFixtures.randomTopics(all, 12, 8), 12);
        CycleMhLdaSampler sampler = CycleMhLdaSampler.of(p, global, 2);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> sampler.restore(TopicWordCounts.empty(13, global.vocabularySize()), all));
        assertEquals("counts for K=13, W=" + global.vocabularySize() + "; this sampler is for K=12, W="
                + global.vocabularySize(), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> sampler.restore(TopicWordCounts.empty(12, global.vocabularySize() + 1), all));
        for (TopicWordCounts other : List.of(TopicWordCounts.empty(13, global.vocabularySize()),
                TopicWordCounts.empty(12, global.vocabularySize() + 1))) {
            assertThrows(IllegalArgumentException.class, () -> sampler.delta(other, all));
        }
    }

    @Test
    void adLdaWithTheMhKernelIsDeterministic() {
        LdaPriors p = new LdaPriors(10, 0.5, 0.01);
        Corpus c = LdaFixtures.randomCorpus(30, 40, 25, 3);
        AdLdaDriver driver = AdLdaDriver.start(c, 2, p, new RandomStreams(4));
        BlockUpdate a = AdLda.sweepBlock(driver.block(1), driver.topics(1), driver.counts(), p, new RandomStreams(4),
                0, 2, 1, LdaKernel.CYCLE_MH);
        BlockUpdate b = AdLda.sweepBlock(driver.block(1), driver.topics(1), driver.counts(), p, new RandomStreams(4),
                0, 2, 1, LdaKernel.CYCLE_MH);
        assertArrayEquals(a.topics(), b.topics());
        assertArrayEquals(a.delta().changes(), b.delta().changes());
    }

    /**
     * After sweeps of a block, its delta visiting only the topics a row can hold equals the one scanning all K, a
     * restore (either way) puts the counts back to those the sampler was made from, rows that gained a topic included
     * (K = 40 over short rows, so most cells start at zero), and the next sweep is a fresh sampler's, bit for bit.
     */
    @Test
    void aRestoredSamplerSweepsAsAFreshOne() {
        LdaPriors p = new LdaPriors(40, 0.1, 0.01);
        Corpus c = LdaFixtures.randomCorpus(30, 80, 20, 11);
        char[] z = LdaFixtures.randomTopics(c, 40, 12);
        TopicWordCounts start = TopicWordCounts.of(c, z, 40);
        CycleMhLdaSampler reused = CycleMhLdaSampler.of(p, start, 2);
        RandomStreams streams = new RandomStreams(13);
        for (int round = 0; round < 3; round++) {
            char[] topics = z.clone();
            reused.sweep(c, topics, streams.stream("warm", round));
            // The block just swept: only the rows' possible topics are visited; an equal copy of it: all K.
            TopicWordDelta visited = reused.delta(start, c);
            TopicWordDelta scanned = reused.delta(start, c.range(0, c.numDocuments()));
            assertTrue(visited.size() > 0, "the sweep changed some cells");
            assertArrayEquals(scanned.words(), visited.words());
            assertArrayEquals(scanned.topics(), visited.topics());
            assertArrayEquals(scanned.changes(), visited.changes());
            assertTrue(reused.restore(start, round == 1 ? c.range(0, c.numDocuments()) : c));
            assertEquals(start, reused.counts(), "round " + round);
        }
        char[] fromReused = z.clone();
        char[] fromFresh = z.clone();
        reused.sweep(c, fromReused, streams.stream("next"));
        CycleMhLdaSampler.of(p, start, 2).sweep(c, fromFresh, streams.stream("next"));
        assertArrayEquals(fromFresh, fromReused);
    }

    /**
     * The row layout changes no draw: AD-LDA's pattern (three blocks against the same global counts, the sampler
     * restored between them, two sweeps each, twice round) and then three sweeps of one block over the whole corpus,
     * with the counts all in dense rows, all in hash rows, and in the hybrid layout, which at K = 64 on this
     * long-tailed vocabulary holds both kinds (a word with 17 or more tokens is dense). Every block's topics, delta
     * and counts agree bit for bit, and their checksum is the one the sampler gave when it held the counts in one
     * dense W·K table (recorded before the hybrid rows, on commit 179ef40).
     */
    @Test
    void everyRowLayoutDrawsAsTheDenseSamplerDid() {
        LdaPriors p = new LdaPriors(64, 0.1, 0.01);
        Corpus c = longTailedCorpus();
        char[] z = LdaFixtures.randomTopics(c, 64, 32);
        List<int[]> dense = trace(c, z, p, HybridTopicRows.Layout.ALL_DENSE);
        for (HybridTopicRows.Layout layout : HybridTopicRows.Layout.values()) {
            List<int[]> t = trace(c, z, p, layout);
            assertEquals(dense.size(), t.size());
            for (int i = 0; i < t.size(); i++) {
                assertArrayEquals(dense.get(i), t.get(i), layout + ", item " + i);
            }
        }
        assertEquals(PIN, checksum(dense));
        CycleMhLdaSampler hybrid = CycleMhLdaSampler.of(p, TopicWordCounts.of(c, z, 64), 2);
        assertTrue(hybrid.rows().denseRows() > 0 && hybrid.rows().hashRows() > 0,
                hybrid.rows().denseRows() + " dense rows, " + hybrid.rows().hashRows() + " hash rows");
        assertEquals(0, CycleMhLdaSampler.of(p, TopicWordCounts.of(c, z, 64), 2, HybridTopicRows.Layout.ALL_HASH)
                .rows().denseRows());
    }

    private static final long PIN = 3_785_024_224_449_962_058L;

    /** 240 documents of 1–80 tokens over 400 words, word ⌊400·u³⌋: a few frequent words and a long tail. */
    static Corpus longTailedCorpus() {
        UniformRandomProvider rng = new RandomStreams(31).stream("zipf");
        int documents = 240;
        int[] starts = new int[documents + 1];
        for (int d = 0; d < documents; d++) {
            starts[d + 1] = starts[d] + 1 + rng.nextInt(80);
        }
        int[] words = new int[starts[documents]];
        for (int i = 0; i < words.length; i++) {
            words[i] = (int) (400 * Math.pow(rng.nextDouble(), 3));
        }
        int[] ids = new int[documents];
        Arrays.setAll(ids, d -> d + 1);
        return Corpus.of(starts, words, ids, 400);
    }

    static long checksum(List<int[]> trace) {
        long h = 1;
        for (int[] item : trace) {
            h = 31 * h + Arrays.hashCode(item);
        }
        return h;
    }

    /** The scenario of {@link #everyRowLayoutDrawsAsTheDenseSamplerDid}: every topic, delta and count it produces. */
    static List<int[]> trace(Corpus c, char[] z0, LdaPriors p, HybridTopicRows.Layout layout) {
        TopicWordCounts global = TopicWordCounts.of(c, z0, p.numTopics());
        Corpus[] blocks = c.blocks(3);
        List<int[]> out = new ArrayList<>();
        CycleMhLdaSampler sampler = CycleMhLdaSampler.of(p, global, 2, layout);
        RandomStreams streams = new RandomStreams(33);
        Corpus previous = null;
        for (int round = 0; round < 2; round++) {
            int from = 0;
            for (int b = 0; b < 3; b++) {
                if (previous != null) {
                    assertTrue(sampler.restore(global, previous));
                }
                char[] z = Arrays.copyOfRange(z0, from, from + blocks[b].numTokens());
                from += blocks[b].numTokens();
                for (int t = 0; t < 2; t++) {
                    sampler.sweep(blocks[b], z, streams.stream("s", round, b, t));
                }
                TopicWordDelta delta = sampler.delta(global, blocks[b]);
                out.add(ints(z));
                out.add(delta.words());
                out.add(delta.topics());
                out.add(delta.changes());
                out.add(new int[] {sampler.counts().hashCode()});
                previous = blocks[b];
            }
        }
        CycleMhLdaSampler one = CycleMhLdaSampler.of(p, global, 2, layout);
        char[] z = z0.clone();
        for (int t = 0; t < 3; t++) {
            one.sweep(c, z, streams.stream("one", t));
            out.add(ints(z));
            out.add(new int[] {one.counts().hashCode()});
        }
        return out;
    }

    private static int[] ints(char[] z) {
        int[] out = new int[z.length];
        for (int i = 0; i < z.length; i++) {
            out[i] = z[i];
        }
        return out;
    }
}
