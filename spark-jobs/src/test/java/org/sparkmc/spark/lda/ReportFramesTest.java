package org.sparkmc.spark.lda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.lda.TopicWordDelta;
import org.sparkmc.spark.sync.FrameWriter;

/**
 * A relayed lda step's frame reads back, and one whose count of blocks or of changed cells its bytes cannot hold
 * (corrupt, or hostile) fails as a frame that ends too soon for it, before arrays of that many are allocated (an
 * {@link OutOfMemoryError} for a larger count).
 */
class ReportFramesTest {
    @Test
    void aFrameReadsBack() {
        TopicWordDelta delta = TopicWordDelta.of(2, 3, new int[] {0, 2}, new int[] {1, 0}, new int[] {-1, 4},
                new int[] {4, -1});
        List<LdaBlock.BlockFigures> figures = List.of(new LdaBlock.BlockFigures(3, -12.5, 0.25, 1));
        ReportFrames.Frame back = ReportFrames.decode(ReportFrames.encode(figures, delta, 1.5, null));
        assertEquals(figures, back.head().blocks());
        assertEquals(1.5, back.head().wordTerm());
        assertEquals(4, back.delta().changes()[1]);
    }

    @Test
    void anAbsurdCountFailsBeforeAnythingIsAllocated() {
        FrameWriter blocks = new FrameWriter(16);
        blocks.varint(1 << 24); // blocks
        blocks.real(1.0);
        assertTooShort(() -> ReportFrames.decodeHead(blocks.bytes()));

        FrameWriter cells = new FrameWriter(16);
        cells.varint(0); // blocks
        cells.real(Double.NaN); // topic-word term
        cells.varint(0); // no counts
        cells.varint(2); // topics
        cells.varint(3); // words
        cells.varint(1 << 24); // changed cells
        cells.signed(0);
        cells.signed(0);
        assertTooShort(() -> ReportFrames.decode(cells.bytes()));
    }

    private static void assertTooShort(org.junit.jupiter.api.function.Executable decode) {
        IllegalStateException e = assertThrows(IllegalStateException.class, decode);
        assertTrue(e.getMessage().contains("ends too soon for a count of 16777216"), e.getMessage());
    }
}
