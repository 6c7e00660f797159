package org.sparkmc.spark.sync;

import java.io.IOException;
import java.io.Serializable;
import java.net.ConnectException;
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
     * Connects as the barrier task {@code context} runs, if its stage attempt runs every partition's task and the
     * relay is still there. Once a relayed stage has ended, the driver closes its relay; if Spark then loses the
     * stage's output (an executor lost with it) and reruns the stage, for the lost tasks only (after an executor loss)
     * or for all of them, its tasks can meet neither their peers nor the relay. Such a task fails at once, naming the
     * cause, and the job with it, where it would wait for its peers until the relay's timeout or fail with a bare
     * "connection refused".
     *
     * @throws IllegalStateException for an attempt that runs only some of the stage's tasks, or a later attempt that
     *     finds the relay closed
     */
    public RoundClient connect(BarrierTaskContext context) throws IOException {
        int running = context.getTaskInfos().length;
        if (running < context.numPartitions()) {
            throw new IllegalStateException("Spark reran " + running + " of the relayed stage's "
                    + context.numPartitions() + " tasks (an executor was lost after the stage ended, with its "
                    + "output), but a relayed stage needs all of them at once; " + AGAIN);
        }
        try {
            return connect(context.partitionId(), context.stageAttemptNumber());
        } catch (ConnectException e) {
            if (context.stageAttemptNumber() == 0) {
                throw e;
            }
            throw new IllegalStateException("Spark reran the relayed stage (attempt " + context.stageAttemptNumber()
                    + ") after its relay on the driver (" + this + ") had closed: its output was lost after the stage "
                    + "ended, and a relayed stage runs only while the driver relays it; " + AGAIN, e);
        }
    }

    /** What to do when a relayed stage cannot be rerun. */
    private static final String AGAIN = "run the job again (with --resume, when it has a --checkpoint), or give "
            + "--lineage-dir so that the stage's output survives a lost executor";

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
