package org.sparkmc.spark.sync;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/** Reads what a {@link FrameWriter} wrote, in the same order; fails clearly on a frame that ends too soon. */
public final class FrameReader {
    private final byte[] in;
    private int at;

    public FrameReader(byte[] in) {
        this.in = in;
    }

    public int varint() {
        int value = 0;
        for (int shift = 0; ; shift += 7) {
            byte b = next();
            value |= (b & 0x7F) << shift;
            if (b >= 0) {
                return value;
            }
        }
    }

    public int signed() {
        int v = varint();
        return v >>> 1 ^ -(v & 1);
    }

    public long raw() {
        long bits = 0;
        for (int i = 0; i < 8; i++) {
            bits |= (next() & 0xFFL) << 8 * i;
        }
        return bits;
    }

    public double real() {
        return Double.longBitsToDouble(raw());
    }

    /**
     * A count of entries that take at least {@code bytesEach} bytes each (1 or more), read as a {@link #varint}; fails
     * when the rest of the frame cannot hold that many, so that a corrupt count fails here, not as an allocation of
     * gigabytes.
     */
    public int count(int bytesEach) {
        int n = varint();
        if (n < 0 || n > (in.length - at) / bytesEach) {
            throw new IllegalStateException("a relay frame of " + in.length + " bytes ends too soon for a count of " + n
                    + " entries of at least " + bytesEach + " bytes each, with " + (in.length - at) + " bytes left");
        }
        return n;
    }

    public double[] reals() {
        int n = count(8);
        double[] values = new double[n];
        ByteBuffer.wrap(in, at, 8 * n).order(ByteOrder.LITTLE_ENDIAN).asDoubleBuffer().get(values);
        at += 8 * n;
        return values;
    }

    /** Skips {@code n} bytes; returns where they start. */
    public int skip(int n) {
        if (n < 0 || n > in.length - at) {
            throw truncated();
        }
        int from = at;
        at += n;
        return from;
    }

    /** Fails unless every byte has been read. */
    public void requireEnd(String what) {
        if (at != in.length) {
            throw new IllegalStateException(what + " has " + (in.length - at) + " bytes after its end");
        }
    }

    private byte next() {
        if (at >= in.length) {
            throw truncated();
        }
        return in[at++];
    }

    private IllegalStateException truncated() {
        return new IllegalStateException("a relay frame of " + in.length + " bytes ends too soon");
    }
}
