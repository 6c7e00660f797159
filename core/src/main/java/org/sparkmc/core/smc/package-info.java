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
 * <p>References: Doucet &amp; Johansen (2009), "A tutorial on particle filtering and smoothing: fifteen years
 * later"; Gordon, Salmond &amp; Smith (1993) for the bootstrap filter; Douc, Cappé &amp; Moulines (2005),
 * "Comparison of resampling schemes for particle filtering"; Kong, Liu &amp; Wong (1994) for the ESS.
 */
package org.sparkmc.core.smc;
