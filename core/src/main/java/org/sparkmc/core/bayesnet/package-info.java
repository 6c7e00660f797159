/**
 * Discrete Bayesian networks: a BIF reader, forward, rejection and likelihood-weighting samplers whose blocks
 * return exactly mergeable {@link org.sparkmc.core.bayesnet.WeightedCounts} (for distributed runs keyed by block
 * id), Gibbs sampling over Markov blankets, and exact inference by variable elimination.
 */
package org.sparkmc.core.bayesnet;
