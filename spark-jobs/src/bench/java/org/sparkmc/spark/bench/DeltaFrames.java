package org.sparkmc.spark.bench;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.util.List;
import java.util.SortedMap;
import org.sparkmc.core.lda.TopicWordDelta;

/**
 * Encodings of blocks' {@link TopicWordDelta}s for {@link SweepSyncServer}, told apart by the first byte.
 * {@code int}: a 0, a count, then per block its id, K, V, n, the n words, n topics, n changes and the K topic
 * changes, as little-endian ints copied in bulk (12 bytes a cell). {@code varint}: a 0x80 byte, then the same
 * fields as variable-length integers, words as gaps, a topic as the gap from the previous cell's topic of the same
 * word, changes zig-zag coded (about 3 bytes a cell).
 */
final class DeltaFrames {
    private DeltaFrames() {
    }

    /** The frame of {@code deltas.get(i)} for block {@code blockIds[i]} in the named encoding. */
    static byte[] encode(String encoding, int[] blockIds, List<TopicWordDelta> deltas) {
        return switch (encoding) {
            case "int" -> encodeInts(blockIds, deltas);
            case "varint" -> encodeVarints(blockIds, deltas);
            default -> throw new IllegalArgumentException("unknown encoding " + encoding);
        };
    }

    /** Decodes a frame's deltas, in either encoding, into {@code byBlock} (block id → delta). */
    static void decode(byte[] frame, SortedMap<Integer, TopicWordDelta> byBlock) {
        if (frame[0] == VARINT) {
            decodeVarints(frame, byBlock);
        } else {
            decodeInts(frame, byBlock);
        }
    }

    private static final byte VARINT = (byte) 0x80;

    private static byte[] encodeInts(int[] blockIds, List<TopicWordDelta> deltas) {
        int ints = 2;
        for (TopicWordDelta d : deltas) {
            ints += 4 + 3 * d.size() + d.numTopics();
        }
        byte[] frame = new byte[4 * ints];
        IntBuffer out = ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
        out.put(0).put(deltas.size());
        for (int i = 0; i < deltas.size(); i++) {
            TopicWordDelta d = deltas.get(i);
            out.put(blockIds[i]).put(d.numTopics()).put(d.vocabularySize()).put(d.size());
            out.put(d.words()).put(d.topics()).put(d.changes()).put(d.topicChanges());
        }
        return frame;
    }

    private static void decodeInts(byte[] frame, SortedMap<Integer, TopicWordDelta> byBlock) {
        IntBuffer in = ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer();
        in.get();
        int count = in.get();
        for (int i = 0; i < count; i++) {
            int block = in.get();
            int k = in.get();
            int v = in.get();
            int n = in.get();
            int[] words = new int[n];
            int[] topics = new int[n];
            int[] changes = new int[n];
            int[] topicChanges = new int[k];
            in.get(words).get(topics).get(changes).get(topicChanges);
            put(byBlock, block, TopicWordDelta.of(k, v, words, topics, changes, topicChanges));
        }
    }

    private static void put(SortedMap<Integer, TopicWordDelta> byBlock, int block, TopicWordDelta delta) {
        if (byBlock.put(block, delta) != null) {
            throw new IllegalStateException("block " + block + " sent twice");
        }
    }

    private static byte[] encodeVarints(int[] blockIds, List<TopicWordDelta> deltas) {
        int max = 6;
        for (TopicWordDelta d : deltas) {
            max += 5 * (4 + 3 * d.size() + d.numTopics());
        }
        byte[] out = new byte[max];
        out[0] = VARINT;
        int at = put(out, 1, deltas.size());
        for (int i = 0; i < deltas.size(); i++) {
            TopicWordDelta d = deltas.get(i);
            int[] words = d.words();
            int[] topics = d.topics();
            int[] changes = d.changes();
            at = put(out, at, blockIds[i]);
            at = put(out, at, d.numTopics());
            at = put(out, at, d.vocabularySize());
            at = put(out, at, d.size());
            int word = 0;
            int topic = 0;
            for (int c = 0; c < words.length; c++) {
                at = put(out, at, words[c] - word);
                at = put(out, at, words[c] == word && c > 0 ? topics[c] - topic : topics[c]);
                at = put(out, at, zigZag(changes[c]));
                word = words[c];
                topic = topics[c];
            }
            for (int t : d.topicChanges()) {
                at = put(out, at, zigZag(t));
            }
        }
        return java.util.Arrays.copyOf(out, at);
    }

    private static void decodeVarints(byte[] frame, SortedMap<Integer, TopicWordDelta> byBlock) {
        int[] at = {1};
        int count = get(frame, at);
        for (int i = 0; i < count; i++) {
            int block = get(frame, at);
            int k = get(frame, at);
            int v = get(frame, at);
            int n = get(frame, at);
            int[] words = new int[n];
            int[] topics = new int[n];
            int[] changes = new int[n];
            int[] topicChanges = new int[k];
            int word = 0;
            int topic = 0;
            for (int c = 0; c < n; c++) {
                int gap = get(frame, at);
                word += gap;
                topic = gap == 0 && c > 0 ? topic + get(frame, at) : get(frame, at);
                words[c] = word;
                topics[c] = topic;
                changes[c] = unZigZag(get(frame, at));
            }
            for (int t = 0; t < k; t++) {
                topicChanges[t] = unZigZag(get(frame, at));
            }
            put(byBlock, block, TopicWordDelta.of(k, v, words, topics, changes, topicChanges));
        }
    }

    /** Writes {@code value} (read as unsigned) as a varint at {@code at}; returns the next position. */
    private static int put(byte[] out, int at, int value) {
        while ((value & ~0x7F) != 0) {
            out[at++] = (byte) (value & 0x7F | 0x80);
            value >>>= 7;
        }
        out[at++] = (byte) value;
        return at;
    }

    /** Reads a varint at {@code at[0]} and advances it. */
    private static int get(byte[] in, int[] at) {
        int i = at[0];
        int value = 0;
        for (int shift = 0; ; shift += 7) {
            byte b = in[i++];
            value |= (b & 0x7F) << shift;
            if (b >= 0) {
                at[0] = i;
                return value;
            }
        }
    }

    private static int zigZag(int v) {
        return v << 1 ^ v >> 31;
    }

    private static int unZigZag(int v) {
        return v >>> 1 ^ -(v & 1);
    }
}
