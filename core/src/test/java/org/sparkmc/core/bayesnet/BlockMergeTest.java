package org.sparkmc.core.bayesnet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.ListSampler;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.random.RandomStreams;

/**
 * Block statistics merge deterministically: the estimate of blocks 0..B−1 is bit-identical however the blocks
 * are grouped into partitions and in whatever order the partitions are merged.
 */
class BlockMergeTest {
    private final BayesNet net = Alarm.network();

    private LikelihoodWeighting lw() {
        return LikelihoodWeighting.of(net, Evidence.parse(net, "HISTORY=TRUE,CVP=LOW"),
            net.requireVariable("LVFAILURE"), net.requireVariable("CO"));
    }

    @Test
    void anyGroupingOfBlocksGivesTheSameStatistic() {
        LikelihoodWeighting lw = lw();
        RandomStreams streams = new RandomStreams(31);
        BlockPlan plan = new BlockPlan(100_003, 5_000); // 21 blocks, the last of 3 samples
        assertEquals(21, plan.blocks());
        assertEquals(3, plan.samplesIn(20));
        List<WeightedCounts> blocks = new ArrayList<>();
        for (long b = 0; b < plan.blocks(); b++) {
            blocks.add(lw.block(streams, b, plan.samplesIn(b)));
        }
        WeightedCounts reference = lw.run(streams, plan);
        assertEquals(100_003, reference.samples());

        // 1 partition vs 4 partitions (round-robin, as Spark might place them), merged in reverse order.
        for (int partitions : new int[] {1, 2, 4, 7}) {
            List<WeightedCounts> partials = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                WeightedCounts acc = lw.empty();
                for (int b = p; b < blocks.size(); b += partitions) {
                    acc = acc.merge(blocks.get(b));
                }
                partials.add(acc);
            }
            Collections.reverse(partials);
            WeightedCounts total = lw.empty();
            for (WeightedCounts c : partials) {
                total = c.merge(total);
            }
            assertIdentical(reference, total);
        }
        // A tree reduction over a shuffled order.
        List<WeightedCounts> shuffled = new ArrayList<>(blocks);
        ListSampler.shuffle(new RandomStreams(5).stream("order"), shuffled);
        while (shuffled.size() > 1) {
            List<WeightedCounts> next = new ArrayList<>();
            for (int i = 0; i < shuffled.size(); i += 2) {
                next.add(i + 1 < shuffled.size() ? shuffled.get(i).merge(shuffled.get(i + 1)) : shuffled.get(i));
            }
            shuffled = next;
        }
        assertIdentical(reference, shuffled.get(0));
        // A block is a pure function of (seed, block id, size), and different blocks differ.
        assertIdentical(blocks.get(3), lw.block(new RandomStreams(31), 3, 5_000));
        assertNotEquals(blocks.get(3), blocks.get(4));
    }

    private void assertIdentical(WeightedCounts a, WeightedCounts b) {
        assertEquals(a, b);
        for (int q = 0; q < 2; q++) {
            Marginal ma = a.posterior(net, q);
            Marginal mb = b.posterior(net, q);
            assertArrayEquals(ma.probabilities(), mb.probabilities(), 0);
            assertArrayEquals(ma.standardErrors(), mb.standardErrors(), 0);
            assertEquals(ma.ess(), mb.ess(), 0);
        }
    }

    /** A Gibbs chain is a pure function of (seed, chain id); chain() equals initialState + draws on its stream. */
    @Test
    void gibbsChainsAreKeyedByChainId() {
        GibbsSampling g = GibbsSampling.of(net, Evidence.parse(net, "HISTORY=TRUE"), net.requireVariable("LVFAILURE"));
        GibbsChain a = g.chain(new RandomStreams(4), 2, 10, 200);
        GibbsChain b = g.chain(new RandomStreams(4), 2, 10, 200);
        assertArrayEquals(a.draws()[0], b.draws()[0]);
        UniformRandomProvider rng = new RandomStreams(4).stream(GibbsSampling.STREAM, 2);
        int[] state = g.initialState(rng);
        g.draws(state, rng, 10);
        assertArrayEquals(a.draws()[0], g.draws(state, rng, 200)[0]);
    }

    @Test
    void statisticsSurviveJavaSerialization() throws Exception {
        WeightedCounts c = lw().block(new RandomStreams(2), 0, 1000);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(c);
            out.writeObject(lw());
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertEquals(c, in.readObject());
            LikelihoodWeighting copy = (LikelihoodWeighting) in.readObject();
            assertEquals(c, copy.block(new RandomStreams(2), 0, 1000));
        }
    }

    @Test
    void mergingDifferentQueriesIsRefused() {
        WeightedCounts a = lw().empty();
        WeightedCounts b = LikelihoodWeighting.of(net, Evidence.none(net), 0).empty();
        assertThrows(IllegalArgumentException.class, () -> a.merge(b));
        WeightedCounts r = RejectionSampling.of(net, Evidence.none(net), net.requireVariable("LVFAILURE"),
            net.requireVariable("CO")).empty();
        assertThrows(IllegalArgumentException.class, () -> a.merge(r));
    }

    /** ExactSum is the correctly rounded exact sum, whatever the order; naive summation is not. */
    @Test
    void exactSumIsOrderIndependentAndCorrectlyRounded() {
        UniformRandomProvider rng = new RandomStreams(3).stream("sum");
        List<Double> values = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            double scale = Math.pow(10, rng.nextInt(40) - 20);
            values.add((rng.nextDouble() - 0.3) * scale);
        }
        values.add(1e16);
        values.add(1.0);
        values.add(-1e16);
        BigDecimal exact = BigDecimal.ZERO;
        for (double v : values) {
            exact = exact.add(new BigDecimal(v));
        }
        double expected = exact.doubleValue(); // BigDecimal rounds half-even to the nearest double
        boolean naiveDiffered = false;
        for (int trial = 0; trial < 20; trial++) {
            ListSampler.shuffle(new RandomStreams(6).stream("order", trial), values);
            ExactSum left = new ExactSum();
            ExactSum right = new ExactSum();
            double naive = 0;
            for (int i = 0; i < values.size(); i++) {
                (i % 3 == 0 ? left : right).add(values.get(i));
                naive += values.get(i);
            }
            left.add(right);
            assertEquals(expected, left.value(), 0);
            naiveDiffered |= naive != expected;
        }
        assertEquals(true, naiveDiffered, "the test data must defeat naive summation");
        // Half-way case resolved by a lower partial: 1e16 + 1 + 1e-16 rounds up to 1e16 + 2.
        ExactSum s = new ExactSum();
        s.add(1e-16);
        s.add(1);
        s.add(1e16);
        assertEquals(1e16 + 2, s.value(), 0);
    }
}
