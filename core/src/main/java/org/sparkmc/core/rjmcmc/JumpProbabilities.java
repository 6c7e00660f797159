package org.sparkmc.core.rjmcmc;

import java.io.Serializable;

/**
 * The model-move choice of Richardson &amp; Green (1997, §3.3): from model k an "up" move (split, birth) is chosen with
 * probability b_k and a "down" move (merge, death) with d_k = 1 − b_k, where b_kmin = 1, d_kmax = 1 and
 * b_k = d_k = 1/2 in between. With a single model (kmin = kmax) neither is possible.
 */
public record JumpProbabilities(int kmin, int kmax) implements Serializable {

    public JumpProbabilities {
        if (kmin > kmax) {
            throw new IllegalArgumentException("kmin " + kmin + " > kmax " + kmax);
        }
    }

    /** b_k: probability of an up move from k. */
    public double up(int k) {
        if (k < kmin || k >= kmax) {
            return 0;
        }
        return k == kmin ? 1 : 0.5;
    }

    /** d_k: probability of a down move from k. */
    public double down(int k) {
        if (k <= kmin || k > kmax) {
            return 0;
        }
        return k == kmax ? 1 : 0.5;
    }

    /** Whether the move from k goes up (drawn with probability b_k); only meaningful when kmin &lt; kmax. */
    public boolean chooseUp(int k, double uniform) {
        return uniform < up(k);
    }
}
