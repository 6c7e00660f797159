package org.sparkmc.spark.smc;

import org.apache.spark.Partitioner;

/**
 * Places particle blocks on Spark partitions as contiguous runs of whole blocks of (as nearly as possible) equal
 * length: partition p owns blocks [⌊p·B/P⌋, ⌊(p+1)·B/P⌋) — the same slices {@code parallelize} makes of the block
 * indices. Where a block lives never changes a number; it only keeps partitions equal in size after resampling.
 */
public final class BlockPartitioner extends Partitioner {
    private static final long serialVersionUID = 1L;

    private final int partitions;
    private final int blocks;

    public BlockPartitioner(int partitions, int blocks) {
        if (partitions < 1 || blocks < partitions) {
            throw new IllegalArgumentException(partitions + " partitions for " + blocks + " blocks");
        }
        this.partitions = partitions;
        this.blocks = blocks;
    }

    @Override
    public int numPartitions() {
        return partitions;
    }

    /** The number of blocks B. */
    public int blocks() {
        return blocks;
    }

    /** The first block of partition p. */
    public int firstBlock(int p) {
        return (int) ((long) p * blocks / partitions);
    }

    @Override
    public int getPartition(Object key) {
        int b = (Integer) key;
        if (b < 0 || b >= blocks) {
            throw new IllegalArgumentException("block " + b + " outside [0, " + blocks + ")");
        }
        // the smallest p with ⌊(p+1)·B/P⌋ > b, i.e. p = ⌈(b+1)·P/B⌉ − 1
        return (int) (((long) (b + 1) * partitions + blocks - 1) / blocks) - 1;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BlockPartitioner p && p.partitions == partitions && p.blocks == blocks;
    }

    @Override
    public int hashCode() {
        return 31 * partitions + blocks;
    }
}
