package org.sparkmc.spark.lda;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.sparkmc.core.lda.TopicWordDelta;

/**
 * The bytes a task sends through the round relay after each sync step: its blocks' {@link LdaBlock.BlockReport}s.
 * Integers are variable-length (7 bits a byte); a delta's words are gaps, a cell's topic is the gap from the
 * previous cell's topic of the same word, and changes are zig-zag coded, so a changed cell costs about 3 bytes
 * where a Java array of ints costs 12. The two doubles are their raw 8 bytes.
 */
final class ReportFrames {
    private ReportFrames() {
    }

    static byte[] encode(List<LdaBlock.BlockReport> reports) {
        int max = 5;
        for (LdaBlock.BlockReport r : reports) {
            TopicWordDelta d = r.delta();
            max += 16 + 5 * (6 + 3 * d.size() + d.numTopics());
        }
        Writer out = new Writer(max);
        out.varint(reports.size());
        for (LdaBlock.BlockReport r : reports) {
            TopicWordDelta d = r.delta();
            out.varint(r.block());
            out.varint(r.partition());
            out.raw(Double.doubleToRawLongBits(r.documentTerm()));
            out.raw(Double.doubleToRawLongBits(r.samplingSeconds()));
            out.varint(d.numTopics());
            out.varint(d.vocabularySize());
            out.varint(d.size());
            int[] words = d.words();
            int[] topics = d.topics();
            int[] changes = d.changes();
            int word = 0;
            int topic = 0;
            for (int c = 0; c < words.length; c++) {
                out.varint(words[c] - word);
                out.varint(words[c] == word && c > 0 ? topics[c] - topic : topics[c]);
                out.varint(zigZag(changes[c]));
                word = words[c];
                topic = topics[c];
            }
            for (int t : d.topicChanges()) {
                out.varint(zigZag(t));
            }
        }
        return out.bytes();
    }

    static List<LdaBlock.BlockReport> decode(byte[] frame) {
        Reader in = new Reader(frame);
        int count = in.varint();
        List<LdaBlock.BlockReport> reports = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int block = in.varint();
            int partition = in.varint();
            double documentTerm = Double.longBitsToDouble(in.raw());
            double samplingSeconds = Double.longBitsToDouble(in.raw());
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
            reports.add(new LdaBlock.BlockReport(block, TopicWordDelta.of(k, v, words, topics, changes, topicChanges),
                    documentTerm, samplingSeconds, partition));
        }
        if (in.at != frame.length) {
            throw new IllegalStateException("report frame has " + (frame.length - in.at) + " bytes after its reports");
        }
        return reports;
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

        long raw() {
            long bits = 0;
            for (int i = 0; i < 8; i++) {
                bits |= (in[at++] & 0xFFL) << 8 * i;
            }
            return bits;
        }
    }
}
