package org.sparkmc.core.lda;

import java.io.Serializable;

/**
 * The change one document block made to the topic–word counts n_{k,w} and topic totals n_k during its AD-LDA
 * sweep(s) (Newman et al. 2009): parallel arrays of (word, topic, change) sorted by word then topic, without zero
 * changes, plus the K topic-total changes. Twelve bytes per changed (word, topic) cell plus 4K; primitive arrays
 * only, so it ships from an executor to the driver cheaply. Immutable by contract.
 */
public final class TopicWordDelta implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int numTopics;
    private final int vocabularySize;
    private final int[] words;
    private final int[] topics;
    private final int[] changes;
    private final int[] topicChanges;

    TopicWordDelta(int numTopics, int vocabularySize, int[] words, int[] topics, int[] changes, int[] topicChanges) {
        this.numTopics = numTopics;
        this.vocabularySize = vocabularySize;
        this.words = words;
        this.topics = topics;
        this.changes = changes;
        this.topicChanges = topicChanges;
    }

    /**
     * A delta from its arrays (taken, not copied), checked: equal lengths, (word, topic) strictly increasing, ids in
     * range, no zero change, and topic changes equal to the column sums of the cell changes.
     */
    public static TopicWordDelta of(int numTopics, int vocabularySize, int[] words, int[] topics, int[] changes,
            int[] topicChanges) {
        if (words.length != topics.length || words.length != changes.length || topicChanges.length != numTopics) {
            throw new IllegalArgumentException("delta arrays have inconsistent lengths");
        }
        long[] sums = new long[numTopics];
        for (int i = 0; i < words.length; i++) {
            if (words[i] < 0 || words[i] >= vocabularySize || topics[i] < 0 || topics[i] >= numTopics) {
                throw new IllegalArgumentException("delta entry " + i + " (word " + words[i] + ", topic " + topics[i]
                        + ") out of range");
            }
            if (changes[i] == 0) {
                throw new IllegalArgumentException("delta entry " + i + " is a zero change");
            }
            if (i > 0 && (words[i] < words[i - 1] || words[i] == words[i - 1] && topics[i] <= topics[i - 1])) {
                throw new IllegalArgumentException("delta entries not strictly sorted by (word, topic) at " + i);
            }
            sums[topics[i]] += changes[i];
        }
        for (int k = 0; k < numTopics; k++) {
            if (sums[k] != topicChanges[k]) {
                throw new IllegalArgumentException("topic " + k + " change " + topicChanges[k]
                        + " is not the sum of its cells' changes " + sums[k]);
            }
        }
        return new TopicWordDelta(numTopics, vocabularySize, words, topics, changes, topicChanges);
    }

    public int numTopics() {
        return numTopics;
    }

    public int vocabularySize() {
        return vocabularySize;
    }

    /** Number of changed (word, topic) cells. */
    public int size() {
        return words.length;
    }

    public int word(int entry) {
        return words[entry];
    }

    public int topic(int entry) {
        return topics[entry];
    }

    public int change(int entry) {
        return changes[entry];
    }

    /** The change of topic total n_k. */
    public int topicChange(int k) {
        return topicChanges[k];
    }

    /** The cells' word ids (shared, read-only by contract). */
    public int[] words() {
        return words;
    }

    /** The cells' topic ids (shared, read-only by contract). */
    public int[] topics() {
        return topics;
    }

    /** The cells' changes (shared, read-only by contract). */
    public int[] changes() {
        return changes;
    }

    /** The topic totals' changes (shared, read-only by contract). */
    public int[] topicChanges() {
        return topicChanges;
    }

    /** Bytes of the arrays' payload (what the Spark job ships back per block, before serialisation overhead). */
    public long payloadBytes() {
        return 12L * words.length + 4L * topicChanges.length;
    }
}
