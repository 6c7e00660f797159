/**
 * MCMC convergence diagnostics with the definitions of R's {@code posterior} package (version 1.4.0, and the
 * newer {@code ess_sd} of posterior 1.7): rank-normalised split R-hat, bulk and tail effective sample sizes,
 * quantile ESS, and Monte Carlo standard errors.
 *
 * <p>Draws are always given as {@code double[chain][iteration]}; every chain must have the same length. Where
 * {@code posterior} returns {@code NA} (too few draws, constant draws, non-finite values) these classes return
 * {@link Double#NaN}.
 *
 * <p>Reference: A. Vehtari, A. Gelman, D. Simpson, B. Carpenter and P.-C. Bürkner (2021), "Rank-normalization,
 * folding, and localization: An improved R-hat for assessing convergence of MCMC", <i>Bayesian Analysis</i>
 * 16(2), 667–718. The ESS estimator follows C. J. Geyer (1992), "Practical Markov chain Monte Carlo",
 * <i>Statistical Science</i> 7(4), 473–483.
 */
package org.sparkmc.core.diagnostics;
