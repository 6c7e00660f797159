package org.sparkmc.core.lda;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The summed topic–word count changes of AD-LDA blocks swept in turn against the same counts, as one task sends them
 * after a sync step. A sampler adds each block's changes ({@link LdaSampler#addDelta}): as its logged topic moves
 * where it logged them all and they are fewer than the cells of its changed rows, which are appended to one log and
 * summed once at the end, or else as the block's delta. The total is the same delta, bit for bit, as
 * {@link TopicWordDelta#sum} of the blocks' deltas (counts are integers), without grouping each block's moves and
 * then merging the blocks' deltas. Not thread-safe.
 */
public final class DeltaSum {
    private final int numTopics;
    private final int vocabularySize;
    private final MoveLog moves;
    private final int[] movesTopicChanges;
    private final List<TopicWordDelta> deltas = new ArrayList<>();

    /** An empty sum for counts of the shape of {@code counts}. */
    public DeltaSum(TopicWordCounts counts) {
        this(counts, Integer.MAX_VALUE - 8);
    }

    /**
     * @param movesLimit the most moves appended to the one log (at least 1,024); a block's that would pass it are
     *                   summed apart
     */
    DeltaSum(TopicWordCounts counts, int movesLimit) {
        this.numTopics = counts.numTopics();
        this.vocabularySize = counts.vocabularySize();
        this.moves = new MoveLog(numTopics, vocabularySize, movesLimit);
        this.movesTopicChanges = new int[numTopics];
    }

    /** Adds a block's count changes. */
    public void add(TopicWordDelta delta) {
        if (delta.numTopics() != numTopics || delta.vocabularySize() != vocabularySize) {
            throw new IllegalArgumentException("delta for K=" + delta.numTopics() + ", W=" + delta.vocabularySize()
                    + " added to a sum for K=" + numTopics + ", W=" + vocabularySize);
        }
        deltas.add(delta);
    }

    /** Adds a block's changes as its complete move log, whose topic totals changed by {@code topicChanges}. */
    void add(MoveLog blockMoves, int[] topicChanges) {
        if (topicChanges.length != numTopics) {
            throw new IllegalArgumentException(topicChanges.length + " topic changes for K=" + numTopics);
        }
        if (!moves.addAll(blockMoves)) {
            deltas.add(blockMoves.delta(topicChanges));
            return;
        }
        for (int k = 0; k < numTopics; k++) {
            movesTopicChanges[k] += topicChanges[k];
        }
    }

    /** The moves appended to the one log since the last {@link #takeTotal} (for tests). */
    int loggedMoves() {
        return moves.size();
    }

    /** The blocks added as deltas since the last {@link #takeTotal} (for tests). */
    int deltasAdded() {
        return deltas.size();
    }

    /** The changes added since the last call, as one delta (sorted, without zero changes); starts a new sum. */
    public TopicWordDelta takeTotal() {
        List<TopicWordDelta> parts = new ArrayList<>(deltas);
        if (moves.size() > 0 || parts.isEmpty()) { // a log without moves changed no topic total either
            parts.add(moves.delta(movesTopicChanges.clone()));
        }
        deltas.clear();
        moves.clear();
        Arrays.fill(movesTopicChanges, 0);
        return parts.size() == 1 ? parts.get(0) : TopicWordDelta.sum(parts);
    }
}
