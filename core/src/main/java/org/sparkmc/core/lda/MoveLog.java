package org.sparkmc.core.lda;

import java.util.Arrays;

/**
 * The topic moves of a sampler's tokens since its counts were last set: one entry (word, old topic, new topic) per
 * token whose topic changed. Summed word by word they give the change of the topic–word counts, in (word, topic)
 * order, without reading the rows: O(moves + W) rather than O(cells of every changed row), which late in a run, when
 * few tokens move and rows are long, is several times less. Past {@code limit} entries it stops recording and says
 * so ({@link #complete}); the rows must then be compared instead. A {@link DeltaSum} keeps one more, the moves of a
 * task's blocks appended ({@link #addAll}), which refuses what would pass its limit and stays complete. Not
 * thread-safe.
 */
final class MoveLog {
    private final int numTopics;
    private final int vocabularySize;
    private final int limit;
    private int[] words = new int[1024];
    /** A move's two topics: {@code from << 16 | to} (topics are below 2^16). */
    private int[] moves = new int[1024];
    private int size;
    private boolean complete = true;

    /** @param limit the most moves recorded (at least 1,024); beyond it the log is incomplete until {@link #clear} */
    MoveLog(int numTopics, int vocabularySize, int limit) {
        if (numTopics > 1 << 16) {
            throw new IllegalArgumentException("at most 65,536 topics, not " + numTopics);
        }
        this.numTopics = numTopics;
        this.vocabularySize = vocabularySize;
        this.limit = Math.max(1024, limit);
    }

    /** Records that a token of word w moved from topic {@code from} to topic {@code to}. */
    void add(int w, int from, int to) {
        if (size == words.length && !grow()) {
            return;
        }
        words[size] = w;
        moves[size] = from << 16 | to;
        size++;
    }

    private boolean grow() {
        if (size >= limit) {
            complete = false;
            return false;
        }
        int capacity = (int) Math.min(limit, 2L * words.length);
        words = Arrays.copyOf(words, capacity);
        moves = Arrays.copyOf(moves, capacity);
        return true;
    }

    /**
     * Records {@code other}'s moves after this log's, both complete; returns false, recording none and staying
     * complete, if they would pass this log's limit.
     */
    boolean addAll(MoveLog other) {
        if (other.numTopics != numTopics || other.vocabularySize != vocabularySize) {
            throw new IllegalArgumentException("a move log for K=" + other.numTopics + ", W=" + other.vocabularySize
                    + " added to one for K=" + numTopics + ", W=" + vocabularySize);
        }
        if (!other.complete || !complete) {
            throw new IllegalStateException("an incomplete move log cannot be added to or from");
        }
        long needed = (long) size + other.size;
        if (needed > limit) {
            return false;
        }
        if (needed > words.length) {
            int capacity = (int) Math.min(limit, Math.max(needed, 2L * words.length));
            words = Arrays.copyOf(words, capacity);
            moves = Arrays.copyOf(moves, capacity);
        }
        System.arraycopy(other.words, 0, words, size, other.size);
        System.arraycopy(other.moves, 0, moves, size, other.size);
        size += other.size;
        return true;
    }

    /** The moves recorded. */
    int size() {
        return size;
    }

    /** Whether every move since the last {@link #clear} is recorded. */
    boolean complete() {
        return complete;
    }

    /** Forgets every move: the counts were set anew. */
    void clear() {
        size = 0;
        complete = true;
    }

    /**
     * The moves' net change of the topic–word counts, in (word, topic) order without zeros, with the topic totals'
     * change {@code topicChanges}. Only when {@link #complete}.
     */
    TopicWordDelta delta(int[] topicChanges) {
        if (!complete) {
            throw new IllegalStateException("the move log stopped at " + limit + " moves");
        }
        // the moves grouped by word (a counting sort): word w's are grouped[ends[w-1] .. ends[w])
        int[] ends = new int[vocabularySize + 1];
        for (int e = 0; e < size; e++) {
            ends[words[e] + 1]++;
        }
        for (int w = 0; w < vocabularySize; w++) {
            ends[w + 1] += ends[w];
        }
        int[] grouped = new int[size];
        for (int e = 0; e < size; e++) {
            grouped[ends[words[e]]++] = moves[e];
        }
        TopicWordCounts.IntList outWords = new TopicWordCounts.IntList(size);
        TopicWordCounts.IntList outTopics = new TopicWordCounts.IntList(size);
        TopicWordCounts.IntList outChanges = new TopicWordCounts.IntList(size);
        int[] dense = new int[numTopics];
        int[] touched = new int[numTopics];
        TopicSet topics = new TopicSet(numTopics);
        for (int w = 0, from = 0; w < vocabularySize; from = ends[w++]) {
            if (from == ends[w]) {
                continue;
            }
            for (int j = from; j < ends[w]; j++) {
                int move = grouped[j];
                dense[move >>> 16]--;
                dense[move & 0xFFFF]++;
                topics.add(move >>> 16);
                topics.add(move & 0xFFFF);
            }
            for (int j = 0, n = topics.drainTo(touched); j < n; j++) {
                int k = touched[j];
                if (dense[k] != 0) {
                    outWords.add(w);
                    outTopics.add(k);
                    outChanges.add(dense[k]);
                    dense[k] = 0;
                }
            }
        }
        return new TopicWordDelta(numTopics, vocabularySize, outWords.toArray(), outTopics.toArray(),
                outChanges.toArray(), topicChanges);
    }
}
