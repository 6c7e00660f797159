/**
 * Sequential importance sampling and sequential Monte Carlo (particle filters), in a form that a distributed
 * job can split into blocks of particles and still reproduce the single-machine answer bit for bit.
 *
 * <p>Particles live in primitive arrays: states as N×d row-major {@code double[]} (particle i occupies
 * {@code states[i·d .. i·d + d)}), log-weights as {@code double[N]}. Particles are grouped into fixed-size
 * <em>blocks</em> of consecutive global indices ({@link SmcOptions#blockSize()}); a block is the unit of random
 * streams (keyed by (time step, block) in {@link org.sparkmc.core.random.RandomStreams}), of weight summaries
 * ({@link BlockSummary}, folded in block order by {@link GlobalWeights}) and of resampling by cumulative-weight
 * offsets ({@link OffsetResampling}). A partition that owns whole blocks can therefore compute exactly what the
 * single-machine {@link ParticleSystem} computes for those blocks. The block size, like the seed, is part of the
 * output contract; the number of partitions is not.
 *
 * <p>One time step of a distributed job, with the calls it makes (the single-machine {@link ParticleSystem} makes
 * the same calls in the same order):
 * <ol>
 *   <li>Executors, for each block b they own (local arrays, local [from, to)):
 *       {@link BlockPropagation#propagate}(kernel, step, y, states, logWeights, from, to, b, previousLogSum,
 *       streams, scratch) → {@link BlockSummary}.</li>
 *   <li>Driver: {@link GlobalWeights#of}(step, summaries in block order) → log-likelihood increment
 *       {@link GlobalWeights#logSum()}, ESS, filtering mean and variance; throws {@link WeightCollapseException}.
 *       Resample if {@link SmcOptions#resamples}(ess, N): draw = {@link ResamplingScheme#draw}(N, streams,
 *       step) and ship (GlobalWeights, draw).</li>
 *   <li>Executors, per block: {@link OffsetResampling#offspring}(logWeights, from, to, b, g, draw, counts, from)
 *       returns the global index of the block's first offspring; offspring k of the block goes to new index
 *       first + k, i.e. to the partition owning block (first + k) / blockSize. Receivers place offspring by new
 *       index and {@link BlockPropagation#resetLogWeights}; the driver's next previousLogSum is
 *       {@link BlockPropagation#logSumAfterResampling}(N), otherwise it is this step's logSum.</li>
 * </ol>
 * Residual resampling takes one more round trip: {@link OffsetResampling#residualBlock} per block, then
 * {@link ResidualWeights#of} on the driver, then {@link OffsetResampling#residualOffspring}. Serializable classes to
 * register are listed by {@link SmcClasses#shipped()}. Online use is {@link ParticleSystem#step} per arriving
 * observation: constant time and memory per observation, no paths kept.
 *
 * <p>References: Doucet &amp; Johansen (2009), "A tutorial on particle filtering and smoothing: fifteen years
 * later"; Gordon, Salmond &amp; Smith (1993) for the bootstrap filter; Douc, Cappé &amp; Moulines (2005),
 * "Comparison of resampling schemes for particle filtering"; Kong, Liu &amp; Wong (1994) for the ESS.
 */
package org.sparkmc.core.smc;
