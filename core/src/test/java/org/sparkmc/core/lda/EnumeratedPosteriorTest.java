package org.sparkmc.core.lda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The enumerated posterior the sweep tests compare with, against two independent formulas (no randomness). */
class EnumeratedPosteriorTest {
    /**
     * It sums to 1; its log-ratios between assignments are those of {@link LdaLogLikelihood#joint}; and the
     * conditional of every swept token given the others is the dense collapsed-Gibbs formula
     * ({@link LdaFixtures#denseConditional}), for a whole sweep and for a sweep of ranges (two tokens fixed).
     */
    @Test
    void agreesWithTheJointAndTheFullConditionals() {
        LdaPriors p = new LdaPriors(2, 0.5, 0.3);
        Corpus c = EnumeratedPosterior.tinyCorpus();
        char[] start = {0, 1, 1, 0, 1, 0, 0};
        for (int[] ranges : new int[][] {null, {1, 4, 5, 7}}) {
            EnumeratedPosterior posterior = EnumeratedPosterior.of(c, p, start, ranges);
            assertEquals(ranges == null ? 128 : 32, posterior.states());
            double total = 0;
            double logZero = Math.log(posterior.probability(0));
            double jointZero = joint(c, posterior.assignment(0), p);
            for (int code = 0; code < posterior.states(); code++) {
                char[] z = posterior.assignment(code);
                assertEquals(code, posterior.code(z));
                total += posterior.probability(code);
                assertEquals(joint(c, z, p) - jointZero, Math.log(posterior.probability(code)) - logZero, 1e-10);
                for (int d = 0; d < c.numDocuments(); d++) {
                    int from = ranges == null ? c.docStart(d) : ranges[2 * d];
                    int to = ranges == null ? c.docEnd(d) : ranges[2 * d + 1];
                    for (int i = from; i < to; i++) {
                        // The assignments that differ from z only at token i: their posterior ratio.
                        char[] other = z.clone();
                        other[i] = (char) (1 - z[i]);
                        double ratio = posterior.probability(posterior.code(other)) / posterior.probability(code);
                        double[] conditional = LdaFixtures.denseConditional(c, z, d, i, p, true);
                        assertEquals(conditional[other[i]] / conditional[z[i]], ratio, 1e-12 * ratio,
                                "code " + code + ", token " + i);
                    }
                }
            }
            assertEquals(1, total, 1e-12);
        }
    }

    private static double joint(Corpus c, char[] z, LdaPriors p) {
        return LdaLogLikelihood.joint(c, z, TopicWordCounts.of(c, z, p.numTopics()), p);
    }
}
