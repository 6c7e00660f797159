package org.sparkmc.core.bayesnet;

import java.util.Objects;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * Ancestral (forward) sampling (Henrion 1988): visit the variables in topological order and draw each from its
 * table row selected by its already-drawn parents; the result is an exact draw from the joint distribution.
 */
public final class ForwardSampler {
    private final BayesNet net;

    private ForwardSampler(BayesNet net) {
        this.net = net;
    }

    public static ForwardSampler of(BayesNet net) {
        return new ForwardSampler(Objects.requireNonNull(net, "net"));
    }

    /** Fills {@code state} (length = number of variables) with one joint draw. */
    public void sample(UniformRandomProvider rng, int[] state) {
        for (int v : net.orderView()) {
            state[v] = draw(net.tableView(v), net.rowOffset(v, state), net.cardinality(v), rng.nextDouble());
        }
    }

    /** A state drawn by inversion from the row at {@code offset} of a table, given u ∈ [0, 1). */
    static int draw(double[] table, int offset, int k, double u) {
        double c = 0;
        int last = k - 1;
        for (int s = 0; s < last; s++) {
            c += table[offset + s];
            if (u < c) {
                return s;
            }
        }
        // u beyond the rounded cumulative sum: the last state with positive probability.
        while (last > 0 && table[offset + last] == 0) {
            last--;
        }
        return last;
    }
}
