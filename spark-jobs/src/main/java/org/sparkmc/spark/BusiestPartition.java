package org.sparkmc.spark;

import java.util.HashMap;
import java.util.Map;

/**
 * A step's compute time, the critical path of its Spark job: the pieces of one partition (blocks, chains) run in
 * turn in its task, so their seconds add up per partition, and the step waits for the busiest partition.
 */
public final class BusiestPartition {
    private final Map<Integer, Double> seconds = new HashMap<>();

    /** Counts {@code pieceSeconds} of work done in partition {@code partition}. */
    public void add(int partition, double pieceSeconds) {
        seconds.merge(partition, pieceSeconds, Double::sum);
    }

    /** The largest per-partition sum, or 0 when nothing was added. */
    public double seconds() {
        return seconds.values().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    }
}
