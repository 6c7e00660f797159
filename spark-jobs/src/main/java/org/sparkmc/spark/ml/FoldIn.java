package org.sparkmc.spark.ml;

import java.io.Serializable;
import org.apache.spark.broadcast.Broadcast;
import org.sparkmc.core.lda.LdaPriors;
import org.sparkmc.core.lda.LeftToRight;
import org.sparkmc.core.lda.TopicInference;
import org.sparkmc.core.lda.TopicWordCounts;
import org.sparkmc.core.random.RandomStreams;

/**
 * Per-document fold-in with the topics fixed, as {@link GibbsLDAModel#transform} and
 * {@link GibbsLDAModel#logLikelihood} run it on the executors: θ_d by core's {@link TopicInference} (Gibbs sampling
 * the document's topics given φ_{k,w} = (n_{k,w} + β)/(n_k + Wβ)), on the stream
 * {@code ("gibbslda-fold-in", term_1, count_1, term_2, count_2, ...)} of the model's seed — keyed by the document's
 * content alone, so a row's θ is the same whatever the partitioning, the row order or a retried task.
 *
 * <p>Ships the counts by broadcast; holds one {@link TopicInference} per deserialised copy (one per task), which is
 * used by that task's thread only.
 */
final class FoldIn implements Serializable {
    private static final long serialVersionUID = 1L;
    static final String STREAM = "gibbslda-fold-in";
    static final String LEFT_TO_RIGHT_STREAM = "gibbslda-left-to-right";

    private final Broadcast<TopicWordCounts> counts;
    private final LdaPriors priors;
    private final RandomStreams streams;
    private final int burnIn;
    private final int samples;
    private transient TopicInference inference;
    private transient double[] phi;

    FoldIn(Broadcast<TopicWordCounts> counts, LdaPriors priors, long seed, int burnIn, int samples) {
        this.counts = counts;
        this.priors = priors;
        this.streams = new RandomStreams(seed);
        this.burnIn = burnIn;
        this.samples = samples;
    }

    private TopicInference inference() {
        if (inference == null) {
            inference = TopicInference.of(counts.value(), priors, burnIn, samples);
            phi = new double[priors.numTopics()];
        }
        return inference;
    }

    /** θ_d (sums to 1); for a document without a token, zeros (as MLlib's LDA models return). */
    double[] theta(TermCounts doc) {
        checkSize(doc);
        int[] words = doc.tokens();
        if (words.length == 0) {
            return new double[priors.numTopics()];
        }
        return inference().theta(words, words.length, streams.stream(STREAM, doc.streamKey()));
    }

    /** Σ_i log Σ_k θ_{d,k} φ_{k,w_i} over the document's tokens, with θ_d = {@link #theta}. */
    double logLikelihood(TermCounts doc) {
        double[] theta = theta(doc);
        TopicInference inf = inference();
        double sum = 0;
        for (int j = 0; j < doc.terms().length; j++) {
            inf.phiRow(doc.terms()[j], phi, 0);
            double p = 0;
            for (int k = 0; k < theta.length; k++) {
                p += theta[k] * phi[k];
            }
            sum += doc.counts()[j] * Math.log(p);
        }
        return sum;
    }

    /**
     * The left-to-right estimate of log p(w_d | φ, α) (core's {@link LeftToRight}), on the stream
     * {@code ("gibbslda-left-to-right", term_1, count_1, ...)} of the model's seed: keyed by content, as θ is.
     */
    double leftToRight(TermCounts doc, LeftToRight estimator) {
        checkSize(doc);
        int[] words = doc.tokens();
        return estimator.logProbability(inference(), words, 0, words.length,
                streams.stream(LEFT_TO_RIGHT_STREAM, doc.streamKey()));
    }

    private void checkSize(TermCounts doc) {
        int w = counts.value().vocabularySize();
        if (doc.vectorSize() != w) {
            throw new IllegalArgumentException("a term-count vector of size " + doc.vectorSize()
                    + " given to a GibbsLDAModel whose vocabulary has " + w + " terms");
        }
    }
}
