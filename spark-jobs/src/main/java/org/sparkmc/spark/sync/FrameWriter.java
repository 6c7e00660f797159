package org.sparkmc.spark.sync;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Writes a relay frame's bytes: whole numbers as variable-length integers (7 bits a byte), doubles as their raw 8
 * bytes, little-endian. The buffer grows as needed. {@link FrameReader} reads them back in the same order.
 */
public final class FrameWriter {
    private byte[] out;
    private int at;

    /** @param capacity the bytes expected (the buffer grows past it) */
    public FrameWriter(int capacity) {
        out = new byte[Math.max(16, capacity)];
    }

    /** {@code value} as unsigned: non-negative values take 1–5 bytes. */
    public void varint(int value) {
        room(5);
        while ((value & ~0x7F) != 0) {
            out[at++] = (byte) (value & 0x7F | 0x80);
            value >>>= 7;
        }
        out[at++] = (byte) value;
    }

    /** A signed value, zig-zag coded so that small magnitudes of either sign stay short. */
    public void signed(int value) {
        varint(value << 1 ^ value >> 31);
    }

    public void raw(long bits) {
        room(8);
        for (int i = 0; i < 8; i++) {
            out[at++] = (byte) (bits >>> 8 * i);
        }
    }

    /** The double's exact bits. */
    public void real(double value) {
        raw(Double.doubleToRawLongBits(value));
    }

    /** The array's length, then its values' exact bits (copied in bulk, as {@link #real} would write each). */
    public void reals(double[] values) {
        varint(values.length);
        room(8 * values.length);
        ByteBuffer.wrap(out, at, 8 * values.length).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().put(values);
        at += 8 * values.length;
    }

    public void append(byte[] src) {
        room(src.length);
        System.arraycopy(src, 0, out, at, src.length);
        at += src.length;
    }

    /** The bytes written. */
    public byte[] bytes() {
        return Arrays.copyOf(out, at);
    }

    private void room(int bytes) {
        if (out.length - at < bytes) {
            long grown = Math.max(2L * out.length, (long) at + bytes);
            out = Arrays.copyOf(out, (int) Math.min(Integer.MAX_VALUE - 8, grown));
        }
    }
}
