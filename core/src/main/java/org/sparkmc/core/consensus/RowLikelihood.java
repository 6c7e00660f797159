package org.sparkmc.core.consensus;

import java.io.Serializable;
import java.util.List;
import org.sparkmc.core.InvalidInputException;

/**
 * A model's likelihood for one data row: log p(y | x, θ) for a response y and a feature vector x of length
 * {@link #features()}, at an unconstrained position θ of length {@link #dimension()}. A {@link ShardTarget} sums it
 * over the rows of a shard; consensus Monte Carlo needs nothing else of a model.
 *
 * <p>Positions [0, {@link #features()}) of θ are the regression coefficients, which get the shard target's Gaussian
 * prior; positions [{@link #features()}, {@link #dimension()}) are the model's own parameters (such as log σ),
 * whose prior density on the unconstrained scale, log |Jacobian| included, {@link #logPriorOfExtras} returns (see
 * {@link org.sparkmc.core.model.Target}).
 *
 * <p>Implementations are immutable and travel to Spark executors by serialization. {@link #logLikelihood} is
 * called once per row per density evaluation: it must not allocate.
 */
public interface RowLikelihood extends Serializable {

    /** Length of a row's feature vector x. */
    int features();

    /** Length of the unconstrained position θ: {@link #features()} coefficients, then the model's own parameters. */
    int dimension();

    /** Names of the reported quantities, in the order {@link #parameters} returns them. */
    List<String> parameterNames();

    /** The reported quantities at a position (σ rather than log σ); by default the position itself. */
    default double[] parameters(double[] position) {
        return position.clone();
    }

    /**
     * log p(y | x, θ) less {@link #logConstant(double) logConstant(y)}, the part that does not depend on θ, for the
     * features {@code x[offset … offset + features())}.
     */
    double logLikelihood(double y, double[] x, int offset, double[] theta);

    /** The part of log p(y | x, θ) that depends on y alone (−log y! for a Poisson count); 0 by default. */
    default double logConstant(double y) {
        return 0;
    }

    /**
     * log prior density of positions [{@link #features()}, {@link #dimension()}) on the unconstrained scale,
     * log |Jacobian| included; 0 when there are none.
     */
    default double logPriorOfExtras(double[] theta) {
        return 0;
    }

    /** The model's name in messages, e.g. "logistic". */
    String name();

    /** Whether y is a possible response (0 or 1 for a logistic model). */
    boolean inSupport(double y);

    /** The possible responses in words, for messages: "0 or 1". */
    String support();

    /** The error for a response outside the support, found at {@code where} (a row, or a file and line). */
    default InvalidInputException badResponse(String where, double y) {
        return new InvalidInputException(where + ": " + name() + " response is " + y + ", expected " + support());
    }

    /** Throws {@link #badResponse} naming row {@code row} when y is not a possible response. */
    default void checkResponse(long row, double y) {
        if (!inSupport(y)) {
            throw badResponse("row " + row, y);
        }
    }
}
