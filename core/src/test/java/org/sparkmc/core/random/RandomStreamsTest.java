package org.sparkmc.core.random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.apache.commons.rng.UniformRandomProvider;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.testing.ChiSquare;

class RandomStreamsTest {

    private static long[] first(UniformRandomProvider rng, int n) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = rng.nextLong();
        }
        return out;
    }

    @Test
    void sameKeySameSequenceAcrossInstances() {
        assertArrayEquals(first(new RandomStreams(42).stream("chain-round", 3, 7), 16),
                first(new RandomStreams(42).stream("chain-round", 3, 7), 16));
    }

    @Test
    void everyPartOfTheKeyMatters() {
        long[] base = first(new RandomStreams(42).stream("chain-round", 3, 7), 4);
        assertNotEquals(base[0], first(new RandomStreams(43).stream("chain-round", 3, 7), 4)[0]);
        assertNotEquals(base[0], first(new RandomStreams(42).stream("chain-init", 3, 7), 4)[0]);
        assertNotEquals(base[0], first(new RandomStreams(42).stream("chain-round", 7, 3), 4)[0]);
        assertNotEquals(base[0], first(new RandomStreams(42).stream("chain-round", 3, 7, 0), 4)[0]);
        assertNotEquals(base[0], first(new RandomStreams(42).stream("chain-round", 3), 4)[0]);
    }

    @Test
    void noCollisionsAmongManyNearbyKeys() {
        RandomStreams streams = new RandomStreams(0);
        Set<Long> hashes = new HashSet<>();
        for (long chain = 0; chain < 300; chain++) {
            for (long round = 0; round < 300; round++) {
                hashes.add(streams.keyHash("chain-round", chain, round));
            }
        }
        assertTrue(hashes.size() == 90_000);
    }

    /**
     * Neighbouring streams (chains 1 and 2 of seed 0) look independent: the first uniform of each of 20,000
     * consecutive keys is uniform (chi-square, 20 bins) and the sample correlation of paired streams is within
     * 4.5/sqrt(n). False-failure rate: below 1e-3 for the chi-square (p &lt; 1e-3) and 7e-6 for the correlation.
     */
    @Test
    void neighbouringStreamsLookIndependent() {
        RandomStreams streams = new RandomStreams(0);
        long[] counts = new long[20];
        for (long chain = 0; chain < 20_000; chain++) {
            counts[(int) (streams.stream("chain-round", chain, 1).nextDouble() * 20)]++;
        }
        assertTrue(ChiSquare.pValue(counts) > 1e-3);

        UniformRandomProvider a = streams.stream("chain-round", 1, 1);
        UniformRandomProvider b = streams.stream("chain-round", 2, 1);
        int n = 100_000;
        double sab = 0;
        for (int i = 0; i < n; i++) {
            sab += (a.nextDouble() - 0.5) * (b.nextDouble() - 0.5);
        }
        double correlation = sab / n * 12;
        assertTrue(Math.abs(correlation) < 4.5 / Math.sqrt(n), "correlation " + correlation);
    }
}
