/**
 * Reversible-jump MCMC (Green 1995, "Reversible jump Markov chain Monte Carlo computation and Bayesian model
 * determination", <i>Biometrika</i> 82(4)): Metropolis–Hastings on a union of spaces of different dimensions.
 *
 * <p><b>State.</b> A chain's position is one {@code double[]} whose first entry is the model index m (an integer
 * stored as a double); the rest is the model's parameters, whose number depends on m, and optional latent
 * variables (e.g. allocations, stored as integer-valued doubles). Each {@link org.sparkmc.core.rjmcmc.TransDimensionalTarget}
 * documents its layout, e.g. {@link org.sparkmc.core.rjmcmc.NormalMixture}: {@code [k, β, w_1..w_k, μ_1..μ_k,
 * σ²_1..σ²_k, z_1..z_n]}. Positions change length with m; {@link org.sparkmc.core.mcmc.ChainState#jumpTo} accepts
 * that. The target's log density is with respect to counting measure on m (and on latent labels) times Lebesgue
 * measure on the model's continuous parameters, so every normalising constant that depends on m must be in it.
 *
 * <p><b>Moves.</b> A {@link org.sparkmc.core.rjmcmc.Move} updates the state in place. A Metropolis–Hastings move
 * ({@link org.sparkmc.core.rjmcmc.MetropolisMove}) follows BEAST2's operator contract: it proposes (m', x') from
 * (m, x) by drawing u, applying a deterministic bijection h(x, u) = (x', u') (a {@link org.sparkmc.core.rjmcmc.Bijection}
 * with dim(x) + dim(u) = dim(x') + dim(u')), and returns its full log acceptance-ratio correction in a
 * {@link org.sparkmc.core.rjmcmc.Proposed}: log j(m|m') − log j(m'|m), log q(u') − log q(u) and log |det ∂h/∂(x,u)|.
 * The move then accepts with probability min(1, π(m', x')/π(m, x) · exp(correction)). Gibbs moves draw from full
 * conditionals. A {@link org.sparkmc.core.rjmcmc.RjmcmcKernel} applies a target's sweep of moves and counts
 * proposals and acceptances per move type through its {@link org.sparkmc.core.rjmcmc.MoveCounter}.
 */
package org.sparkmc.core.rjmcmc;
