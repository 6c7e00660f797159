package org.sparkmc.spark.sync;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * A barrier task's side of a {@link RoundRelay}: per round it sends its frame and gets the other partitions' frames
 * back. Reads time out, so a task whose peers died fails instead of hanging; while it waits for a round's frames it
 * also checks every {@link #CHECK_MILLIS} whether it should stop (Spark kills the other tasks of a barrier stage
 * whose task failed, without interrupting them), so a task whose peer failed before it connected does not hold its
 * slot, and Spark's retry of the stage, until the timeout.
 */
public final class RoundClient implements AutoCloseable {
    /** How often a task waiting for a round's frames runs its check. */
    static final int CHECK_MILLIS = 200;
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    private final int timeoutMillis;
    private final Runnable whileWaiting;

    /**
     * Connects to the relay at {@code host:port} as {@code partition} of stage attempt {@code stageAttempt}; runs
     * {@code whileWaiting} while it waits for a round's frames, which stops the wait by throwing.
     */
    public RoundClient(String host, int port, int partition, int stageAttempt, int timeoutMillis,
            Runnable whileWaiting) throws IOException {
        this.timeoutMillis = timeoutMillis;
        this.whileWaiting = whileWaiting;
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress(host, port), timeoutMillis);
        socket.setSoTimeout(timeoutMillis);
        in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 1 << 16));
        out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 1 << 16));
        out.writeInt(partition);
        out.writeInt(stageAttempt);
        out.flush();
    }

    /** Sends this task's frame of {@code round}; returns the other partitions' frames in partition order. */
    public byte[][] exchange(int round, byte[] frame) throws IOException {
        whileWaiting.run(); // a task killed while it computed stops here, not after its remaining rounds
        out.writeInt(round);
        out.writeInt(frame.length);
        out.write(frame);
        out.flush();
        awaitReply();
        byte[][] others = new byte[in.readInt()][];
        for (int f = 0; f < others.length; f++) {
            others[f] = new byte[in.readInt()];
            in.readFully(others[f]);
        }
        return others;
    }

    /**
     * Waits until the reply's first byte has come (without consuming it), running {@code whileWaiting} between
     * short reads, and for at most the timeout. The frames are then read with the whole timeout, so a short read
     * never ends in the middle of one.
     */
    private void awaitReply() throws IOException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        socket.setSoTimeout(Math.min(CHECK_MILLIS, timeoutMillis));
        try {
            while (true) {
                in.mark(1);
                try {
                    if (in.read() < 0) {
                        throw new EOFException("the relay closed the connection");
                    }
                    in.reset();
                    return;
                } catch (SocketTimeoutException e) {
                    whileWaiting.run();
                    if (System.nanoTime() - deadline > 0) {
                        throw e;
                    }
                }
            }
        } finally {
            socket.setSoTimeout(timeoutMillis);
        }
    }

    /** Tells the relay this task has done all its rounds. */
    public void done() throws IOException {
        out.writeInt(RoundRelay.DONE);
        out.flush();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
