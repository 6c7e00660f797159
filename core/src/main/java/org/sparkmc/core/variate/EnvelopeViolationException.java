package org.sparkmc.core.variate;

/**
 * A rejection sampler met a point where its envelope lies below the target (p̃(x) &gt; M·q(x)), so its draws
 * would be biased: M is too small, or the proposal's support does not cover the target's.
 */
public class EnvelopeViolationException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public EnvelopeViolationException(String message) {
        super(message);
    }
}
