package org.sparkmc.core.rjmcmc;

import java.io.Serializable;
import java.util.List;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.Rng;

/**
 * One update of a reversible-jump chain's state (a Metropolis–Hastings proposal, possibly dimension-changing, or a
 * Gibbs draw). A move has one or more labels (e.g. "split" and "merge" for a move that splits from model k and
 * merges from k + 1); each application reports under which label it counted and whether it was accepted, so the
 * kernel can report acceptance rates per move type.
 */
public interface Move extends Serializable {

    /** The labels this move counts under, e.g. {@code ["split", "merge"]}; at least one. */
    List<String> labels();

    /**
     * Applies the move once to {@code state} (in place, or by {@link ChainState#jumpTo}).
     *
     * @return {@link #outcome}(label, accepted)
     */
    int apply(Target target, ChainState state, Rng rng);

    /**
     * The deterministic maps h this move applies, for the reversible-pair checks (empty for Gibbs moves, which
     * draw from full conditionals and need no bijection). A map whose form depends on the current model (e.g. on k)
     * is listed for a few representative models.
     */
    default List<Bijection> bijections() {
        return List.of();
    }

    /** Encodes an application's result. */
    static int outcome(int label, boolean accepted) {
        return 2 * label + (accepted ? 1 : 0);
    }

    /** The label of an {@link #outcome}. */
    static int label(int outcome) {
        return outcome >>> 1;
    }

    /** Whether an {@link #outcome} was an acceptance. */
    static boolean accepted(int outcome) {
        return (outcome & 1) == 1;
    }
}
