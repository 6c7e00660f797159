package org.sparkmc.spark.chains;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.catalog.KernelCatalog;
import org.sparkmc.core.mcmc.ChainRound;
import org.sparkmc.core.mcmc.ChainState;
import org.sparkmc.core.mcmc.Kernel;
import org.sparkmc.core.mcmc.KernelSettings;
import org.sparkmc.core.mcmc.RoundResult;
import org.sparkmc.core.model.BimodalMixture;
import org.sparkmc.core.model.Target;
import org.sparkmc.core.random.RandomStreams;
import org.sparkmc.spark.sync.FrameWriter;

/**
 * A relayed round's frame carries each chain's state (with its kernel's adapted state), its moves and the rows the
 * driver summarises, bit for bit; the driver's answers read back, and anything else fails.
 */
class RoundFramesTest {
    private final Target target = new BimodalMixture(5);
    private final Kernel<?> kernel = KernelCatalog.create("rwm", new KernelSettings(3, true, Double.NaN, 1, 200));
    private final RandomStreams streams = new RandomStreams(11);

    @Test
    void aRoundsResultsReadBackWithTheirFirstRows() {
        List<RoundResult> results = List.of(round(3, 200, true), round(5, 200, true));
        List<RoundResult> back = RoundFrames.decode(RoundFrames.encode(results, 2));
        assertEquals(results.size(), back.size());
        for (int i = 0; i < results.size(); i++) {
            RoundResult sent = results.get(i);
            RoundResult read = back.get(i);
            assertEquals(sent.chain(), read.chain());
            assertEquals(sent.round(), read.round());
            assertEquals(sent.accepted(), read.accepted());
            assertEquals(sent.proposed(), read.proposed());
            assertArrayEquals(sent.state().position(), read.state().position());
            assertEquals(sent.state().logDensity(), read.state().logDensity());
            assertEquals(2, read.draws().length, "the summarised rows only");
            assertTrue(sent.draws().length > 2, "there was more to leave out");
            for (int p = 0; p < 2; p++) {
                assertArrayEquals(sent.draws()[p], read.draws()[p]);
            }
            // the kernel's state goes whole: a warm-up round from the read state moves as one from the sent state
            RoundResult fromSent = ChainRound.run(target, kernel, sent.state(), 2, 50, true, false, streams);
            RoundResult fromRead = ChainRound.run(target, kernel, read.state(), 2, 50, true, false, streams);
            assertArrayEquals(fromSent.state().position(), fromRead.state().position());
            assertEquals(fromSent.accepted(), fromRead.accepted());
        }
    }

    @Test
    void aWarmupRoundSendsNoRow() {
        List<RoundResult> back = RoundFrames.decode(RoundFrames.encode(List.of(round(1, 100, false)), 0));
        assertEquals(0, back.get(0).draws().length);
    }

    @Test
    void theDriversAnswersReadBackAndNothingElseDoes() {
        assertTrue(RoundFrames.goesOn(RoundFrames.GO));
        assertFalse(RoundFrames.goesOn(RoundFrames.STOP));
        assertThrows(IllegalStateException.class, () -> RoundFrames.goesOn(new byte[] {2}));
        assertThrows(IllegalStateException.class, () -> RoundFrames.goesOn(new byte[0]));
    }

    @Test
    void aCutFrameFails() {
        byte[] frame = RoundFrames.encode(List.of(round(2, 100, true)), 2);
        assertThrows(IllegalStateException.class, () -> RoundFrames.decode(Arrays.copyOf(frame, frame.length - 3)));
        byte[] longer = Arrays.copyOf(frame, frame.length + 1);
        assertThrows(IllegalStateException.class, () -> RoundFrames.decode(longer));
    }

    /**
     * A chain's count of rows that the frame's bytes cannot hold (corrupt, or hostile) fails as a frame that ends too
     * soon for it, before an array of that many rows is allocated (an {@link OutOfMemoryError} for a larger count).
     */
    @Test
    void anAbsurdCountOfRowsFailsBeforeAnythingIsAllocated() {
        byte[] frame = RoundFrames.encode(List.of(round(1, 100, false)), 0); // ends in its count of rows, 0
        FrameWriter rows = new FrameWriter(5);
        rows.varint(1 << 24);
        byte[] lying = Arrays.copyOf(frame, frame.length - 1 + rows.bytes().length);
        System.arraycopy(rows.bytes(), 0, lying, frame.length - 1, rows.bytes().length);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> RoundFrames.decode(lying));
        assertTrue(e.getMessage().contains("ends too soon for a count of 16777216"), e.getMessage());
    }

    /** Chain {@code chain}'s first round of {@code iterations}, recording draws when {@code record}. */
    private RoundResult round(long chain, int iterations, boolean record) {
        ChainState start = ChainRound.start(chain, target, kernel, streams);
        return ChainRound.run(target, kernel, start, 1, iterations, !record, record, streams);
    }
}
