package org.sparkmc.core.lda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.random.RandomStreams;

/** One task's blocks summed as they are swept, against the sum of the blocks' own deltas. */
class DeltaSumTest {
    private static final LdaPriors PRIORS = new LdaPriors(50, 0.1, 0.01);
    private static final Corpus CORPUS = LdaFixtures.randomCorpus(160, 40, 30, 5);
    private static final char[] TOPICS = LdaFixtures.randomTopics(CORPUS, 50, 6);
    private static final TopicWordCounts GLOBAL = TopicWordCounts.of(CORPUS, TOPICS, 50);

    /**
     * Four blocks of 20 documents swept in turn by one sweeper, against counts of 160 documents: with one sweep a
     * block's moves are logged in full and appended to the sum's log; with eight they pass the sampler's log (1,024
     * moves) and the block's rows are compared. Either way, and mixed in one sum, the total is the sum of the blocks'
     * deltas from fresh samplers, bit for bit, and taking it starts a new sum.
     */
    @Test
    void theTotalIsTheSumOfTheBlocksDeltas() {
        BlockSweeper sweeper = new BlockSweeper(PRIORS, LdaKernel.SPARSE_GIBBS);
        DeltaSum sum = new DeltaSum(GLOBAL);
        int[][] sweepsByRound = {{1, 1, 1, 1}, {8, 8, 8, 8}, {1, 8, 1, 8}};
        int[] compared = {0, 4, 2};
        for (int round = 0; round < sweepsByRound.length; round++) {
            List<TopicWordDelta> own = sweepFourBlocks(LdaKernel.SPARSE_GIBBS, sweeper, sum, new RandomStreams(9),
                    10 * round, sweepsByRound[round]);
            assertEquals(compared[round] < 4, sum.loggedMoves() > 0, "round " + round);
            assertEquals(compared[round], sum.deltasAdded(), "round " + round);
            assertSameDelta(TopicWordDelta.sum(own), sum.takeTotal());
            assertEquals(0, sum.loggedMoves());
            assertEquals(0, sum.deltasAdded());
        }
        TopicWordDelta none = sum.takeTotal();
        assertEquals(0, none.size());
        assertArrayEquals(new int[50], none.topicChanges());
    }

    /** Blocks whose moves would pass the sum's own log are summed apart, with the same total. */
    @Test
    void movesPastTheSumsLogAreSummedApart() {
        DeltaSum sum = new DeltaSum(GLOBAL, 1024);
        BlockSweeper sweeper = new BlockSweeper(PRIORS, LdaKernel.SPARSE_GIBBS);
        List<TopicWordDelta> own = sweepFourBlocks(LdaKernel.SPARSE_GIBBS, sweeper, sum, new RandomStreams(10), 0,
                new int[] {1, 1, 1, 1});
        assertTrue(sum.loggedMoves() > 0 && sum.deltasAdded() > 0, sum.loggedMoves() + " logged moves, "
                + sum.deltasAdded() + " deltas");
        assertSameDelta(TopicWordDelta.sum(own), sum.takeTotal());
    }

    /**
     * Block 0 (20 documents, 379 tokens) swept once from random topics, which moves about half its tokens. With two
     * topics its changed rows hold at most 30 words × 2 topics × 2 sides = 120 cells, fewer than its 176 moves: its
     * rows are compared. With eight topics they hold 480 cells and it has 326 moves: fewer moves than cells, so its
     * log is appended, though a block's own delta would compare those rows (it wants three times fewer moves). Either
     * way the total is the block's delta from a fresh sampler.
     */
    @Test
    void aBlockHandsOverItsLogUnlessItsRowsAreShorter() {
        assertBlockAddedAs(2, 0, 1);
        assertBlockAddedAs(8, 326, 0);
    }

    private static void assertBlockAddedAs(int numTopics, int loggedMoves, int deltasAdded) {
        LdaPriors priors = new LdaPriors(numTopics, 0.5, 0.01);
        char[] topics = LdaFixtures.randomTopics(CORPUS, numTopics, 7);
        TopicWordCounts global = TopicWordCounts.of(CORPUS, topics, numTopics);
        Corpus block = CORPUS.range(0, 20);
        char[] own = Arrays.copyOfRange(topics, 0, CORPUS.docStart(20));
        DeltaSum sum = new DeltaSum(global);
        RandomStreams streams = new RandomStreams(12);
        new BlockSweeper(priors, LdaKernel.SPARSE_GIBBS).sweepInto(sum, block, own, global, streams, 0, 1, 0);
        assertEquals(loggedMoves, sum.loggedMoves(), numTopics + " topics");
        assertEquals(deltasAdded, sum.deltasAdded(), numTopics + " topics");
        assertSameDelta(AdLda.sweepBlock(block, own, global, priors, streams, 0, 1, 0, LdaKernel.SPARSE_GIBBS).delta(),
                sum.takeTotal());
    }

    /** The cycle MH kernel keeps no move log: each block adds its delta, and the total is their sum. */
    @Test
    void aKernelWithoutAMoveLogAddsItsBlocksDeltas() {
        DeltaSum sum = new DeltaSum(GLOBAL);
        List<TopicWordDelta> own = sweepFourBlocks(LdaKernel.CYCLE_MH, new BlockSweeper(PRIORS, LdaKernel.CYCLE_MH),
                sum, new RandomStreams(11), 0, new int[] {1, 2, 1, 2});
        assertEquals(0, sum.loggedMoves());
        assertEquals(4, sum.deltasAdded());
        assertSameDelta(TopicWordDelta.sum(own), sum.takeTotal());
    }

    /**
     * Sweeps blocks 0–3 (documents 20b to 20b + 19) in turn into {@code sum}, block b {@code sweeps[b]} times, and
     * checks each block's draws against a fresh {@code kernel} sampler's; returns the fresh samplers' deltas.
     */
    private static List<TopicWordDelta> sweepFourBlocks(LdaKernel kernel, BlockSweeper sweeper, DeltaSum sum,
            RandomStreams streams, int firstSweep, int[] sweeps) {
        List<TopicWordDelta> own = new ArrayList<>();
        for (int b = 0; b < 4; b++) {
            Corpus block = CORPUS.range(20 * b, 20 * b + 20);
            char[] topics = Arrays.copyOfRange(TOPICS, CORPUS.docStart(20 * b), CORPUS.docStart(20 * b + 20));
            char[] swept = sweeper.sweepInto(sum, block, topics, GLOBAL, streams, firstSweep, sweeps[b], b);
            BlockUpdate alone = AdLda.sweepBlock(block, topics, GLOBAL, PRIORS, streams, firstSweep, sweeps[b], b,
                    kernel);
            assertArrayEquals(alone.topics(), swept, "the same draws as a fresh sampler");
            own.add(alone.delta());
        }
        return own;
    }

    private static void assertSameDelta(TopicWordDelta expected, TopicWordDelta actual) {
        assertArrayEquals(expected.words(), actual.words());
        assertArrayEquals(expected.topics(), actual.topics());
        assertArrayEquals(expected.changes(), actual.changes());
        assertArrayEquals(expected.topicChanges(), actual.topicChanges());
    }
}
