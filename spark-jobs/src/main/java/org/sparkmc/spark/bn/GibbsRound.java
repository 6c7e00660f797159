package org.sparkmc.spark.bn;

import java.io.Serializable;

/**
 * A Gibbs chain between rounds as shipped to and from executors: its id, its full state (one state index per
 * network variable) and, after a sampling round, the query variables' states after each sweep ({@code [q][t]};
 * empty otherwise), with the seconds its round took on the executor and the partition that ran it (0 and −1 before
 * its first round).
 */
public record GibbsRound(int chain, int[] state, int[][] draws, double seconds, int partition) implements Serializable {
    /** A chain at {@code state} that has not run a round (or whose round's draws and timing were taken). */
    static GibbsRound at(int chain, int[] state) {
        return new GibbsRound(chain, state, new int[0][], 0, -1);
    }
}
