package org.sparkmc.spark.smc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.sparkmc.core.smc.BlockSummary;
import org.sparkmc.core.smc.ResidualBlock;
import org.sparkmc.spark.sync.FrameWriter;
import scala.Tuple2;

/** A relayed step's rounds read back equal to what was written: reports, residual parts and offspring runs. */
class StepFramesTest {
    @Test
    void reportsReadBackEqual() {
        double[] states = {0.5, -1.0, 2.0, 3.25, -7.5, 1e-9}; // three particles of a 2-d state
        double[] logWeights = {-0.1, -3.0, -0.7};
        BlockSummary moved = BlockSummary.of(4, states, logWeights, 0, 3, 2, new double[3]);
        BlockSummary dead = BlockSummary.of(5, states, new double[] {Double.NEGATIVE_INFINITY,
            Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY}, 0, 3, 2, new double[3]);
        List<ParticleBlock.Report> reports = List.of(new ParticleBlock.Report(moved, 0.125, 1),
                new ParticleBlock.Report(dead, 0.0, 0));

        List<ParticleBlock.Report> back = StepFrames.reports(StepFrames.reports(reports));

        assertEquals(reports, back);
        assertArrayEquals(moved.mean(), back.get(0).summary().mean());
        assertEquals(Double.NEGATIVE_INFINITY, back.get(1).summary().maxLogWeight());
        assertEquals(List.of(), StepFrames.reports(StepFrames.reports(List.of())));
        assertThrows(IllegalArgumentException.class,
                () -> BlockSummary.ofParts(0, 1, 0, 1, 1, new double[1], new double[2]));
    }

    @Test
    void residualPartsReadBackEqual() {
        List<ResidualBlock> parts = List.of(ResidualBlock.of(0, 4_000_000_000L, 0.75), ResidualBlock.of(9, 0, 0));
        List<ResidualBlock> back = StepFrames.residuals(StepFrames.residuals(parts));
        assertEquals(parts.size(), back.size());
        for (int i = 0; i < parts.size(); i++) {
            assertEquals(parts.get(i).block(), back.get(i).block());
            assertEquals(parts.get(i).floorSum(), back.get(i).floorSum());
            assertEquals(parts.get(i).residualSum(), back.get(i).residualSum());
        }
    }

    @Test
    void offspringRunsReadBackEqual() {
        List<Tuple2<Integer, Offspring>> runs = List.of(
                new Tuple2<>(3, new Offspring(3, 12_288L, new double[] {1.0, 1.0, -2.5})),
                new Tuple2<>(7, new Offspring(7, 5_000_000_000L, new double[0])));
        List<Tuple2<Integer, Offspring>> back = StepFrames.offspring(StepFrames.offspring(runs));
        assertEquals(runs.size(), back.size());
        for (int i = 0; i < runs.size(); i++) {
            assertEquals(runs.get(i)._1(), back.get(i)._1());
            assertEquals(runs.get(i)._2().destination(), back.get(i)._2().destination());
            assertEquals(runs.get(i)._2().firstIndex(), back.get(i)._2().firstIndex());
            assertArrayEquals(runs.get(i)._2().states(), back.get(i)._2().states());
        }
    }

    /**
     * A frame whose count of entries its bytes cannot hold (corrupt, or hostile) fails as a frame that ends too soon
     * for it, before a list of that many entries is allocated (an {@link OutOfMemoryError} for a larger count).
     */
    @Test
    void anAbsurdCountFailsBeforeAnythingIsAllocated() {
        FrameWriter lying = new FrameWriter(16);
        lying.varint(1 << 24);
        lying.real(1.0);
        byte[] frame = lying.bytes();
        List<Function<byte[], List<?>>> decoders = List.of(StepFrames::reports, StepFrames::residuals,
                StepFrames::offspring);
        for (Function<byte[], List<?>> decoder : decoders) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> decoder.apply(frame));
            assertTrue(e.getMessage().contains("ends too soon for a count of 16777216"), e.getMessage());
        }
    }
}
