/**
 * The pure-Java half of consensus Monte Carlo, an embarrassingly parallel MCMC: the data rows are cut into S
 * shards, each shard's chain samples its sub-posterior p(θ)^{1/S} Π_{i ∈ s} p(y_i | x_i, θ) with no communication,
 * and the S sets of draws are combined into draws of the full posterior.
 *
 * <p>What a distributed job calls, in order:
 * <ol>
 *   <li>per shard (on an executor): the rows as primitive arrays — read from a file, or made by
 *       {@link org.sparkmc.core.consensus.SyntheticGlmData#fill} for whole stream blocks — then
 *       {@code new ShardTarget(likelihood, features, responses, priorSd, S, s)}, a
 *       {@link org.sparkmc.core.model.Target} that any {@link org.sparkmc.core.mcmc.Kernel} runs
 *       ({@link org.sparkmc.core.mcmc.ChainRound}, with the chain id the shard's number);</li>
 *   <li>driver: the shards' kept draws, {@code draws[s][t][j]}, as {@link org.sparkmc.core.consensus.ShardDraws#of};
 *       {@link org.sparkmc.core.consensus.ShardDisagreement#check} for a warning; then a
 *       {@link org.sparkmc.core.consensus.Combiner} — {@link org.sparkmc.core.consensus.ConsensusAverage} or
 *       {@link org.sparkmc.core.consensus.DensityProductCombiner}, with a stream from
 *       {@link org.sparkmc.core.random.RandomStreams} — and the combined draws reported through
 *       {@link org.sparkmc.core.consensus.RowLikelihood#parameters}.</li>
 * </ol>
 * A model is a {@link org.sparkmc.core.consensus.RowLikelihood}; the built-in ones are the GLMs
 * {@link org.sparkmc.core.consensus.LogisticGlm}, {@link org.sparkmc.core.consensus.PoissonGlm} and
 * {@link org.sparkmc.core.consensus.GaussianGlm}.
 *
 * <p>References: Scott, Blocker, Bonassi, Chipman, George &amp; McCulloch (2016), "Bayes and big data: the consensus
 * Monte Carlo algorithm"; Neiswanger, Wang &amp; Xing (2014), "Asymptotically exact, embarrassingly parallel MCMC".
 */
package org.sparkmc.core.consensus;
