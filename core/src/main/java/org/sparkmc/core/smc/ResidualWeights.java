package org.sparkmc.core.smc;

import java.io.Serializable;
import java.util.List;

/**
 * The driver's fold of {@link ResidualBlock}s in block order for residual resampling: the number of copies
 * fixed before each block (Σ⌊e⌋), the residual points R = n − Σ⌊e⌋ still to draw, and the cumulative residual
 * weight before each block.
 */
public final class ResidualWeights implements Serializable {
    private static final long serialVersionUID = 1L;
    private long[] floorsBefore;
    private double[] offset;
    private long residualPoints;
    private long points;

    /** For serialization frameworks only. */
    public ResidualWeights() {
    }

    /**
     * @param points n, the total number of offspring
     * @throws IllegalStateException if rounding made Σ⌊n·W_i⌋ exceed n (not expected in practice)
     */
    public static ResidualWeights of(long points, List<ResidualBlock> blocks) {
        ResidualWeights r = new ResidualWeights();
        r.points = points;
        int nb = blocks.size();
        r.floorsBefore = new long[nb + 1];
        r.offset = new double[nb + 1];
        for (int b = 0; b < nb; b++) {
            ResidualBlock s = blocks.get(b);
            if (s.block() != b) {
                throw new IllegalArgumentException("residual blocks out of order: position " + b + " holds block "
                        + s.block());
            }
            r.floorsBefore[b + 1] = r.floorsBefore[b] + s.floorSum();
            r.offset[b + 1] = r.offset[b] + s.residualSum();
        }
        r.residualPoints = points - r.floorsBefore[nb];
        if (r.residualPoints < 0) {
            throw new IllegalStateException("residual resampling: the integer parts sum to "
                    + r.floorsBefore[nb] + " > " + points + " (rounding)");
        }
        return r;
    }

    /** n, the total number of offspring. */
    public long points() {
        return points;
    }

    /** R, the number of offspring left to draw from the residual weights. */
    public long residualPoints() {
        return residualPoints;
    }

    /** Σ⌊e⌋ over blocks before b. */
    public long floorsBefore(int b) {
        return floorsBefore[b];
    }

    /** Cumulative residual weight before block b. */
    public double offset(int b) {
        return offset[b];
    }

    /** Total residual weight. */
    public double total() {
        return offset[offset.length - 1];
    }
}
