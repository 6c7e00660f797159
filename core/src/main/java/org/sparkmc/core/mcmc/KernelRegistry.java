package org.sparkmc.core.mcmc;

import java.util.Set;
import org.sparkmc.core.InvalidInputException;

/**
 * Builds a {@link Kernel} from its name in a job's configuration. {@code rwm}: random-walk Metropolis with a
 * Gaussian proposal of the given initial scale, adapted during warm-up unless adaptation is off. {@code rjmcmc}:
 * the reversible-jump sweep a trans-dimensional target defines (scale and adaptation unused).
 */
public final class KernelRegistry {
    private static final Set<String> NAMES = Set.of("rwm", "rjmcmc");

    private KernelRegistry() {
    }

    /** Settings shared by the kernels: initial proposal scale, warm-up adaptation, target acceptance (NaN = default). */
    public record Settings(double scale, boolean adapt, double targetAcceptance) {
    }

    public static Set<String> names() {
        return NAMES;
    }

    public static Kernel create(String name, Settings settings) {
        if (!(settings.scale() > 0) || Double.isInfinite(settings.scale())) {
            throw new InvalidInputException("kernel scale must be a positive number, is " + settings.scale());
        }
        double a = settings.targetAcceptance();
        if (!Double.isNaN(a) && !(a > 0 && a < 1)) {
            throw new InvalidInputException("target acceptance must be in (0, 1), is " + a);
        }
        if ("rjmcmc".equals(name)) {
            return org.sparkmc.core.rjmcmc.RjmcmcKernel.ofTargetSweep();
        }
        if ("rwm".equals(name)) {
            return new MetropolisHastings(new GaussianRandomWalk(), settings.scale(), settings.adapt(), a);
        }
        throw new InvalidInputException("unknown kernel '" + name + "': expected one of " + NAMES);
    }
}
