/**
 * Importance sampling in log space: plain and self-normalised estimators, the ratio of normalising constants,
 * Kish's ESS and Monte Carlo standard errors ({@link org.sparkmc.core.importance.ImportanceSample}), and
 * sampling importance resampling ({@link org.sparkmc.core.importance.Sir}) by the SMC package's resamplers
 * ({@link org.sparkmc.core.smc.ResamplingScheme}).
 */
package org.sparkmc.core.importance;
