package org.sparkmc.core.catalog;

import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.Kernel;
import org.sparkmc.core.mcmc.KernelSettings;
import org.sparkmc.core.mcmc.StateCodec;
import org.sparkmc.core.mcmc.Transition;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.Rng;

/** Kernels a user could name as {@code --kernel class:…}, one for each way of building one, and some that fail. */
final class UserKernels {
    private UserKernels() {
    }

    /** A random-walk Metropolis step of sd {@code scale}: what a user's own kernel looks like. */
    abstract static class Walk implements Kernel<Void> {
        private static final long serialVersionUID = 1L;
        final double scale;

        Walk(double scale) {
            this.scale = scale;
        }

        @Override
        public Void initialState(int dimension) {
            return null;
        }

        @Override
        public StateCodec<Void> codec() {
            return StateCodec.none();
        }

        @Override
        public Transition step(Target target, ChainState chain, Void state, Rng rng, boolean warmup) {
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
            return Transition.metropolis(moved, logAccept);
        }
    }

    /** Built by its constructor taking the settings. */
    public static final class WithSettings extends Walk {
        private static final long serialVersionUID = 1L;
        public final KernelSettings settings;

        public WithSettings(KernelSettings settings) {
            super(settings.scale());
            this.settings = settings;
        }
    }

    /** Built by its static factory. */
    public static final class WithFactory extends Walk {
        private static final long serialVersionUID = 1L;

        private WithFactory(double scale) {
            super(scale);
        }

        public static WithFactory of(KernelSettings settings) {
            return new WithFactory(settings.scale() * 2);
        }
    }

    /** Built by its no-argument constructor. */
    public static final class Plain extends Walk {
        private static final long serialVersionUID = 1L;

        public Plain() {
            super(0.5);
        }
    }

    /** No constructor a job can call. */
    public static final class Unbuildable extends Walk {
        private static final long serialVersionUID = 1L;

        public Unbuildable(int scale) {
            super(scale);
        }
    }

    /** Refuses its settings as bad input. */
    public static final class Refusing extends Walk {
        private static final long serialVersionUID = 1L;

        public Refusing(KernelSettings settings) {
            super(settings.scale());
            throw new org.sparkmc.core.InvalidInputException("Refusing needs adapt = false");
        }
    }
}
