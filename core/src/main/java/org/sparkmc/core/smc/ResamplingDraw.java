package org.sparkmc.core.smc;

import java.io.Serializable;

/**
 * The randomness of one resampling event, drawn once by a driver and shipped to every partition: n points in
 * [0, 1) on the normalised cumulative-weight scale (one uniform for systematic resampling, a keyed stream per
 * chunk of strata for stratified, Gamma bin totals of exponential spacings for multinomial). Any partition can
 * count the points in its own cumulative-weight range with a {@link PointCounter}, without seeing the others, and
 * gets the counts the single-machine resampler gets. Create draws with {@link ResamplingScheme#draw}.
 */
public interface ResamplingDraw extends Serializable {
    /** The number n of points (offspring in total). */
    long points();

    /** A counter for queries y ≥ {@code yFrom}, positioned so that it does only the work that range needs. */
    PointCounter counter(double yFrom);
}
