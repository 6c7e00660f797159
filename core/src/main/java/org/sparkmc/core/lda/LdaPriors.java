package org.sparkmc.core.lda;

import java.io.Serializable;

/**
 * The LDA model's size and symmetric Dirichlet priors (Blei, Ng &amp; Jordan 2003; Griffiths &amp; Steyvers 2004):
 * K topics, θ_d ~ Dirichlet(α, …, α) per document, φ_k ~ Dirichlet(β, …, β) per topic over the W words.
 *
 * @param numTopics K, in [1, 65535] (topic ids are stored as 16-bit {@code char}s)
 * @param alpha the document–topic concentration α &gt; 0 (MLlib's {@code docConcentration})
 * @param beta the topic–word concentration β &gt; 0 (MLlib's {@code topicConcentration})
 */
public record LdaPriors(int numTopics, double alpha, double beta) implements Serializable {
    /** The largest number of topics: topic ids are held as unsigned 16-bit values. */
    public static final int MAX_TOPICS = 65535;

    public LdaPriors {
        if (numTopics < 1 || numTopics > MAX_TOPICS) {
            throw new IllegalArgumentException("number of topics must be in [1, " + MAX_TOPICS + "], is " + numTopics);
        }
        if (!(alpha > 0) || Double.isInfinite(alpha)) {
            throw new IllegalArgumentException("alpha must be positive and finite, is " + alpha);
        }
        if (!(beta > 0) || Double.isInfinite(beta)) {
            throw new IllegalArgumentException("beta must be positive and finite, is " + beta);
        }
    }

    /** Griffiths &amp; Steyvers' (2004) defaults α = 50/K and the given β (0.01 in the protocol). */
    public static LdaPriors griffithsSteyvers(int numTopics, double beta) {
        return new LdaPriors(numTopics, 50.0 / numTopics, beta);
    }
}
