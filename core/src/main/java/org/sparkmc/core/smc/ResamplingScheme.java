package org.sparkmc.core.smc;

import java.util.Locale;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.random.RandomStreams;

/**
 * The resampling schemes compared by Douc, Cappé &amp; Moulines (2005). All are unbiased (E[offspring_i] = n·W_i);
 * stratified, systematic and residual give each particle's offspring count a variance no larger than
 * multinomial's n·W_i(1 − W_i).
 */
public enum ResamplingScheme {
    /** n i.i.d. draws from the weights: sorted uniforms laid over the cumulative weights. */
    MULTINOMIAL,
    /** One uniform U; points (k + U)/n (Kitagawa 1996; Carpenter, Clifford &amp; Fearnhead 1999). */
    SYSTEMATIC,
    /** One uniform per stratum; points (k + U_k)/n (Kitagawa 1996). */
    STRATIFIED,
    /**
     * ⌊n·W_i⌋ copies of particle i, then the remaining R = n − Σ⌊n·W_i⌋ by multinomial resampling on the
     * residual weights (Liu &amp; Chen 1998). Distributed, it needs one more pass (see
     * {@link OffsetResampling#residualBlock}).
     */
    RESIDUAL;

    /**
     * The driver's draw for one resampling event at {@code step}, with n points, from streams keyed by the step
     * only. For {@link #RESIDUAL} pass the number R of residual points; its draw is multinomial.
     */
    public ResamplingDraw draw(long points, RandomStreams streams, long step) {
        if (points < 0) {
            throw new IllegalArgumentException("negative number of points " + points);
        }
        return switch (this) {
            case SYSTEMATIC -> new ResamplingDraws.Systematic(points, streams, step);
            case STRATIFIED -> new ResamplingDraws.Stratified(points, streams, step);
            case MULTINOMIAL, RESIDUAL -> new ResamplingDraws.Multinomial(points, streams, step);
        };
    }

    /** Parses a scheme name, case-insensitively ("systematic", "Multinomial"…). */
    public static ResamplingScheme parse(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new InvalidInputException("unknown resampling scheme '" + name
                    + "'; expected one of multinomial, systematic, stratified, residual", e);
        }
    }
}
