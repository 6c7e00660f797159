package org.sparkmc.core.lda;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.random.RandomStreams;

/**
 * Best of several chains by training log-likelihood on the planted corpus the issue measured: {@code generate-lda
 * --preset small} with its default seed (D = 2,000 of which every tenth is held out, V = 2,000, 20 planted topics,
 * mean length 150), K = 20, α = 0.1, β = 0.01, one block (exact collapsed Gibbs). A planted topic is found when a
 * learned topic holds at least 9 of its 10 top words, the learned topics being the posterior mean of φ over the
 * states after sweeps 105, 110, …, 200 (what {@code lda --topic-samples 20 --topic-sample-every 5} reports).
 *
 * <p>Why the posterior mean: several planted topics have their 9th to 12th words within a few percent of each other
 * in φ (topic 12: 0.0189, 0.0187, 0.0182, 0.0182, 0.0178), closer than the counts of one state can tell apart, so
 * one state's top 10 misses such a topic in about half of the states of a chain that has every topic (BENCHMARKS.md,
 * "Planted-topic recovery"); the mean over 20 states does not. A chain with a merged pair is not rescued by it.
 *
 * <p>Every run has fixed seeds and is deterministic, so these tests fail only when the code changes; the figures
 * the thresholds come from, and how often a chain merges topics (a random event over seeds), are in BENCHMARKS.md.
 */
class BestOfChainsTest {
    /** {@code generate-lda --preset small} with its default seed. */
    static final PlantedCorpus.Settings SMALL = new PlantedCorpus.Settings(2_000, 2_000, 20, 150, 0.1, 1.0, 0.1,
            20261125L);
    private static final LdaPriors PRIORS = new LdaPriors(20, 0.1, 0.01);

    @Test
    void chainZeroHasTheRunsSeedAndTheOthersDistinctOnes() {
        assertEquals(42L, BestOfChains.chainSeed(42L, 0));
        assertEquals(new RandomStreams(42L).stream(BestOfChains.CHAIN_STREAM, 3).nextLong(),
                BestOfChains.chainSeed(42L, 3));
        List<Long> seeds = new ArrayList<>();
        for (int c = 0; c < 50; c++) {
            long s = BestOfChains.chainSeed(42L, c);
            assertTrue(!seeds.contains(s), "chain " + c + " repeats a seed");
            seeds.add(s);
        }
        assertNotEquals(BestOfChains.chainSeed(42L, 1), BestOfChains.chainSeed(43L, 1));
        assertThrows(IllegalArgumentException.class, () -> BestOfChains.chainSeed(42L, -1));
    }

    @Test
    void scoreIsTheMeanOfTheLastWindowAndTheFirstHighestWins() {
        double[] history = new double[15];
        for (int i = 0; i < history.length; i++) {
            history[i] = -10 + i;
        }
        // The last 10 of -10 … 4: -5 … 4, mean -0.5.
        assertEquals(-0.5, BestOfChains.score(history), 1e-12);
        assertEquals(-9.5, BestOfChains.score(new double[] {-10, -9}), 1e-12);
        assertThrows(IllegalArgumentException.class, () -> BestOfChains.score(new double[0]));
        assertEquals(10, BestOfChains.Score.of(0, 1, history).sweeps());
        assertEquals(2, BestOfChains.Score.of(0, 1, new double[] {-10, -9}).sweeps()); // fewer sweeps than the window
        List<BestOfChains.Score> scores = List.of(new BestOfChains.Score(0, 1, -5, 10),
                new BestOfChains.Score(1, 2, -4, 10), new BestOfChains.Score(2, 3, -4, 10),
                new BestOfChains.Score(3, 4, Double.NaN, 10));
        assertEquals(1, BestOfChains.best(scores));
        assertEquals(1, BestOfChains.best(List.of(new BestOfChains.Score(0, 1, Double.NaN, 10),
                new BestOfChains.Score(1, 2, -7, 10))));
        assertThrows(IllegalArgumentException.class, () -> BestOfChains.best(List.of()));
    }

    /**
     * {@link BestOfChains#run} is the chosen chain's plain run: its state equals a single chain run from its seed
     * for the same sweeps, and its score is the highest.
     */
    @Test
    void theChosenChainIsThePlainRunOfItsSeed() {
        Corpus corpus = LdaFixtures.plantedCorpus(3, 6, 60, 30, 3L);
        LdaPriors priors = new LdaPriors(3, 0.5, 0.1);
        BestOfChains.Result r = BestOfChains.run(corpus, 2, priors, 7L, 4, 12, 20);
        assertEquals(4, r.scores().size());
        assertEquals(BestOfChains.best(r.scores()), r.chosen());
        for (BestOfChains.Score s : r.scores()) {
            assertTrue(s.score() <= r.scores().get(r.chosen()).score());
            assertEquals(BestOfChains.chainSeed(7L, s.chain()), s.seed());
        }
        AdLdaDriver alone = AdLdaDriver.start(corpus, 2, priors, new RandomStreams(r.scores().get(r.chosen()).seed()));
        for (int s = 0; s < 20; s++) {
            alone.sweep();
        }
        assertEquals(20, r.driver().sweepsDone());
        assertEquals(alone.counts(), r.driver().counts());
        for (int b = 0; b < 2; b++) {
            assertArrayEquals(alone.topics(b), r.driver().topics(b));
        }
        assertThrows(IllegalArgumentException.class, () -> BestOfChains.run(corpus, 2, priors, 7L, 0, 12, 20));
        assertThrows(IllegalArgumentException.class, () -> BestOfChains.run(corpus, 2, priors, 7L, 2, 21, 20));
    }

    /**
     * The mechanism on one seed where it matters: run seed 1's plain chain merges planted topics and misses 2 of
     * the 20 (found 18 with the posterior mean), and so does its chain 1, while chain 2 finds every topic: best of 3
     * chains explored for 100 sweeps each (score at sweep 100: chain 0 −4.883, 1 −4.888, 2 −4.826 nats per
     * token) chooses chain 2, which finds all 20. About 600 sweeps of 0.26 M tokens (several seconds).
     */
    @Test
    void bestOfThreeFindsEveryPlantedTopicWhereThePlainChainMergesTwo() {
        PlantedCorpus model = PlantedCorpus.of(SMALL);
        Corpus corpus = model.trainingCorpus(10);
        BestOfChains.Result plain = BestOfChains.run(corpus, 1, PRIORS, 1L, 1, 100, 100);
        int plainFound = found(model, plain.driver(), 200);
        assertTrue(plainFound < 20, "the plain chain of seed 1 found all 20 planted topics: the test's premise fails");
        BestOfChains.Result best = BestOfChains.run(corpus, 1, PRIORS, 1L, 3, 100, 100);
        assertEquals(2, best.chosen(), "scores " + best.scores());
        assertEquals(20, found(model, best.driver(), 200), "scores " + best.scores());
    }

    /**
     * The target, over 10 run seeds (1 … 10) with 8 chains explored for 100 sweeps each and the best run on
     * to sweep 200: every planted topic found in at least 9 of 10 seeds. Measured (BENCHMARKS.md, "Planted-topic
     * recovery"): 9 of 10, the tenth (seed 4) finding 19, its chosen chain free of merges but its posterior mean
     * holding 8 of topic 2's near-tied top 10; the plain chain: 3 of 10, best of 4: 8 of 10. Over fresh seeds a seed
     * fails with a probability of about 0.1 (one in these 10), so 2 or more failures in 10 would come about 26% of
     * the time; these 10 seeds are fixed and every run is deterministic, so the test fails only when the code
     * changes. About 9,000 sweeps of 0.26 M tokens (6 minutes on the shared 2-core machine, the fast test above 17 s):
     * tagged heavy ({@code mvn verify -Pheavy}).
     */
    @Test
    @Tag("heavy")
    void bestOfEightFindsEveryPlantedTopicInNineOfTenSeeds() {
        PlantedCorpus model = PlantedCorpus.of(SMALL);
        Corpus corpus = model.trainingCorpus(10);
        StringBuilder report = new StringBuilder();
        int allFound = 0;
        for (long seed = 1; seed <= 10; seed++) {
            BestOfChains.Result best = BestOfChains.run(corpus, 1, PRIORS, seed, 8, 100, 100);
            int found = found(model, best.driver(), 200);
            report.append(" seed ").append(seed).append(": ").append(found).append(" (chain ").append(best.chosen())
                    .append(')');
            allFound += found == 20 ? 1 : 0;
        }
        assertTrue(allFound >= 9, "all 20 planted topics found in " + allFound + " of 10 seeds:" + report);
    }

    /**
     * Advances {@code driver} from sweep {@code sweeps} − 100 or earlier to {@code sweeps} and counts the planted
     * topics found by the posterior mean over its states after sweeps 105, 110, …, {@code sweeps}.
     */
    static int found(PlantedCorpus model, AdLdaDriver driver, int sweeps) {
        PosteriorMeanTopics mean = PosteriorMeanTopics.of(20, model.settings().vocabularySize(), 0.01);
        if (driver.sweepsDone() > sweeps - 100) {
            throw new IllegalArgumentException("the driver is past the averaging window");
        }
        while (driver.sweepsDone() < sweeps) {
            driver.sweep();
            if (driver.sweepsDone() > sweeps - 100 && driver.sweepsDone() % 5 == 0) {
                mean.add(driver.counts());
            }
        }
        int found = 0;
        for (boolean f : model.found(mean.phi(), 20, 10, 9)) {
            found += f ? 1 : 0;
        }
        return found;
    }
}
