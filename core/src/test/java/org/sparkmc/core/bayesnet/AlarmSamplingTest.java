package org.sparkmc.core.bayesnet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.random.RandomStreams;

/**
 * Likelihood weighting, rejection sampling and Gibbs sampling on ALARM agree with variable elimination within 4
 * standard errors (pattern (b), fixed seeds), for no evidence, common evidence, moderately rare evidence and rare
 * evidence (P(e) ≈ 4.6e-4), on the marginals of LVFAILURE, HYPOVOLEMIA, CO and INTUBATION (10 states).
 *
 * <p>False-failure rate: 4 SE is 6e-5 two-sided per state under normality; over the about 60 non-redundant
 * comparisons of this class, about 0.4% (a bit more for Gibbs, whose SE comes from 80 batch means). A state never
 * seen (p̂ = 0, SE 0) is compared with the binomial SE at the exact p and the weights' ESS instead.
 */
class AlarmSamplingTest {
    static final String[] QUERY = {"LVFAILURE", "HYPOVOLEMIA", "CO", "INTUBATION"};
    static final String[] EVIDENCE = {"", "HISTORY=TRUE,CVP=LOW", "CO=LOW,BP=HIGH",
        "HISTORY=TRUE,LVEDVOLUME=LOW,STROKEVOLUME=HIGH"};
    /** Rejection samples per evidence set, about 1/P(e) × 2,000 for the rare ones. */
    static final long[] REJECTION_SAMPLES = {200_000, 400_000, 1_000_000, 4_000_000};

    private final BayesNet net = Alarm.network();

    private int[] query() {
        int[] q = new int[QUERY.length];
        for (int i = 0; i < q.length; i++) {
            q[i] = net.requireVariable(QUERY[i]);
        }
        return q;
    }

    private void assertAgrees(String what, Evidence e, IntFunction<Marginal> estimate) {
        int[] q = query();
        for (int j = 0; j < q.length; j++) {
            Marginal exact = VariableElimination.posterior(net, e, q[j]);
            Marginal m = estimate.apply(j);
            for (int s = 0; s < exact.probabilities().length; s++) {
                double p = exact.probabilities()[s];
                double se = m.standardErrors()[s];
                if (!(se > 0)) { // p̂ 0 or 1: SE undefined (NaN); judge by the exact binomial SE
                    se = p > 0 && p < 1 ? Math.sqrt(p * (1 - p) / m.ess()) : 0;
                }
                double diff = Math.abs(m.probabilities()[s] - p);
                assertTrue(diff <= 4 * se, what + " [" + e.describe(net) + "] P(" + QUERY[j] + "=" + m.states()[s]
                    + ") = " + m.probabilities()[s] + " ± " + se + ", exact " + p + " (" + diff / se + " SE)");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3})
    void likelihoodWeightingAgreesWithVariableElimination(int set) {
        Evidence e = Evidence.parse(net, EVIDENCE[set]);
        LikelihoodWeighting lw = LikelihoodWeighting.of(net, e, query());
        WeightedCounts c = lw.run(new RandomStreams(100 + set), new BlockPlan(200_000, 25_000));
        assertEquals(200_000, c.samples());
        assertAgrees("likelihood weighting", e, j -> c.posterior(net, j));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3})
    void rejectionSamplingAgreesWithVariableElimination(int set) {
        Evidence e = Evidence.parse(net, EVIDENCE[set]);
        RejectionSampling rs = RejectionSampling.of(net, e, query());
        WeightedCounts c = rs.run(new RandomStreams(200 + set), new BlockPlan(REJECTION_SAMPLES[set], 100_000));
        // The acceptance rate estimates P(e): binomial, 5 sd.
        double pe = VariableElimination.probabilityOfEvidence(net, e);
        double n = c.samples();
        assertEquals(pe, c.sumOfWeights() / n, 5 * Math.sqrt(pe * (1 - pe) / n));
        assertAgrees("rejection sampling", e, j -> c.posterior(net, j));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3})
    void gibbsSamplingAgreesWithVariableElimination(int set) {
        Evidence e = Evidence.parse(net, EVIDENCE[set]);
        GibbsSampling g = GibbsSampling.of(net, e, query());
        List<GibbsChain> chains = chains(g, set);
        assertAgrees("Gibbs", e, j -> g.posterior(chains, j, 10));
    }

    /**
     * The Gibbs comparison can fail: a sampler that draws each variable from P(x_v | pa(v)) without its children's
     * factors ignores the evidence below it and is rejected with the correct sampler's evidence, seed and run
     * lengths (on P(LVFAILURE | HISTORY=TRUE, CVP=LOW): exact 0.984, the broken chains give about its prior 0.05).
     */
    @Test
    void gibbsWithoutTheChildrensFactorsFailsTheSameComparison() {
        int set = 1;
        Evidence e = Evidence.parse(net, EVIDENCE[set]);
        GibbsSampling g = GibbsSampling.withoutChildFactors(net, e, query());
        List<GibbsChain> chains = chains(g, set);
        AssertionError failure = assertThrows(AssertionError.class,
            () -> assertAgrees("broken Gibbs", e, j -> g.posterior(chains, j, 10)));
        assertTrue(failure.getMessage().startsWith("broken Gibbs"), failure.getMessage());
    }

    /** The Gibbs tests' run for evidence set {@code set}: 8 chains of 500 warm-up and 10,000 kept sweeps. */
    private static List<GibbsChain> chains(GibbsSampling g, int set) {
        RandomStreams streams = new RandomStreams(300 + set);
        List<GibbsChain> chains = new ArrayList<>();
        for (int c = 0; c < 8; c++) {
            chains.add(g.chain(streams, c, 500, 10_000));
        }
        return chains;
    }

    /**
     * The same comparison with 50 times the samples and every variable as a query (about 50 s). Tagged heavy and,
     * run with {@code mvn -B verify -Pheavy}.
     */
    @Tag("heavy")
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3})
    void allMarginalsAgreeAtLargeSampleSizes(int set) {
        Evidence e = Evidence.parse(net, EVIDENCE[set]);
        int[] all = new int[net.size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        WeightedCounts c = LikelihoodWeighting.of(net, e, all).run(new RandomStreams(400 + set),
            new BlockPlan(10_000_000, 1_000_000));
        for (int v = 0; v < all.length; v++) {
            Marginal exact = VariableElimination.posterior(net, e, v);
            Marginal m = c.posterior(net, v);
            for (int s = 0; s < exact.probabilities().length; s++) {
                double p = exact.probabilities()[s];
                double estimated = m.standardErrors()[s]; // NaN where p̂ is 0 or 1
                double se = Math.max(Double.isNaN(estimated) ? 0 : estimated, Math.sqrt(p * (1 - p) / m.ess()));
                // 5 SE over about 100 states: false alarm 6e-5 in all.
                assertEquals(p, m.probabilities()[s], 5 * se + 1e-12, net.variable(v) + "=" + m.states()[s]);
            }
        }
    }

    /**
     * The agreement test can fail: likelihood weighting that forgets its weights (clamped forward sampling) is
     * rejected on P(LVFAILURE | HISTORY=TRUE, CVP=LOW) (exact 0.984; unweighted ≈ 0.05).
     */
    @Test
    void unweightedClampedSamplingFailsTheSameComparison() {
        Evidence e = Evidence.parse(net, EVIDENCE[1]);
        int lvf = net.requireVariable("LVFAILURE");
        LikelihoodWeighting lw = LikelihoodWeighting.of(net, e, lvf);
        var rng = new RandomStreams(11).stream("broken");
        int[] state = new int[net.size()];
        int n = 20_000;
        int hits = 0;
        for (int i = 0; i < n; i++) {
            lw.weightedSample(rng, state); // weight ignored
            hits += state[lvf] == 0 ? 1 : 0;
        }
        double p = (double) hits / n;
        double se = Math.sqrt(p * (1 - p) / n);
        double exact = VariableElimination.posterior(net, e, lvf).probabilities()[0];
        assertTrue(Math.abs(p - exact) > 4 * se, "broken sampler passed: " + p + " vs " + exact);
    }

    /** FIO2=LOW with VENTALV=ZERO forces PVSAT=LOW: PVSAT=HIGH makes the evidence impossible. */
    @Test
    void evidenceOfProbabilityZeroIsAClearErrorNotNaN() {
        Evidence e = Evidence.parse(net, "FIO2=LOW,VENTALV=ZERO,PVSAT=HIGH");
        assertEquals(0, VariableElimination.probabilityOfEvidence(net, e));
        int q = net.requireVariable("LVFAILURE");
        WeightedCounts c = LikelihoodWeighting.of(net, e, q).run(new RandomStreams(5), new BlockPlan(10_000, 1000));
        assertEquals(0, c.sumOfWeights());
        assertEquals(0, c.ess());
        InvalidInputException lw = assertThrows(InvalidInputException.class, () -> c.posterior(net, 0));
        assertTrue(lw.getMessage().contains("all 10000 likelihood-weighting weights are zero"), lw.getMessage());
        InvalidInputException ve = assertThrows(InvalidInputException.class,
            () -> VariableElimination.posterior(net, e, q));
        assertTrue(ve.getMessage().contains("has probability zero"), ve.getMessage());
        assertThrows(InvalidInputException.class, () -> GibbsSampling.of(net, e, q)
            .initialState(new RandomStreams(5).stream("init")));
        WeightedCounts r = RejectionSampling.of(net, e, q).run(new RandomStreams(5), new BlockPlan(10_000, 1000));
        assertThrows(InvalidInputException.class, () -> r.posterior(net, 0));
    }
}
