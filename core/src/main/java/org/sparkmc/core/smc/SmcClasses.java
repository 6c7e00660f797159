package org.sparkmc.core.smc;

import java.util.List;

/**
 * The classes of this package that a distributed job ships between driver and executors (block summaries up,
 * global weights and resampling draws down, kernels in closures or broadcasts), for serializer registration
 * (e.g. Kryo with registration required). Some are package-private, hence this list.
 */
public final class SmcClasses {
    private SmcClasses() {
    }

    /** Every class of {@code org.sparkmc.core.smc} whose instances cross the driver–executor boundary. */
    public static List<Class<?>> shipped() {
        return List.of(BlockSummary.class, GlobalWeights.class, ResidualBlock.class, ResidualWeights.class,
                ResamplingDraws.Systematic.class, ResamplingDraws.Stratified.class, ResamplingDraws.Multinomial.class,
                BootstrapKernel.class, GuidedKernel.class, ResamplingScheme.class);
    }
}
