package org.sparkmc.core.lda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.statistics.distribution.ChiSquaredDistribution;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.random.RandomStreams;

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
     * Repeated redraws of one token (the rest fixed) are independent draws from its conditional; binned by topic
     * they must fit the dense formula: 50 repetitions of 20,000 draws, chi-square at 1%, fail if more than 3 of 50
     * fail (binomial(50, 0.01) tail: about 0.16% false alarms). Priors with large α and β put mass in all three
     * buckets, so each path of the draw is exercised; the same draws against the conditional that forgets to remove
     * token i (a classic bug) must fail.
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
                if (pValue(tally, exact) < 0.01) {
                    failed++;
                }
                if (pValue(tally, wrong) < 0.01) {
                    failedWrong++;
                }
            }
            assertTrue(failed <= 3, "case " + c + ": " + failed + " of " + REPETITIONS + " repetitions failed");
            assertTrue(failedWrong > 3, "case " + c + ": the wrong conditional passed (" + failedWrong + " failures)");
        }
    }

    private static double pValue(long[] counts, double[] weights) {
        double total = 0;
        long n = 0;
        for (int k = 0; k < counts.length; k++) {
            total += weights[k];
            n += counts[k];
        }
        double stat = 0;
        for (int k = 0; k < counts.length; k++) {
            double e = n * weights[k] / total;
            stat += (counts[k] - e) * (counts[k] - e) / e;
        }
        return ChiSquaredDistribution.of(counts.length - 1).survivalProbability(stat);
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
}
