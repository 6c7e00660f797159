package org.sparkmc.core.consensus;

/**
 * The outcome of a check on the shards' draws before they are combined ({@link ShardDisagreement},
 * {@link ShardSkew}): the worst statistic over shards and coordinates against its threshold.
 *
 * @param warn       whether the largest statistic exceeds the threshold
 * @param largest    the largest statistic (0 when there is nothing to compare)
 * @param shard      the shard of the largest
 * @param coordinate the coordinate of the largest
 * @param threshold  the threshold
 * @param message    a line for the job's log: a warning when {@code warn}, else how close it came
 */
public record ShardCheck(boolean warn, double largest, int shard, int coordinate, double threshold,
        String message) {
}
