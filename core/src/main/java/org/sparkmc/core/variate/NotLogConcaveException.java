package org.sparkmc.core.variate;

/**
 * Adaptive rejection sampling found evidence that the density is not log-concave (slopes that increase, or a
 * log density above its hull), so its hull is not an envelope and its draws would be biased.
 */
public class NotLogConcaveException extends EnvelopeViolationException {
    private static final long serialVersionUID = 1L;

    public NotLogConcaveException(String message) {
        super(message);
    }
}
