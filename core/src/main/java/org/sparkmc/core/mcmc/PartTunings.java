package org.sparkmc.core.mcmc;

import java.util.List;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.Rng;

/**
 * The tuning of a composite kernel: its parts' tunings concatenated behind their lengths, [k, len_1 … len_k,
 * tuning_1 …, tuning_k], so each part adapts (during warm-up only, by its own rule) exactly as it would alone.
 */
final class PartTunings {
    private PartTunings() {
    }

    static double[] initial(List<Kernel> parts, int dimension) {
        double[][] each = new double[parts.size()][];
        int total = 1 + parts.size();
        for (int i = 0; i < each.length; i++) {
            each[i] = parts.get(i).initialTuning(dimension);
            total += each[i].length;
        }
        double[] t = new double[total];
        t[0] = parts.size();
        int at = 1 + parts.size();
        for (int i = 0; i < each.length; i++) {
            t[1 + i] = each[i].length;
            System.arraycopy(each[i], 0, t, at, each[i].length);
            at += each[i].length;
        }
        return t;
    }

    /** Runs part {@code i} on the chain with its own tuning, then writes its moves and tuning back. */
    static boolean step(Kernel part, int i, Target target, ChainState state, Rng rng, boolean warmup) {
        double[] t = state.tuning();
        int k = (int) t[0];
        if (i >= k) {
            throw new IllegalStateException("chain tuning holds " + k + " parts, asked for part " + i);
        }
        int at = 1 + k;
        for (int j = 0; j < i; j++) {
            at += (int) t[1 + j];
        }
        int length = (int) t[1 + i];
        double[] own = new double[length];
        System.arraycopy(t, at, own, 0, length);
        ChainState view = state.withTuning(own);
        boolean accepted = part.step(target, view, rng, warmup);
        state.jumpTo(view.position(), view.logDensity());
        System.arraycopy(view.tuning(), 0, t, at, length);
        return accepted;
    }
}
