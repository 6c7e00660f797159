package org.sparkmc.spark.bn;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.core.bayesnet.Marginal;
import org.sparkmc.core.bayesnet.VariableElimination;

/**
 * Exact posterior marginals of the query variables and P(e), by variable elimination on the driver (core
 * {@link VariableElimination}: Zhang &amp; Poole 1994).
 *
 * @param marginals           in query order
 * @param evidenceProbability P(e) (1 without evidence)
 */
public record ExactAnswer(Marginal[] marginals, double evidenceProbability) {
    private static final Logger LOG = LoggerFactory.getLogger(ExactAnswer.class);

    /**
     * The exact answer as the run's {@link ExactMode} asks: null when not wanted, or (in {@code auto}) when the
     * network needs an intermediate factor of more than {@link ExactMode#CHEAP_FACTOR_ENTRIES} entries.
     *
     * @throws InvalidInputException if the evidence has probability zero, or exact inference was required
     *     ({@code --exact=always}, {@code --method exact}) and the network is too large for it
     */
    public static ExactAnswer of(BnConfig config) {
        boolean required = config.method() == BnMethod.EXACT || config.exact() == ExactMode.ALWAYS;
        if (!required && config.exact() == ExactMode.NEVER) {
            return null;
        }
        long limit = required ? VariableElimination.MAX_FACTOR_ENTRIES : ExactMode.CHEAP_FACTOR_ENTRIES;
        int[] query = config.query();
        Marginal[] marginals = new Marginal[query.length];
        long t0 = System.nanoTime();
        try {
            for (int j = 0; j < query.length; j++) {
                marginals[j] = VariableElimination.posterior(config.net(), config.evidence(), query[j], limit);
            }
            double pe = VariableElimination.probabilityOfEvidence(config.net(), config.evidence());
            LOG.info("bn: exact answer by variable elimination in {} ms", (System.nanoTime() - t0) / 1_000_000);
            return new ExactAnswer(marginals, pe);
        } catch (InvalidInputException e) {
            // Core reports both "too large" and "probability zero" as bad input; only the first is skipped in auto.
            if (!required && String.valueOf(e.getMessage()).contains("too large for exact inference")) {
                LOG.info("bn: no exact answer (not cheap: {}); pass --exact=always to insist", e.getMessage());
                return null;
            }
            throw e;
        }
    }
}
