package org.sparkmc.spark.sync;

import java.io.IOException;
import java.io.Serializable;

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

    @Override
    public String toString() {
        return host + ":" + port;
    }
}
