package org.sparkmc.spark.bn;

import java.io.Serializable;

/**
 * A Gibbs chain between rounds as shipped to and from executors: its id, its full state (one state index per
 * network variable) and, after a sampling round, the query variables' states after each sweep ({@code [q][t]};
 * empty otherwise).
 */
public record GibbsRound(int chain, int[] state, int[][] draws) implements Serializable {
}
