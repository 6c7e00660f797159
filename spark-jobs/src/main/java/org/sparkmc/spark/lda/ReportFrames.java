package org.sparkmc.spark.lda;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.sparkmc.core.lda.TopicWordCounts;
import org.sparkmc.core.lda.TopicWordDelta;
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
        Writer out = new Writer(5 + 26 * figures.size() + 8 + 5 + countBytes.length
                + 5 * (6 + 3 * delta.size() + delta.numTopics()));
        out.varint(figures.size());
        for (LdaBlock.BlockFigures f : figures) {
            out.varint(f.block());
            out.varint(f.partition());
            out.raw(Double.doubleToRawLongBits(f.documentTerm()));
            out.raw(Double.doubleToRawLongBits(f.samplingSeconds()));
        }
        out.raw(Double.doubleToRawLongBits(wordTerm));
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
            out.varint(zigZag(changes[c]));
            word = words[c];
            topic = topics[c];
        }
        for (int t : delta.topicChanges()) {
            out.varint(zigZag(t));
        }
        return out.bytes();
    }

    /** The whole frame, its delta included (what a task merges). */
    static Frame decode(byte[] frame) {
        Reader in = new Reader(frame);
        Head head = head(frame, in);
        int k = in.varint();
        int v = in.varint();
        int n = in.varint();
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
            changes[c] = unZigZag(in.varint());
        }
        for (int t = 0; t < k; t++) {
            topicChanges[t] = unZigZag(in.varint());
        }
        if (in.at != frame.length) {
            throw new IllegalStateException("report frame has " + (frame.length - in.at) + " bytes after its delta");
        }
        return new Frame(head, TopicWordDelta.of(k, v, words, topics, changes, topicChanges));
    }

    /** The frame's head only: the blocks' figures, the topic–word term and any counts (the driver's part). */
    static Head decodeHead(byte[] frame) {
        return head(frame, new Reader(frame));
    }

    private static Head head(byte[] frame, Reader in) {
        int count = in.varint();
        List<LdaBlock.BlockFigures> blocks = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int block = in.varint();
            int partition = in.varint();
            double documentTerm = Double.longBitsToDouble(in.raw());
            double samplingSeconds = Double.longBitsToDouble(in.raw());
            blocks.add(new LdaBlock.BlockFigures(block, documentTerm, samplingSeconds, partition));
        }
        double wordTerm = Double.longBitsToDouble(in.raw());
        int countLength = in.varint();
        TopicWordCounts counts = countLength == 0 ? null
                : JavaFrames.decode(frame, in.skip(countLength), countLength, TopicWordCounts.class);
        return new Head(blocks, wordTerm, counts);
    }

    private static int zigZag(int v) {
        return v << 1 ^ v >> 31;
    }

    private static int unZigZag(int v) {
        return v >>> 1 ^ -(v & 1);
    }

    private static final class Writer {
        private final byte[] out;
        private int at;

        Writer(int capacity) {
            out = new byte[capacity];
        }

        /** {@code value} read as unsigned. */
        void varint(int value) {
            while ((value & ~0x7F) != 0) {
                out[at++] = (byte) (value & 0x7F | 0x80);
                value >>>= 7;
            }
            out[at++] = (byte) value;
        }

        void raw(long bits) {
            for (int i = 0; i < 8; i++) {
                out[at++] = (byte) (bits >>> 8 * i);
            }
        }

        void append(byte[] src) {
            System.arraycopy(src, 0, out, at, src.length);
            at += src.length;
        }

        byte[] bytes() {
            return Arrays.copyOf(out, at);
        }
    }

    private static final class Reader {
        private final byte[] in;
        private int at;

        Reader(byte[] in) {
            this.in = in;
        }

        int varint() {
            int value = 0;
            for (int shift = 0; ; shift += 7) {
                byte b = in[at++];
                value |= (b & 0x7F) << shift;
                if (b >= 0) {
                    return value;
                }
            }
        }

        /** Skips {@code n} bytes; returns where they start. */
        int skip(int n) {
            int from = at;
            at += n;
            return from;
        }

        long raw() {
            long bits = 0;
            for (int i = 0; i < 8; i++) {
                bits |= (in[at++] & 0xFFL) << 8 * i;
            }
            return bits;
        }
    }
}
