package org.sparkmc.core.lda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.random.RandomStreams;

/** One task's blocks summed as they are swept, against the sum of the blocks' own deltas. */
class DeltaSumTest {
    private static final LdaPriors PRIORS = new LdaPriors(50, 0.1, 0.01);

    /**
     * Four blocks of 20 documents swept in turn by one sweeper, against counts of 160 documents: with one sweep a
     * block's moves are logged in full and appended to the sum's log; with eight they pass the sampler's log (1,024
     * moves) and the block's rows are compared. Either way, and mixed in one sum, the total is the sum of the blocks'
     * deltas from fresh samplers, bit for bit, and taking it starts a new sum.
     */
    @Test
    void theTotalIsTheSumOfTheBlocksDeltas() {
        Corpus c = LdaFixtures.randomCorpus(160, 40, 30, 5);
        char[] z = LdaFixtures.randomTopics(c, 50, 6);
        TopicWordCounts global = TopicWordCounts.of(c, z, 50);
        RandomStreams streams = new RandomStreams(9);
        BlockSweeper sweeper = new BlockSweeper(PRIORS, LdaKernel.SPARSE_GIBBS);
        DeltaSum sum = new DeltaSum(global);
        int[][] sweepsByRound = {{1, 1, 1, 1}, {8, 8, 8, 8}, {1, 8, 1, 8}};
        int[][] expectedLoggedAndCompared = {{4, 0}, {0, 4}, {2, 2}};
        for (int round = 0; round < sweepsByRound.length; round++) {
            List<TopicWordDelta> own = new ArrayList<>();
            for (int b = 0; b < 4; b++) {
                Corpus block = c.range(20 * b, 20 * b + 20);
                char[] topics = java.util.Arrays.copyOfRange(z, c.docStart(20 * b), c.docStart(20 * b + 20));
                int sweeps = sweepsByRound[round][b];
                char[] swept = sweeper.sweepInto(sum, block, topics, global, streams, 10 * round, sweeps, b);
                BlockUpdate alone = AdLda.sweepBlock(block, topics, global, PRIORS, streams, 10 * round,
                        sweeps, b);
                assertArrayEquals(alone.topics(), swept, "the same draws as a fresh sampler");
                own.add(alone.delta());
            }
            assertEquals(expectedLoggedAndCompared[round][0] > 0, sum.loggedMoves() > 0, "round " + round);
            assertEquals(expectedLoggedAndCompared[round][1], sum.deltasAdded(), "round " + round);
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
        Corpus c = LdaFixtures.randomCorpus(160, 40, 30, 5);
        char[] z = LdaFixtures.randomTopics(c, 50, 6);
        TopicWordCounts global = TopicWordCounts.of(c, z, 50);
        RandomStreams streams = new RandomStreams(10);
        BlockSweeper sweeper = new BlockSweeper(PRIORS, LdaKernel.SPARSE_GIBBS);
        DeltaSum sum = new DeltaSum(global, 1024);
        List<TopicWordDelta> own = new ArrayList<>();
        for (int b = 0; b < 4; b++) {
            Corpus block = c.range(20 * b, 20 * b + 20);
            char[] topics = java.util.Arrays.copyOfRange(z, c.docStart(20 * b), c.docStart(20 * b + 20));
            sweeper.sweepInto(sum, block, topics, global, streams, 0, 1, b);
            own.add(AdLda.sweepBlock(block, topics, global, PRIORS, streams, 0, 1, b).delta());
        }
        assertTrue(sum.loggedMoves() > 0 && sum.deltasAdded() > 0, sum.loggedMoves() + " logged moves, "
                + sum.deltasAdded() + " deltas");
        assertSameDelta(TopicWordDelta.sum(own), sum.takeTotal());
    }

    private static void assertSameDelta(TopicWordDelta expected, TopicWordDelta actual) {
        assertArrayEquals(expected.words(), actual.words());
        assertArrayEquals(expected.topics(), actual.topics());
        assertArrayEquals(expected.changes(), actual.changes());
        assertArrayEquals(expected.topicChanges(), actual.topicChanges());
    }
}
