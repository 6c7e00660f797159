package org.sparkmc.core.rjmcmc;

import java.util.ArrayList;
import java.util.List;
import org.sparkmc.core.mcmc.ChainRound;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.Kernel;
import org.sparkmc.core.mcmc.RoundResult;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.RandomStreams;

/** Test helper: runs chains the way the chains job does (ChainRound: warm-up round, then one sampling round). */
final class Chains {
    /** draws[parameter][chain][iteration] and the final states. */
    record Run(double[][][] draws, List<ChainState> states) {
        double[][] parameter(int p) {
            return draws[p];
        }
    }

    private Chains() {
    }

    static Run run(Target target, Kernel kernel, int chains, int warmup, int iterations, long seed) {
        RandomStreams streams = new RandomStreams(seed);
        int width = target.parameterNames().size();
        double[][][] draws = new double[width][chains][];
        List<ChainState> states = new ArrayList<>();
        for (int c = 0; c < chains; c++) {
            ChainState s = ChainRound.start(c + 1, target, kernel, streams);
            if (warmup > 0) {
                s = ChainRound.run(target, kernel, s, 1, warmup, true, false, streams).state();
            }
            RoundResult r = ChainRound.run(target, kernel, s, 2, iterations, false, true, streams);
            for (int p = 0; p < width; p++) {
                draws[p][c] = r.draws()[p];
            }
            states.add(r.state());
        }
        return new Run(draws, states);
    }
}
