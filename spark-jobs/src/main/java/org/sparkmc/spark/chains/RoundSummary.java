package org.sparkmc.spark.chains;

/**
 * The figures logged after one round: which round and phase, the sampling draws per chain so far, the worst R-hat
 * and ESS over parameters (NaN in warm-up), the round's acceptance rate and its draws per second.
 */
public record RoundSummary(int round, String phase, int drawsPerChain, double maxRhat, double minEssBulk,
        double minEssTail, double acceptance, double seconds, double drawsPerSecond) {
}
