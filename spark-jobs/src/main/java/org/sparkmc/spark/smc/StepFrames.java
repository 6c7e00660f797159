package org.sparkmc.spark.smc;

import java.util.ArrayList;
import java.util.List;
import org.sparkmc.core.smc.BlockSummary;
import org.sparkmc.core.smc.ResidualBlock;
import org.sparkmc.spark.sync.FrameReader;
import org.sparkmc.spark.sync.FrameWriter;
import scala.Tuple2;

/**
 * The bytes of a relayed {@code smc} step's rounds ({@link RelayedSteps}): the blocks' reports, residual
 * resampling's parts, and the offspring runs that change partition. Whole numbers are variable-length, doubles their
 * exact 8 bytes ({@link FrameWriter}), so a round reads back equal bit for bit; a block's report takes about 60 bytes
 * for a one-dimensional state. Each round of each step is written and read this way, by the tasks and the driver.
 */
final class StepFrames {
    /** The fewest bytes a block's report takes: three whole numbers, four doubles and two arrays' lengths. */
    private static final int REPORT_BYTES = 3 + 4 * 8 + 2;

    private StepFrames() {
    }

    static byte[] reports(List<ParticleBlock.Report> reports) {
        FrameWriter out = new FrameWriter(8 + 64 * reports.size());
        out.varint(reports.size());
        for (ParticleBlock.Report r : reports) {
            BlockSummary s = r.summary();
            out.varint(s.block());
            out.varint(s.count());
            out.varint(r.partition());
            out.real(r.seconds());
            out.real(s.maxLogWeight());
            out.real(s.sumWeights());
            out.real(s.sumSquaredWeights());
            out.reals(s.mean());
            out.reals(s.sumSquaredDeviations());
        }
        return out.bytes();
    }

    static List<ParticleBlock.Report> reports(byte[] frame) {
        FrameReader in = new FrameReader(frame);
        int n = in.count(REPORT_BYTES);
        List<ParticleBlock.Report> reports = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int block = in.varint();
            int count = in.varint();
            int partition = in.varint();
            double seconds = in.real();
            double max = in.real();
            double sum = in.real();
            double sumSquares = in.real();
            double[] mean = in.reals();
            double[] deviations = in.reals();
            reports.add(new ParticleBlock.Report(BlockSummary.ofParts(block, count, max, sum, sumSquares, mean,
                    deviations), seconds, partition));
        }
        in.requireEnd("a report frame");
        return reports;
    }

    static byte[] residuals(List<ResidualBlock> parts) {
        FrameWriter out = new FrameWriter(8 + 24 * parts.size());
        out.varint(parts.size());
        for (ResidualBlock p : parts) {
            out.varint(p.block());
            out.raw(p.floorSum());
            out.real(p.residualSum());
        }
        return out.bytes();
    }

    static List<ResidualBlock> residuals(byte[] frame) {
        FrameReader in = new FrameReader(frame);
        int n = in.count(1 + 8 + 8);
        List<ResidualBlock> parts = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            parts.add(ResidualBlock.of(in.varint(), in.raw(), in.real()));
        }
        in.requireEnd("a residual frame");
        return parts;
    }

    /** Offspring runs keyed by their destination block, as {@link Rebalancing#offspring} returns them. */
    static byte[] offspring(List<Tuple2<Integer, Offspring>> runs) {
        int bytes = 8;
        for (Tuple2<Integer, Offspring> run : runs) {
            bytes += 24 + 8 * run._2().states().length;
        }
        FrameWriter out = new FrameWriter(bytes);
        out.varint(runs.size());
        for (Tuple2<Integer, Offspring> run : runs) {
            Offspring o = run._2();
            out.varint(o.destination());
            out.raw(o.firstIndex());
            out.reals(o.states());
        }
        return out.bytes();
    }

    static List<Tuple2<Integer, Offspring>> offspring(byte[] frame) {
        FrameReader in = new FrameReader(frame);
        int n = in.count(1 + 8 + 1);
        List<Tuple2<Integer, Offspring>> runs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Offspring o = new Offspring(in.varint(), in.raw(), in.reals());
            runs.add(new Tuple2<>(o.destination(), o));
        }
        in.requireEnd("an offspring frame");
        return runs;
    }
}
