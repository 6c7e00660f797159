package org.sparkmc.core.importance;

import java.util.Objects;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.ArraySampler;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.core.smc.Resampling;
import org.sparkmc.core.smc.ResamplingScheme;

/**
 * Sampling importance resampling (Rubin 1987, 1988): resample m of the n weighted draws of an importance sample
 * with probabilities proportional to their weights; as n → ∞ the resampled draws are distributed as p. The
 * resampled draws are dependent (duplicates), and SIR adds resampling noise to the self-normalised estimate.
 *
 * <p>The offspring counts come from the SMC package's resamplers ({@link Resampling#offspring} with any
 * {@link ResamplingScheme}); all four schemes are unbiased, E[count_i] = m·W_i. Those resamplers draw from
 * {@link RandomStreams} keyed by a step, so a call here seeds a fresh {@code RandomStreams} with one 64-bit draw
 * of the caller's generator, then shuffles the resampled indices with the same generator (Fisher–Yates): the
 * output order is random, so any prefix of it is itself a SIR sample, even when the input draws were sorted.
 * With {@link ResamplingScheme#MULTINOMIAL}, counts plus a random order make the m draws conditionally i.i.d.
 * from the weighted draws — Rubin's textbook SIR.
 *
 * <p>The default scheme, {@link #DEFAULT_SCHEME}, is {@link ResamplingScheme#SYSTEMATIC}: each draw is copied
 * ⌊m·W_i⌋ or ⌈m·W_i⌉ times, the smallest per-draw count variance of the four, and it is the SMC package's
 * default too. Douc, Cappé &amp; Moulines (2005) show that stratified and residual resampling never add more
 * variance to a resampled average than multinomial, while systematic has no such guarantee (they give a
 * counter-example); pick {@link ResamplingScheme#STRATIFIED} for that guarantee, or multinomial when later code
 * treats the resampled draws as independent.
 */
public final class Sir {
    /** The scheme used when none is given: systematic. */
    public static final ResamplingScheme DEFAULT_SCHEME = ResamplingScheme.SYSTEMATIC;

    private Sir() {
    }

    /**
     * The indices (into the sample's draws) of m resampled draws, by the given scheme, in random order.
     *
     * @param rng consumed for one long (the resampler's seed) and the shuffle
     * @param m the number of draws to resample, at least 1
     */
    public static int[] resampleIndices(UniformRandomProvider rng, ImportanceSample sample, int m,
            ResamplingScheme scheme) {
        Objects.requireNonNull(rng, "rng");
        Objects.requireNonNull(sample, "sample");
        Objects.requireNonNull(scheme, "scheme");
        if (m < 1) {
            throw new IllegalArgumentException("resample size must be positive, is " + m);
        }
        RandomStreams streams = new RandomStreams(rng.nextLong());
        int[] counts = Resampling.offspring(scheme, sample.normalisedWeights(), m, streams, 0);
        return ArraySampler.shuffle(rng, Resampling.ancestors(counts));
    }

    /** {@link #resampleIndices(UniformRandomProvider, ImportanceSample, int, ResamplingScheme)} by the default. */
    public static int[] resampleIndices(UniformRandomProvider rng, ImportanceSample sample, int m) {
        return resampleIndices(rng, sample, m, DEFAULT_SCHEME);
    }

    /**
     * m draws resampled from 1-d draws x_i with their log weights, in random order.
     *
     * @param draws x_i
     * @param logWeights ln w_i, same length (at least 2), not all −∞
     */
    public static double[] resample(UniformRandomProvider rng, double[] draws, double[] logWeights, int m,
            ResamplingScheme scheme) {
        ImportanceSample sample = ImportanceSample.of(logWeights, draws);
        int[] idx = resampleIndices(rng, sample, m, scheme);
        double[] out = new double[m];
        for (int i = 0; i < m; i++) {
            out[i] = draws[idx[i]];
        }
        return out;
    }

    /** {@link #resample(UniformRandomProvider, double[], double[], int, ResamplingScheme)} by the default. */
    public static double[] resample(UniformRandomProvider rng, double[] draws, double[] logWeights, int m) {
        return resample(rng, draws, logWeights, m, DEFAULT_SCHEME);
    }
}
