package org.sparkmc.spark.io;

/**
 * A piece of one parameter's draws from one chain: {@code values} are consecutive draws, and pieces of the same
 * (parameter, chain) are concatenated in {@code block} order (a round, or a file's position).
 */
public final class ChainSeries {
    private int parameter;
    private int chain;
    private int block;
    private double[] values;

    /** For serialization frameworks only. */
    public ChainSeries() {
    }

    public ChainSeries(int parameter, int chain, int block, double[] values) {
        this.parameter = parameter;
        this.chain = chain;
        this.block = block;
        this.values = values;
    }

    public int parameter() {
        return parameter;
    }

    public int chain() {
        return chain;
    }

    public int block() {
        return block;
    }

    public double[] values() {
        return values;
    }
}
