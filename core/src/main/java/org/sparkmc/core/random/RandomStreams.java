package org.sparkmc.core.random;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import org.apache.commons.rng.RestorableUniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;

/**
 * Derives an independent random stream for any key from one root seed.
 *
 * <p>The key — a purpose such as {@code "chain"} and integers such as (chain id, round) — is hashed with the
 * SplitMix64 finaliser (Steele, Lea &amp; Flood 2014) into 64 bits, which are expanded by a SplitMix64 sequence
 * into the 256-bit state of a xoshiro256++ generator (Blackman &amp; Vigna 2018, Commons RNG
 * {@code XO_SHI_RO_256_PP}). The key never involves a Spark partition, executor or thread, so the draws of a
 * chain or a block depend only on the root seed and the key: not on the cluster, the partitioning or task
 * retries. The derivation is part of the output contract: changing it changes every result for a seed.
 */
public final class RandomStreams implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;

    private final long rootSeed;

    public RandomStreams(long rootSeed) {
        this.rootSeed = rootSeed;
    }

    public long rootSeed() {
        return rootSeed;
    }

    /** A fresh generator for (purpose, ids…); the same key always gives the same sequence. */
    public RestorableUniformRandomProvider stream(String purpose, long... ids) {
        return RandomSource.XO_SHI_RO_256_PP.create(expand(keyHash(purpose, ids)));
    }

    /** A fresh {@link Rng} (uniform and standard-normal draws) for (purpose, ids…). */
    public Rng rng(String purpose, long... ids) {
        return new Rng(stream(purpose, ids));
    }

    long keyHash(String purpose, long... ids) {
        long h = mix(rootSeed ^ GOLDEN_GAMMA);
        for (byte b : purpose.getBytes(StandardCharsets.UTF_8)) {
            h = mix(h + GOLDEN_GAMMA + (b & 0xff));
        }
        h = mix(h ^ (purpose.length() + 1L) * GOLDEN_GAMMA);
        for (long id : ids) {
            h = mix(h + GOLDEN_GAMMA ^ id);
        }
        return mix(h + ids.length);
    }

    private static long[] expand(long hash) {
        long[] state = new long[4];
        long x = hash;
        for (int i = 0; i < state.length; i++) {
            x += GOLDEN_GAMMA;
            state[i] = mix(x);
        }
        return state;
    }

    /** SplitMix64's output function (Stafford's variant 13): a bijective 64-bit mix, also usable as a hash step. */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
