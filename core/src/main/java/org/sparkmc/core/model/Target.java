package org.sparkmc.core.model;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.sparkmc.core.random.Rng;

/**
 * A distribution to sample: an unnormalised log density on an unconstrained space R^d, and the quantities a
 * user reads off each draw.
 *
 * <p>Constrained parameters are sampled on an unconstrained scale (a positive τ as log τ) and the log density
 * includes the log |Jacobian| of that change of variables. {@link #parameters} maps a position back to the
 * reported quantities (τ rather than log τ, derived quantities such as θ = μ + τ·η, indicators whose mean is a
 * probability). Targets travel to Spark executors by Java serialization, so an implementation keeps its data in
 * serializable fields. A user's own target implements this interface and has a public constructor taking
 * {@link ModelParameters} (or none); see {@code org.sparkmc.core.catalog.ModelCatalog}.
 */
public interface Target extends Serializable {

    /** Dimension d of the unconstrained position. */
    int dimension();

    /** log p(x) up to an additive constant; −∞ (or NaN) where the density is zero. */
    double logDensity(double[] position);

    /** Names of the reported quantities, in the order {@link #parameters} returns them. */
    default List<String> parameterNames() {
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= dimension(); i++) {
            names.add("x[" + i + "]");
        }
        return names;
    }

    /** The reported quantities at a position (by default the position itself). */
    default double[] parameters(double[] position) {
        return position.clone();
    }

    /** A dispersed starting point; by default uniform on (−2, 2) in every coordinate, as Stan does. */
    default double[] initialPosition(Rng rng) {
        double[] x = new double[dimension()];
        for (int i = 0; i < x.length; i++) {
            x[i] = 4 * rng.uniform() - 2;
        }
        return x;
    }
}
