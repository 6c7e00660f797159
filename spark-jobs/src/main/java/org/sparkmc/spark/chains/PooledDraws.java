package org.sparkmc.spark.chains;

import java.util.Arrays;
import java.util.List;

/**
 * The driver's copy of the sampling draws, [parameter][chain][iteration], grown by one block per round. The
 * rank-normalised diagnostics need every draw pooled across chains, so the driver holds 8·P·C·S bytes (P
 * parameters, C chains, S draws per chain): 8 chains × 10 parameters × 10,000 draws is 6.4 MB.
 */
final class PooledDraws {
    private final double[][][] draws;
    private int perChain;

    PooledDraws(int parameters, int chains) {
        draws = new double[parameters][chains][0];
    }

    /** Appends one round's draws of chain index {@code c} (0-based), given [parameter][iteration]. */
    void append(int c, double[][] block) {
        for (int p = 0; p < draws.length; p++) {
            double[] old = draws[p][c];
            double[] grown = Arrays.copyOf(old, old.length + block[p].length);
            System.arraycopy(block[p], 0, grown, old.length, block[p].length);
            draws[p][c] = grown;
        }
        perChain = draws.length == 0 ? 0 : draws[0][c].length;
    }

    /** Appends a round of every chain, in chain order. */
    void appendRound(List<double[][]> blocksInChainOrder) {
        for (int c = 0; c < blocksInChainOrder.size(); c++) {
            append(c, blocksInChainOrder.get(c));
        }
    }

    /** Draws of one parameter, [chain][iteration]. */
    double[][] parameter(int p) {
        return draws[p];
    }

    int perChain() {
        return perChain;
    }
}
