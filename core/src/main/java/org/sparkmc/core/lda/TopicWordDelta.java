package org.sparkmc.core.lda;

import java.io.Serializable;
import java.util.List;

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

    /** No change to counts of the shape of {@code counts}. */
    public static TopicWordDelta none(TopicWordCounts counts) {
        return new TopicWordDelta(counts.numTopics(), counts.vocabularySize(), new int[0], new int[0], new int[0],
                new int[counts.numTopics()]);
    }

    /**
     * The sum of deltas of the same shape: what they change together, as one delta (sorted, without zero changes).
     * Adding it to counts gives what adding them one by one gives, since counts are integers.
     */
    public static TopicWordDelta sum(List<TopicWordDelta> deltas) {
        if (deltas.isEmpty()) {
            throw new IllegalArgumentException("no deltas to add");
        }
        TopicWordDelta first = deltas.get(0);
        int k = first.numTopics;
        for (TopicWordDelta d : deltas) {
            if (d.numTopics != k || d.vocabularySize != first.vocabularySize) {
                throw new IllegalArgumentException("deltas of different shapes: K=" + d.numTopics + ", W="
                        + d.vocabularySize + " and K=" + k + ", W=" + first.vocabularySize);
            }
        }
        if (deltas.size() == 1) {
            return first;
        }
        TopicWordDelta[] ds = deltas.toArray(new TopicWordDelta[0]);
        int p = ds.length;
        int[] at = new int[p];
        int[] dense = new int[k];
        // the topics a word's entries touch, as bits: visited in increasing topic order without sorting
        long[] touched = new long[(k + 63) >>> 6];
        int capacity = 0;
        int[] topicChanges = new int[k];
        for (TopicWordDelta d : deltas) {
            capacity += d.size();
            for (int t = 0; t < k; t++) {
                topicChanges[t] += d.topicChanges[t];
            }
        }
        TopicWordCounts.IntList words = new TopicWordCounts.IntList(capacity);
        TopicWordCounts.IntList topics = new TopicWordCounts.IntList(capacity);
        TopicWordCounts.IntList changes = new TopicWordCounts.IntList(capacity);
        while (true) {
            int w = Integer.MAX_VALUE;
            for (int j = 0; j < p; j++) {
                TopicWordDelta d = ds[j];
                if (at[j] < d.words.length) {
                    w = Math.min(w, d.words[at[j]]);
                }
            }
            if (w == Integer.MAX_VALUE) {
                break;
            }
            int lo = touched.length;
            int hi = -1;
            for (int j = 0; j < p; j++) {
                TopicWordDelta d = ds[j];
                int e = at[j];
                for (; e < d.words.length && d.words[e] == w; e++) {
                    int t = d.topics[e];
                    touched[t >>> 6] |= 1L << t;
                    lo = Math.min(lo, t >>> 6);
                    hi = Math.max(hi, t >>> 6);
                    dense[t] += d.changes[e];
                }
                at[j] = e;
            }
            for (int i = lo; i <= hi; i++) {
                for (long m = touched[i]; m != 0; m &= m - 1) {
                    int t = i << 6 | Long.numberOfTrailingZeros(m);
                    if (dense[t] != 0) {
                        words.add(w);
                        topics.add(t);
                        changes.add(dense[t]);
                    }
                    dense[t] = 0;
                }
                touched[i] = 0;
            }
        }
        return new TopicWordDelta(k, first.vocabularySize, words.toArray(), topics.toArray(), changes.toArray(),
                topicChanges);
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
