package org.sparkmc.spark.chains;

import java.util.List;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.Kernel;
import org.sparkmc.core.mcmc.KernelSettings;
import org.sparkmc.core.mcmc.StateCodec;
import org.sparkmc.core.mcmc.Transition;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.Rng;

/**
 * A user's own kernel as {@code --kernel class:…} names it: random-walk Metropolis whose step size each chain learns
 * in warm-up (a Robbins–Monro step of its log towards acceptance 0.44) and keeps afterwards. Its typed state (the log
 * step size and the warm-up steps seen) travels with the chain between rounds and through checkpoints, and each step
 * reports the step size as {@code stepsize__}.
 */
public final class UserAdaptiveWalk implements Kernel<double[]> {
    private static final long serialVersionUID = 1L;
    private final double initialScale;

    /** Built from the job's settings: {@code --scale} is the first step size. */
    public UserAdaptiveWalk(KernelSettings settings) {
        this.initialScale = settings.scale();
    }

    @Override
    public double[] initialState(int dimension) {
        return new double[] {Math.log(initialScale), 0};
    }

    @Override
    public Transition step(Target target, ChainState chain, double[] state, Rng rng, boolean warmup) {
        double scale = Math.exp(state[0]);
        double[] x = chain.position().clone();
        for (int i = 0; i < x.length; i++) {
            x[i] += scale * rng.normal();
        }
        double lp = target.logDensity(x);
        double logAccept = lp - chain.logDensity();
        boolean moved = Math.log(rng.uniform()) < logAccept;
        if (moved) {
            chain.moveTo(x, lp);
        }
        if (warmup) {
            state[1]++;
            state[0] += (Math.min(1, Math.exp(logAccept)) - 0.44) / Math.sqrt(state[1]);
        }
        return Transition.of(moved, Math.min(1, Math.exp(logAccept)), new double[] {scale});
    }

    @Override
    public List<String> statNames() {
        return List.of("stepsize__");
    }

    @Override
    public StateCodec<double[]> codec() {
        return new StateCodec<>() {
            private static final long serialVersionUID = 1L;

            @Override
            public double[] encode(double[] state) {
                return state.clone();
            }

            @Override
            public double[] decode(double[] data, int dimension) {
                return data.clone();
            }
        };
    }
}
