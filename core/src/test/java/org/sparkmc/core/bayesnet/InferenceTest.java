package org.sparkmc.core.bayesnet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.random.RandomStreams;

/**
 * Variable elimination against brute-force enumeration on the lectures' burglary/earthquake alarm network (Pearl
 * 1988), forward sampling against the exact joint, and evidence parsing.
 */
class InferenceTest {
    static final String BURGLARY = """
        network burglary { }
        variable Burglary { type discrete [ 2 ] { T, F }; }
        variable Earthquake { type discrete [ 2 ] { T, F }; }
        variable Alarm { type discrete [ 2 ] { T, F }; }
        variable JohnCalls { type discrete [ 2 ] { T, F }; }
        variable MaryCalls { type discrete [ 2 ] { T, F }; }
        probability ( JohnCalls | Alarm ) { (T) 0.90, 0.10; (F) 0.05, 0.95; }
        probability ( MaryCalls | Alarm ) { (T) 0.70, 0.30; (F) 0.01, 0.99; }
        probability ( Alarm | Burglary, Earthquake ) {
          (T, T) 0.95, 0.05; (T, F) 0.94, 0.06; (F, T) 0.29, 0.71; (F, F) 0.001, 0.999;
        }
        probability ( Burglary ) { table 0.001, 0.999; }
        probability ( Earthquake ) { table 0.002, 0.998; }
        """;

    static BayesNet burglary() throws IOException {
        return BifReaderTest.read(BURGLARY);
    }

    /** P(query | e) by summing the joint over all 2^5 assignments. */
    private static double[] enumerate(BayesNet net, Evidence e, int query) {
        double[] p = new double[net.cardinality(query)];
        int[] a = new int[net.size()];
        int total = 1 << net.size();
        for (int code = 0; code < total; code++) {
            boolean ok = true;
            for (int i = 0; i < net.size(); i++) {
                a[i] = (code >> i) & 1;
                ok &= !e.isObserved(i) || e.state(i) == a[i];
            }
            if (ok) {
                p[a[query]] += net.jointProbability(a);
            }
        }
        double z = p[0] + p[1];
        return new double[] {p[0] / z, p[1] / z};
    }

    @Test
    void variableEliminationEqualsEnumeration() throws IOException {
        BayesNet net = burglary();
        for (String spec : new String[] {"", "JohnCalls=T,MaryCalls=T", "Alarm=T", "MaryCalls=F,Earthquake=T"}) {
            Evidence e = Evidence.parse(net, spec);
            for (int q = 0; q < net.size(); q++) {
                assertArrayEquals(enumerate(net, e, q), VariableElimination.posterior(net, e, q).probabilities(), 1e-12,
                    spec + " " + net.variable(q));
            }
        }
        // The textbook figure: P(Burglary | JohnCalls, MaryCalls) ≈ 0.284.
        Evidence calls = Evidence.parse(net, "JohnCalls=T,MaryCalls=T");
        assertEquals(0.284, VariableElimination.posterior(net, calls, 0).probabilities()[0], 5e-4);
        assertEquals(0.00208, VariableElimination.probabilityOfEvidence(net, calls), 1e-5);
    }

    /** P(e₁, e₂) = P(e₁)·P(e₂ | e₁) on ALARM: the evidence probability and the posterior agree. */
    @Test
    void variableEliminationIsConsistentOnAlarm() {
        BayesNet net = Alarm.network();
        Evidence e1 = Evidence.parse(net, "HISTORY=TRUE");
        Evidence both = Evidence.parse(net, "HISTORY=TRUE,CVP=LOW");
        int cvp = net.requireVariable("CVP");
        double chain = VariableElimination.probabilityOfEvidence(net, e1)
            * VariableElimination.posterior(net, e1, cvp).probabilities()[0];
        assertEquals(VariableElimination.probabilityOfEvidence(net, both), chain, 1e-14);
        assertEquals(1, VariableElimination.probabilityOfEvidence(net, Evidence.none(net)), 1e-12);
        assertEquals(0.05, VariableElimination.posterior(net, Evidence.none(net),
            net.requireVariable("LVFAILURE")).probabilities()[0], 1e-12);
    }

    /**
     * Forward sampling on the burglary network: the 8 states of (Alarm, JohnCalls, MaryCalls), each summed exactly over
     * Burglary and Earthquake, chi-square against exact probabilities (p > 1e-3).
     */
    @Test
    void forwardSamplingDrawsTheJoint() throws IOException {
        BayesNet net = burglary();
        // Condition on Burglary and Earthquake being sampled often enough: compare the 8 states of (A, J, M) only.
        long[] counts = new long[8];
        int n = 200_000;
        int[] a = new int[net.size()];
        ForwardSampler s = ForwardSampler.of(net);
        var rng = new RandomStreams(8).stream("forward");
        for (int i = 0; i < n; i++) {
            s.sample(rng, a);
            counts[a[2] * 4 + a[3] * 2 + a[4]]++;
        }
        double stat = 0;
        for (int code = 0; code < 8; code++) {
            double p = 0;
            for (int be = 0; be < 4; be++) {
                int[] x = {be >> 1, be & 1, code >> 2, (code >> 1) & 1, code & 1};
                p += net.jointProbability(x);
            }
            double expected = n * p;
            stat += (counts[code] - expected) * (counts[code] - expected) / expected;
        }
        double pValue = org.apache.commons.statistics.distribution.ChiSquaredDistribution.of(7).survivalProbability(stat);
        assertTrue(pValue > 1e-3, "p = " + pValue); // false-alarm rate 0.1%
    }

    @Test
    void evidenceParsing() throws IOException {
        BayesNet net = burglary();
        Evidence e = Evidence.parse(net, " JohnCalls = T , Earthquake=F ");
        assertEquals(2, e.count());
        assertEquals(0, e.state(net.requireVariable("JohnCalls")));
        assertEquals(1, e.state(net.requireVariable("Earthquake")));
        assertEquals("Earthquake=F,JohnCalls=T", e.describe(net));
        assertEquals(e, Evidence.of(net, Map.of("JohnCalls", "T", "Earthquake", "F")));
        assertEquals(0, Evidence.parse(net, "").count());
        assertTrue(assertThrows(InvalidInputException.class, () -> Evidence.parse(net, "Johncalls=T")).getMessage()
            .startsWith("unknown variable Johncalls in network 'burglary'"));
        assertTrue(assertThrows(InvalidInputException.class, () -> Evidence.parse(net, "JohnCalls=TRUE")).getMessage()
            .contains("variable JohnCalls has no state TRUE (its states: T, F)"));
        assertThrows(InvalidInputException.class, () -> Evidence.parse(net, "JohnCalls"));
        assertThrows(InvalidInputException.class, () -> Evidence.parse(net, "JohnCalls=T,JohnCalls=F"));
    }

    /** Gibbs on the burglary network with rare evidence (P ≈ 0.002), 4 SE from batch means (6e-5 false alarm). */
    @Test
    void gibbsOnTheBurglaryNetwork() throws IOException {
        BayesNet net = burglary();
        Evidence e = Evidence.parse(net, "JohnCalls=T,MaryCalls=T");
        GibbsSampling g = GibbsSampling.of(net, e, 0);
        List<GibbsChain> chains = burglaryChains(g);
        Marginal m = g.posterior(chains, 0, 20);
        double exact = VariableElimination.posterior(net, e, 0).probabilities()[0];
        assertEquals(exact, m.probabilities()[0], 4 * m.standardErrors()[0]);
        assertTrue(m.ess() > 1000, "ess " + m.ess());
        assertEquals(4, chains.size());
        assertEquals(50_000, chains.get(0).indicator(0, 0).length);
    }

    /**
     * The same comparison rejects a Gibbs sampler whose conditional leaves out the children's factors: Burglary is
     * then drawn from its prior (0.001) instead of its posterior (0.284) given both calls.
     */
    @Test
    void gibbsWithoutTheChildrensFactorsFailsOnTheBurglaryNetwork() throws IOException {
        BayesNet net = burglary();
        Evidence e = Evidence.parse(net, "JohnCalls=T,MaryCalls=T");
        GibbsSampling g = GibbsSampling.withoutChildFactors(net, e, 0);
        Marginal m = g.posterior(burglaryChains(g), 0, 20);
        double exact = VariableElimination.posterior(net, e, 0).probabilities()[0];
        assertTrue(Math.abs(m.probabilities()[0] - exact) > 4 * m.standardErrors()[0],
            "the broken sampler passed: " + m.probabilities()[0] + " ± " + m.standardErrors()[0] + ", exact " + exact);
    }

    /** One chain cut into one batch gives no spread of batch means: the SE and the ESS are NaN, not an ESS of ∞. */
    @Test
    void gibbsWithASingleBatchHasNoStandardErrorNorEss() throws IOException {
        BayesNet net = burglary();
        GibbsSampling g = GibbsSampling.of(net, Evidence.parse(net, "JohnCalls=T"), 0);
        Marginal m = g.posterior(List.of(g.chain(new RandomStreams(5), 0, 10, 1000)), 0, 1);
        assertTrue(Double.isNaN(m.standardErrors()[0]) && Double.isNaN(m.ess()), "se " + m.standardErrors()[0]
            + ", ess " + m.ess());
        assertEquals(1.0, m.probabilities()[0] + m.probabilities()[1], 1e-12);
    }

    /** The burglary tests' Gibbs run: 4 chains of 1,000 warm-up and 50,000 kept sweeps, seed 9. */
    private static List<GibbsChain> burglaryChains(GibbsSampling g) {
        List<GibbsChain> chains = new ArrayList<>();
        for (int c = 0; c < 4; c++) {
            chains.add(g.chain(new RandomStreams(9), c, 1000, 50_000));
        }
        return chains;
    }

    @Test
    void exactInferenceRefusesNetworksTooLargeForIt() {
        // 12 binary roots, all parents of one child: every elimination needs a factor of at least 2^12 entries.
        int n = 13;
        String[] names = new String[n];
        String[][] states = new String[n][];
        int[][] parents = new int[n][];
        double[][] cpt = new double[n][];
        for (int i = 0; i < n - 1; i++) {
            names[i] = "R" + i;
            states[i] = new String[] {"a", "b"};
            parents[i] = new int[0];
            cpt[i] = new double[] {0.5, 0.5};
        }
        names[n - 1] = "C";
        states[n - 1] = new String[] {"a", "b"};
        parents[n - 1] = java.util.stream.IntStream.range(0, n - 1).toArray();
        cpt[n - 1] = new double[2 << (n - 1)];
        java.util.Arrays.fill(cpt[n - 1], 0.5);
        BayesNet big = new BayesNet("big", names, states, parents, cpt);
        Evidence e = Evidence.parse(big, "C=a");
        InvalidInputException ex = assertThrows(InvalidInputException.class,
            () -> VariableElimination.posterior(big, e, 0, 1000));
        assertTrue(ex.getMessage().contains("too large for exact inference"), ex.getMessage());
        assertEquals(0.5, VariableElimination.posterior(big, e, 0).probabilities()[0], 1e-12);
    }
}
