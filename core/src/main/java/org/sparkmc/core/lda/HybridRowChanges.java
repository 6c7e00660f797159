package org.sparkmc.core.lda;

/**
 * The bookkeeping behind {@link CycleMhLdaSampler#delta} and {@link CycleMhLdaSampler#restore}: the sampler's
 * {@link HybridTopicRows} and topic totals against given {@link TopicWordCounts}, visiting in a dense row only the
 * topics where it may differ ({@link #possibleTopics}) rather than all K. Shares the sampler's arrays: reads them, and
 * only {@link #restore} writes them.
 */
final class HybridRowChanges {
    private final int numTopics;
    private final int vocabularySize;
    private final HybridTopicRows rows;
    private final int[] topicTotals;
    private final int[] wordTotals;
    private final TopicSet possible;

    HybridRowChanges(int numTopics, HybridTopicRows rows, int[] topicTotals, int[] wordTotals) {
        this.numTopics = numTopics;
        this.vocabularySize = wordTotals.length;
        this.rows = rows;
        this.topicTotals = topicTotals;
        this.wordTotals = wordTotals;
        this.possible = new TopicSet(numTopics);
    }

    /**
     * Every topic where word w's row may be non-zero or differ from {@code counts}' row, when {@code counts} are the
     * counts the sampler started from and only sweeps over the swept tokens changed it since: {@code counts}'
     * non-zero topics of w (the other blocks' share lies within them) and the current topics of the swept tokens of
     * w, which are {@code topicsByWord[wordStart[w] .. wordStart[w+1])}. Without the swept tokens
     * ({@code wordStart} null), or for a wide row of {@code counts}, every topic. Writes them into {@code out} (room
     * for K) in increasing order and returns how many.
     */
    int possibleTopics(TopicWordCounts counts, int w, int[] wordStart, char[] topicsByWord, int[] out) {
        if (wordStart == null || counts.isWide(w)) {
            possible.addAll();
        } else {
            possible.addRow(counts, w);
            for (int j = wordStart[w]; j < wordStart[w + 1]; j++) {
                possible.add(topicsByWord[j]);
            }
        }
        return possible.drainTo(out);
    }

    /**
     * The rows' and topic totals' change from {@code before}, over the words of {@code docs}; the swept tokens as in
     * {@link #possibleTopics}, {@code wordStart} null when the last sweep was not over {@code docs}.
     */
    TopicWordDelta delta(TopicWordCounts before, Corpus docs, int[] wordStart, char[] topicsByWord) {
        before.requireShape(numTopics, vocabularySize, "this sampler");
        int[] dense = new int[numTopics];
        int[] beforeTopics = new int[numTopics];
        int[] beforeCounts = new int[numTopics];
        int[] order = new int[numTopics];
        TopicWordCounts.IntList words = new TopicWordCounts.IntList(1024);
        TopicWordCounts.IntList topics = new TopicWordCounts.IntList(1024);
        TopicWordCounts.IntList changes = new TopicWordCounts.IntList(1024);
        for (int w : docs.distinctWords()) {
            int n = before.row(w, beforeTopics, beforeCounts);
            for (int e = 0; e < n; e++) {
                dense[beforeTopics[e]] = beforeCounts[e];
            }
            for (int j = 0, m = possibleTopics(before, w, wordStart, topicsByWord, order); j < m; j++) {
                int k = order[j];
                int change = rows.get(w, k) - dense[k];
                dense[k] = 0;
                if (change != 0) {
                    words.add(w);
                    topics.add(k);
                    changes.add(change);
                }
            }
        }
        return new TopicWordDelta(numTopics, vocabularySize, words.toArray(), topics.toArray(), changes.toArray(),
                before.topicChangesTo(topicTotals));
    }

    /**
     * Puts the rows of {@code docs}' words and the topic totals back to {@code before}'s; the swept tokens as in
     * {@link #delta}. A dense row is cleared at the topics it may hold, a hash row whole.
     */
    void restore(TopicWordCounts before, Corpus docs, int[] wordStart, char[] topicsByWord) {
        before.requireShape(numTopics, vocabularySize, "this sampler");
        int[] starts = before.rowStarts();
        int[] cells = before.entries();
        int[] order = new int[numTopics];
        for (int w : docs.distinctWords()) {
            boolean wide = before.isWide(w);
            if (!wide && starts[w + 1] - starts[w] > Math.min(numTopics, wordTotals[w])) {
                throw new IllegalArgumentException("word " + w + " has " + (starts[w + 1] - starts[w]) + " topics in "
                        + "the counts to restore, more than its " + wordTotals[w] + " tokens allow");
            }
            if (!rows.isDense(w)) {
                rows.setRow(w, cells, starts[w], starts[w + 1], wide);
                continue;
            }
            for (int j = 0, m = possibleTopics(before, w, wordStart, topicsByWord, order); j < m; j++) {
                rows.set(w, order[j], 0);
            }
            rows.setCells(w, cells, starts[w], starts[w + 1], wide);
        }
        System.arraycopy(before.topicTotals(), 0, topicTotals, 0, numTopics);
    }
}
