package org.sparkmc.core.mcmc;

import org.sparkmc.core.InvalidInputException;

/**
 * Robbins–Monro adaptation of a log proposal scale during warm-up (Andrieu &amp; Thoms 2008): after each proposal,
 * log s += (i + 1)^−0.6 · (accepted − a*), toward the target acceptance rate a* (0.44 in one dimension, 0.234
 * otherwise: Roberts &amp; Rosenthal 2001, unless the user sets one).
 */
final class ScaleAdaptation {
    private ScaleAdaptation() {
    }

    /** A user's target acceptance rate: NaN (the default by dimension) or a number in (0, 1). */
    static double checkTarget(double targetAcceptance) {
        if (!Double.isNaN(targetAcceptance) && !(targetAcceptance > 0 && targetAcceptance < 1)) {
            throw new InvalidInputException("target acceptance must be in (0, 1), is " + targetAcceptance);
        }
        return targetAcceptance;
    }

    /** The change of log s after a warm-up proposal in {@code dimension} dimensions. */
    static double logScaleStep(ChainState state, boolean accepted, double targetAcceptance, int dimension) {
        return logScaleStep(state.warmupIterations(), accepted, targetAcceptance, dimension);
    }

    /** The change of log s after the {@code i}-th (from 0) adapting proposal: gain (i + 1)^−0.6. */
    static double logScaleStep(long i, boolean accepted, double targetAcceptance, int dimension) {
        double aim = Double.isNaN(targetAcceptance) ? (dimension == 1 ? 0.44 : 0.234) : targetAcceptance;
        double gain = Math.pow(i + 1.0, -0.6);
        return gain * ((accepted ? 1 : 0) - aim);
    }
}
