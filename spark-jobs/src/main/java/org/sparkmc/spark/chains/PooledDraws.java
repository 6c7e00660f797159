package org.sparkmc.spark.chains;

import java.util.Arrays;
import java.util.List;

/**
 * The driver's copy of the sampling draws, [parameter][chain][iteration], one instance per round: appending a round
 * gives a new copy and leaves this one as it was, so a round's diagnostics can still read it while the next round is
 * appended. The rank-normalised diagnostics need every draw pooled across chains, so the driver holds 8·P·C·S bytes
 * (P parameters, C chains, S draws per chain): 8 chains × 10 parameters × 10,000 draws is 6.4 MB.
 */
final class PooledDraws {
    private final double[][][] draws;

    /** No draw yet. */
    PooledDraws(int parameters, int chains) {
        draws = new double[parameters][chains][0];
    }

    private PooledDraws(double[][][] draws) {
        this.draws = draws;
    }

    /** These draws and one more round of every chain, in chain order, each given [parameter][iteration]. */
    PooledDraws appended(List<double[][]> blocksInChainOrder) {
        double[][][] grown = new double[draws.length][][];
        for (int p = 0; p < draws.length; p++) {
            grown[p] = new double[draws[p].length][];
            for (int c = 0; c < draws[p].length; c++) {
                double[] old = draws[p][c];
                double[] block = blocksInChainOrder.get(c)[p];
                grown[p][c] = Arrays.copyOf(old, old.length + block.length);
                System.arraycopy(block, 0, grown[p][c], old.length, block.length);
            }
        }
        return new PooledDraws(grown);
    }

    /** Draws of one parameter, [chain][iteration]; not to be changed. */
    double[][] parameter(int p) {
        return draws[p];
    }
}
