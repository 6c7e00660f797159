package org.sparkmc.core.smc;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.sparkmc.core.random.RandomStreams;

/**
 * Runs a particle filter (a {@link ParticleSystem} with a bootstrap or guided {@link ParticleKernel}) over a
 * sequence of observations, returning log p̂(y) and the per-step summaries.
 */
public final class ParticleFilter {
    private ParticleFilter() {
    }

    /** Runs every observation in order; {@code observations[n]} is y_n (NaN marks a missing value). */
    public static FilterResult run(ParticleKernel kernel, int particles, SmcOptions options, RandomStreams streams,
            double[][] observations) {
        List<StepSummary> steps = new ArrayList<>(observations.length);
        double logLikelihood = run(kernel, particles, options, streams, observations, steps::add);
        return new FilterResult(logLikelihood, particles, steps);
    }

    /** Runs every observation in order, handing each step's summary to {@code listener}; returns log p̂. */
    public static double run(ParticleKernel kernel, int particles, SmcOptions options, RandomStreams streams,
            double[][] observations, Consumer<StepSummary> listener) {
        ParticleSystem system = new ParticleSystem(kernel, particles, options, streams);
        for (double[] y : observations) {
            listener.accept(system.step(y));
        }
        return system.logLikelihood();
    }
}
