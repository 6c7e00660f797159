package org.sparkmc.spark.sync;

import java.io.IOException;
import java.io.Serializable;
import org.apache.spark.BarrierTaskContext;

/**
 * Where a barrier stage's tasks reach their {@link RoundRelay}, and how long they wait for a round's frames: what a
 * relayed task carries to connect ({@link #connect}).
 *
 * @param timeoutMillis how long a read may wait (a round's slowest partition, or the driver's answer, must fit)
 */
public record RelayAddress(String host, int port, int timeoutMillis) implements Serializable {
    /** Connects as {@code partition} of stage attempt {@code stageAttempt}. */
    public RoundClient connect(int partition, int stageAttempt) throws IOException {
        return new RoundClient(host, port, partition, stageAttempt, timeoutMillis);
    }

    /**
     * Connects as the barrier task {@code context} runs, if its stage attempt runs every partition's task. After an
     * executor is lost once a relayed stage has ended, Spark reruns only the tasks whose output it held (it reruns
     * every task of a barrier stage only when one fails while the stage runs), and such a task would wait for its
     * peers until the relay's timeout; it fails at once instead, and the job with it.
     *
     * @throws IllegalStateException for an attempt that runs only some of the stage's tasks
     */
    public RoundClient connect(BarrierTaskContext context) throws IOException {
        int running = context.getTaskInfos().length;
        if (running < context.numPartitions()) {
            throw new IllegalStateException("Spark reran " + running + " of the relayed stage's "
                    + context.numPartitions() + " tasks (an executor was lost after the stage ended, with its output), but a relayed stage "
                    + "needs all of them at once; run the job again (with --resume, when it has a --checkpoint)");
        }
        return connect(context.partitionId(), context.stageAttemptNumber());
    }

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
