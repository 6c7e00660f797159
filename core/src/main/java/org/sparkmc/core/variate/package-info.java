/**
 * Random variates by the classic named methods — inversion, Box–Muller, Marsaglia's polar method, the lectures'
 * gamma rejection scheme, Marsaglia–Tsang — as Commons-RNG-style samplers ({@code of(rng, …)}), plus generic
 * rejection sampling with envelope checks and adaptive rejection sampling (Gilks &amp; Wild 1992; Gilks 1992)
 * for log-concave densities and Gibbs full conditionals. Production code should prefer Commons RNG's samplers
 * where they exist; these are the tested references.
 */
package org.sparkmc.core.variate;
