package org.sparkmc.core.smc;

import java.io.Serializable;

/**
 * One block's part of residual resampling's first pass: Σ⌊e_i⌋ and Σ(e_i − ⌊e_i⌋) (in index order) of the
 * expected offspring e_i = n·W_i of its particles. See {@link OffsetResampling#residualBlock}.
 */
public final class ResidualBlock implements Serializable {
    private static final long serialVersionUID = 1L;
    private int block;
    private long floorSum;
    private double residualSum;

    /** For serialization frameworks only. */
    public ResidualBlock() {
    }

    ResidualBlock(int block, long floorSum, double residualSum) {
        this.block = block;
        this.floorSum = floorSum;
        this.residualSum = residualSum;
    }

    /** The part whose accessors return these values (one read back from a relay frame). */
    public static ResidualBlock of(int block, long floorSum, double residualSum) {
        return new ResidualBlock(block, floorSum, residualSum);
    }

    public int block() {
        return block;
    }

    public long floorSum() {
        return floorSum;
    }

    public double residualSum() {
        return residualSum;
    }
}
