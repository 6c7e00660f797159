package org.sparkmc.spark.sync;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InvalidClassException;
import org.junit.jupiter.api.Test;

/** An object goes through a frame whole, and an array whose length its frame cannot hold is refused. */
class JavaFramesTest {
    @Test
    void anObjectReadsBack() {
        byte[] frame = JavaFrames.encode(new int[] {3, 1, 4});
        assertArrayEquals(new int[] {3, 1, 4}, JavaFrames.decode(frame, 0, frame.length, int[].class));
    }

    /**
     * A serialised array ends in its length: one its frame cannot hold (corrupt, or hostile) is refused before the
     * array is allocated (an {@link OutOfMemoryError} for a larger length), not read until the frame ends.
     */
    @Test
    void anArrayLongerThanItsFrameIsRefused() {
        byte[] frame = JavaFrames.encode(new int[0]);
        frame[frame.length - 3] = 1; // 1 << 16 ints, big-endian
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> JavaFrames.decode(frame, 0, frame.length, int[].class));
        assertTrue(e.getCause() instanceof InvalidClassException, String.valueOf(e.getCause()));
    }
}
