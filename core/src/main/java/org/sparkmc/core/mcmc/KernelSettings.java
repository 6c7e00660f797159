package org.sparkmc.core.mcmc;

import org.sparkmc.core.InvalidInputException;

/**
 * Settings shared by the kernels: initial proposal scale (slice: initial width), warm-up adaptation, target
 * acceptance (NaN = default), threads for parallel kernels, and the warm-up iterations a chain will run (they
 * place the adaptation windows of the kernels with Stan's windowed warm-up). A user's kernel named as
 * {@code class:com.example.MyKernel} receives them in its constructor.
 */
public record KernelSettings(double scale, boolean adapt, double targetAcceptance, int threads, int warmup) {
    /** The warm-up length assumed when none is given: Stan's default, 1,000 iterations. */
    public static final int DEFAULT_WARMUP = 1000;

    public KernelSettings(double scale, boolean adapt, double targetAcceptance) {
        this(scale, adapt, targetAcceptance, 1);
    }

    public KernelSettings(double scale, boolean adapt, double targetAcceptance, int threads) {
        this(scale, adapt, targetAcceptance, threads, DEFAULT_WARMUP);
    }

    /**
     * These settings, after checking them as a user's input.
     *
     * @throws InvalidInputException for a scale that is not a positive finite number, a target acceptance outside
     *                               (0, 1) (NaN is the default), fewer than one thread or a negative warm-up
     */
    public KernelSettings checked() {
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw new InvalidInputException("kernel scale must be a positive number, is " + scale);
        }
        ScaleAdaptation.checkTarget(targetAcceptance);
        if (threads < 1) {
            throw new InvalidInputException("threads must be at least 1, is " + threads);
        }
        if (warmup < 0) {
            throw new InvalidInputException("warmup must be ≥ 0, is " + warmup);
        }
        return this;
    }
}
