package org.sparkmc.spark.sync;

import java.io.IOException;
import java.io.Serializable;
import java.net.ConnectException;
import org.apache.spark.BarrierTaskContext;

/**
 * Where a barrier stage's tasks reach their {@link RoundRelay}, how long they wait for a round's frames, and the
 * relay's token: what a relayed task carries to connect ({@link #connect}).
 *
 * @param timeoutMillis how long a read may wait (a round's slowest partition, or the driver's answer, must fit)
 * @param token the random number a task's hello must carry: the relay drops a connection without it, so that only the
 *     stage's own tasks (which get it with their closure) can send it frames, which the driver decodes
 */
public record RelayAddress(String host, int port, int timeoutMillis, long token) implements Serializable {
    /**
     * Connects as {@code partition} of stage attempt {@code stageAttempt}; {@code whileWaiting} runs while the task
     * waits for a round's frames or writes its own (during a write, on the watch thread, so it must be safe to run
     * from another thread), and stops the wait or the write by throwing (see {@link RoundClient}).
     */
    public RoundClient connect(int partition, int stageAttempt, Runnable whileWaiting) throws IOException {
        return new RoundClient(host, port, token, partition, stageAttempt, timeoutMillis, whileWaiting);
    }

    /**
     * Connects as the barrier task {@code context} runs, if its stage attempt runs every partition's task and the
     * relay can be reached. Once a relayed stage has ended, the driver closes its relay; if Spark then reruns the
     * stage (its output lost with an executor), for the lost tasks only or for all of them, its tasks can meet
     * neither their peers nor the relay. Such a task fails at once, naming the cause, where it would wait for its
     * peers until the relay's timeout or fail with a bare "connection refused". A relay refused for another reason
     * (not reachable from this executor) gets the same message, which names both causes.
     *
     * @throws IllegalStateException for an attempt that runs only some of the stage's tasks, or a relay that refuses
     *     the connection
     */
    public RoundClient connect(BarrierTaskContext context) throws IOException {
        int running = context.getTaskInfos().length;
        if (running < context.numPartitions()) {
            throw new IllegalStateException("Spark reran " + running + " of the relayed stage's "
                    + context.numPartitions() + " tasks (an executor was lost after the stage ended, with its "
                    + "output), but a relayed stage needs all of them at once; " + AGAIN);
        }
        try {
            return connect(context.partitionId(), context.stageAttemptNumber(), context::killTaskIfInterrupted);
        } catch (ConnectException e) {
            throw new IllegalStateException("the relayed stage's task (attempt " + context.stageAttemptNumber()
                    + ") cannot reach its relay on the driver at " + this + " (" + e.getMessage() + "): the relay has "
                    + "closed if Spark reran the stage after it ended (its output lost with an executor), or it cannot "
                    + "be reached from this executor (see spark.driver.host and spark.driver.bindAddress); " + AGAIN,
                    e);
        }
    }

    /** What to do when a relayed stage cannot be run or rerun. */
    private static final String AGAIN = "run the job again (with --resume, when it has a --checkpoint)";

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
