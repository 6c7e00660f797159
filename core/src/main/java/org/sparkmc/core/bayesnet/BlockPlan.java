package org.sparkmc.core.bayesnet;

import java.io.Serializable;

/**
 * Splits n samples into blocks of a fixed size (the last one shorter): block b holds samples
 * [b·blockSize, min(n, (b+1)·blockSize)). Blocks, not partitions, own the random streams, so a distributed run
 * can group blocks into partitions however it likes and still draw the same samples.
 */
public record BlockPlan(long samples, long blockSize) implements Serializable {
    public BlockPlan {
        if (samples < 1) {
            throw new IllegalArgumentException("the number of samples must be positive, is " + samples);
        }
        if (blockSize < 1) {
            throw new IllegalArgumentException("the block size must be positive, is " + blockSize);
        }
    }

    /** The number of blocks, ⌈samples / blockSize⌉. */
    public long blocks() {
        return (samples - 1) / blockSize + 1;
    }

    /** The number of samples in block b. */
    public long samplesIn(long block) {
        if (block < 0 || block >= blocks()) {
            throw new IllegalArgumentException("block " + block + " is not in [0, " + blocks() + ")");
        }
        return Math.min(blockSize, samples - block * blockSize);
    }
}
