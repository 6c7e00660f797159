package org.sparkmc.core.smc;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.random.RandomStreams;

/**
 * Sequential Monte Carlo on one machine: SIS with incremental log-weights plus adaptive resampling (Doucet &amp;
 * Johansen 2009, §3.4–3.5). Each {@link #step} moves and weights every block ({@link BlockPropagation}), folds
 * the block summaries in block order ({@link GlobalWeights}), adds log Σ_i W_{n−1}^i α_n^i to log p̂, and, when
 * ESS &lt; τ·N, resamples by {@link Resampling} (the block-wise {@link OffsetResampling}) with the draw keyed by the
 * step. Memory is constant over time: N states, N log-weights and one spare state array; no paths are kept.
 *
 * <p>This is the reference a distributed job must reproduce: for the same seed, N and block size it gives the
 * same particles bit for bit. Not thread-safe.
 */
public final class ParticleSystem {
    private final ParticleKernel kernel;
    private final int n;
    private final int dim;
    private final SmcOptions options;
    private final RandomStreams streams;
    private final int blocks;
    private double[] states;
    private double[] spare;
    private final double[] logWeights;
    private final double[] scratch;
    private final int[] counts;
    private int step;
    private double previousLogSum;
    private double logLikelihood;

    public ParticleSystem(ParticleKernel kernel, int particles, SmcOptions options, RandomStreams streams) {
        this.kernel = Objects.requireNonNull(kernel, "kernel");
        this.options = Objects.requireNonNull(options, "options");
        this.streams = Objects.requireNonNull(streams, "streams");
        if (particles < 1) {
            throw new InvalidInputException("number of particles must be positive, is " + particles);
        }
        this.n = particles;
        this.dim = kernel.dimension();
        this.blocks = (int) ((particles + (long) options.blockSize() - 1) / options.blockSize());
        this.states = new double[Math.multiplyExact(particles, dim)];
        this.spare = new double[states.length];
        this.logWeights = new double[particles];
        this.scratch = new double[Math.min(particles, options.blockSize())];
        this.counts = new int[particles];
        this.previousLogSum = BlockPropagation.logSumAfterResampling(particles);
    }

    /**
     * Runs step n = {@link #steps()} with its observation (null if the sequence has none).
     *
     * @throws InvalidInputException if the observation has the wrong number of values, or a NaN when missing
     *     observations fail
     * @throws WeightCollapseException if every weight became zero
     */
    public StepSummary step(double[] observation) {
        int p = kernel.dataDimension();
        if (observation != null && p >= 0 && observation.length != p) {
            throw new InvalidInputException("observation at time step " + step + " has " + observation.length
                    + " values, the model expects " + p);
        }
        boolean missing = Observations.isMissing(observation);
        if (observation != null && missing && options.missing() == MissingObservations.FAIL) {
            throw new InvalidInputException("observation at time step " + step
                    + " is missing (NaN); set missing observations to 'skip' to treat it as unobserved");
        }
        int bs = options.blockSize();
        List<BlockSummary> summaries = new ArrayList<>(blocks);
        for (int b = 0; b < blocks; b++) {
            int from = b * bs;
            int to = Math.min(n, from + bs);
            summaries.add(BlockPropagation.propagate(kernel, step, observation, states, logWeights, from, to, b,
                    previousLogSum, streams, scratch));
        }
        GlobalWeights g = GlobalWeights.of(step, summaries);
        double increment = g.logSum();
        logLikelihood += increment;
        boolean resample = options.resamples(g.ess(), n);
        if (resample) {
            Resampling.offspring(options.scheme(), logWeights, bs, g, n, streams, step, counts);
            int k = 0;
            if (dim == 1) {
                for (int i = 0; i < n; i++) {
                    double x = states[i];
                    for (int c = counts[i]; c > 0; c--) {
                        spare[k++] = x;
                    }
                }
            } else {
                for (int i = 0; i < n; i++) {
                    for (int c = counts[i]; c > 0; c--) {
                        System.arraycopy(states, i * dim, spare, k * dim, dim);
                        k++;
                    }
                }
            }
            double[] t = states;
            states = spare;
            spare = t;
            BlockPropagation.resetLogWeights(logWeights, 0, n);
            previousLogSum = BlockPropagation.logSumAfterResampling(n);
        } else {
            previousLogSum = g.logSum();
        }
        return new StepSummary(step++, g.mean(), g.variance(), g.ess(), resample, increment,
                observation == null || !missing);
    }

    /** log p̂ of the data seen so far (the sum of the steps' increments). */
    public double logLikelihood() {
        return logLikelihood;
    }

    /** Number of steps run. */
    public int steps() {
        return step;
    }

    public int particles() {
        return n;
    }

    /** A copy of the current states (N×d row-major). */
    public double[] states() {
        return states.clone();
    }

    /** A copy of the current log-weights (normalised by the previous step's log-sum; 0 after resampling). */
    public double[] logWeights() {
        return logWeights.clone();
    }
}
