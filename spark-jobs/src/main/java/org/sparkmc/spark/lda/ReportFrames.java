package org.sparkmc.spark.lda;

import java.util.ArrayList;
import java.util.List;
import org.sparkmc.core.lda.TopicWordCounts;
import org.sparkmc.core.lda.TopicWordDelta;
import org.sparkmc.spark.sync.FrameReader;
import org.sparkmc.spark.sync.FrameWriter;
import org.sparkmc.spark.sync.JavaFrames;

/**
 * The bytes a task sends through the round relay after each sync step. First what the driver reads (the {@link
 * Head}): each of its blocks' figures (id, partition, document term, sampling time), the topic–word term of
 * log p(w, z) after the previous step (from the task that keeps the counts; NaN from the others) and, when the driver
 * asked for them, the global counts after the previous step. Then what only the other tasks read: the sum of its
 * blocks' count changes, one delta per task. Integers are variable-length (7 bits a byte); the delta's words are
 * gaps, a cell's topic is the gap from the previous cell's topic of the same word, and changes are zig-zag coded, so
 * a changed cell costs about 3 bytes where a Java array of ints costs 12. Doubles are their raw 8 bytes; the counts
 * are Java-serialised.
 */
final class ReportFrames {
    /**
     * What the driver reads of a frame.
     *
     * @param counts the global counts after the previous step, or null when not sent
     */
    record Head(List<LdaBlock.BlockFigures> blocks, double wordTerm, TopicWordCounts counts) {
    }

    /** A whole frame: its head and its task's count changes. */
    record Frame(Head head, TopicWordDelta delta) {
    }

    private ReportFrames() {
    }

    /**
     * A frame of a task's blocks' {@code figures} (possibly none: a stage's last round) and their summed count changes
     * {@code delta}, with the topic–word term and, or null, the global counts after the previous step.
     */
    static byte[] encode(List<LdaBlock.BlockFigures> figures, TopicWordDelta delta, double wordTerm,
            TopicWordCounts counts) {
        byte[] countBytes = counts == null ? new byte[0] : JavaFrames.encode(counts);
        FrameWriter out = new FrameWriter(5 + 26 * figures.size() + 8 + 5 + countBytes.length
                + 5 * (6 + 3 * delta.size() + delta.numTopics()));
        out.varint(figures.size());
        for (LdaBlock.BlockFigures f : figures) {
            out.varint(f.block());
            out.varint(f.partition());
            out.real(f.documentTerm());
            out.real(f.samplingSeconds());
        }
        out.real(wordTerm);
        out.varint(countBytes.length);
        out.append(countBytes);
        out.varint(delta.numTopics());
        out.varint(delta.vocabularySize());
        out.varint(delta.size());
        int[] words = delta.words();
        int[] topics = delta.topics();
        int[] changes = delta.changes();
        int word = 0;
        int topic = 0;
        for (int c = 0; c < words.length; c++) {
            out.varint(words[c] - word);
            out.varint(words[c] == word && c > 0 ? topics[c] - topic : topics[c]);
            out.signed(changes[c]);
            word = words[c];
            topic = topics[c];
        }
        for (int t : delta.topicChanges()) {
            out.signed(t);
        }
        return out.bytes();
    }

    /** The whole frame, its delta included (what a task merges). */
    static Frame decode(byte[] frame) {
        FrameReader in = new FrameReader(frame);
        Head head = head(frame, in);
        int k = in.count(1); // a topic's change takes a byte at least, a cell's three
        int v = in.varint();
        int n = in.count(3);
        int[] words = new int[n];
        int[] topics = new int[n];
        int[] changes = new int[n];
        int[] topicChanges = new int[k];
        int word = 0;
        int topic = 0;
        for (int c = 0; c < n; c++) {
            int gap = in.varint();
            word += gap;
            topic = gap == 0 && c > 0 ? topic + in.varint() : in.varint();
            words[c] = word;
            topics[c] = topic;
            changes[c] = in.signed();
        }
        for (int t = 0; t < k; t++) {
            topicChanges[t] = in.signed();
        }
        in.requireEnd("a report frame");
        return new Frame(head, TopicWordDelta.of(k, v, words, topics, changes, topicChanges));
    }

    /** The frame's head only: the blocks' figures, the topic–word term and any counts (the driver's part). */
    static Head decodeHead(byte[] frame) {
        return head(frame, new FrameReader(frame));
    }

    private static Head head(byte[] frame, FrameReader in) {
        int count = in.count(2 + 2 * 8);
        List<LdaBlock.BlockFigures> blocks = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int block = in.varint();
            int partition = in.varint();
            double documentTerm = in.real();
            double samplingSeconds = in.real();
            blocks.add(new LdaBlock.BlockFigures(block, documentTerm, samplingSeconds, partition));
        }
        double wordTerm = in.real();
        int countLength = in.varint();
        TopicWordCounts counts = countLength == 0 ? null
                : JavaFrames.decode(frame, in.skip(countLength), countLength, TopicWordCounts.class);
        return new Head(blocks, wordTerm, counts);
    }
}
