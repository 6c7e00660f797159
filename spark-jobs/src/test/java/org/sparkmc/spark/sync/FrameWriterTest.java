package org.sparkmc.spark.sync;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** What a {@link FrameWriter} writes, a {@link FrameReader} reads back exactly, and a short or long frame fails. */
class FrameWriterTest {
    private static final int[] INTS = {0, 1, 127, 128, 300, 16_383, 16_384, Integer.MAX_VALUE, -1, Integer.MIN_VALUE};
    private static final double[] REALS = {0.0, -0.0, 1.5, -1e-300, Double.MIN_VALUE, Double.MAX_VALUE,
        Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, Double.NaN, Math.PI};

    @Test
    void everyKindOfValueReadsBackExactly() {
        FrameWriter out = new FrameWriter(1); // far too small: the buffer grows
        for (int v : INTS) {
            out.varint(v);
            out.signed(v);
        }
        for (double v : REALS) {
            out.real(v);
        }
        out.reals(REALS);
        out.raw(Long.MIN_VALUE);
        out.append(new byte[] {7, 8, 9});
        byte[] frame = out.bytes();

        FrameReader in = new FrameReader(frame);
        for (int v : INTS) {
            assertEquals(v, in.varint());
            assertEquals(v, in.signed());
        }
        for (double v : REALS) {
            assertEquals(Double.doubleToRawLongBits(v), Double.doubleToRawLongBits(in.real()));
        }
        double[] back = in.reals();
        assertEquals(REALS.length, back.length);
        for (int i = 0; i < back.length; i++) {
            assertEquals(Double.doubleToRawLongBits(REALS[i]), Double.doubleToRawLongBits(back[i]));
        }
        assertEquals(Long.MIN_VALUE, in.raw());
        int at = in.skip(3);
        assertArrayEquals(new byte[] {7, 8, 9}, Arrays.copyOfRange(frame, at, at + 3));
        in.requireEnd("the test frame");
    }

    @Test
    void smallNumbersTakeOneByte() {
        FrameWriter out = new FrameWriter(16);
        out.varint(127);
        out.signed(-64);
        out.signed(63);
        assertEquals(3, out.bytes().length);
    }

    @Test
    void aFrameThatEndsTooSoonOrTooLateFails() {
        FrameWriter out = new FrameWriter(16);
        out.varint(300);
        out.real(2.0);
        byte[] frame = out.bytes();

        FrameReader shortOne = new FrameReader(Arrays.copyOf(frame, frame.length - 1));
        shortOne.varint();
        IllegalStateException e = assertThrows(IllegalStateException.class, shortOne::real);
        assertTrue(e.getMessage().contains("ends too soon"), e.getMessage());

        FrameReader longOne = new FrameReader(Arrays.copyOf(frame, frame.length + 2));
        longOne.varint();
        longOne.real();
        e = assertThrows(IllegalStateException.class, () -> longOne.requireEnd("a test frame"));
        assertEquals("a test frame has 2 bytes after its end", e.getMessage());

        assertThrows(IllegalStateException.class, () -> new FrameReader(frame).skip(frame.length + 1));

        FrameWriter lying = new FrameWriter(16);
        lying.varint(1 << 28); // an array length far beyond the frame's bytes
        lying.real(1.0);
        e = assertThrows(IllegalStateException.class, () -> new FrameReader(lying.bytes()).reals());
        assertTrue(e.getMessage().contains("ends too soon"), e.getMessage());
    }
}
