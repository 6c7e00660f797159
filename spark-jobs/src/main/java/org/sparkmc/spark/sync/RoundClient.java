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
import java.util.ArrayList;
import java.util.List;

/**
 * A barrier task's side of a {@link RoundRelay}: per round it sends its frame and gets the other partitions' frames
 * back. Reads time out, so a task whose peers died fails instead of hanging; while it waits for a round's frames it
 * also checks every {@link #CHECK_MILLIS} whether it should stop (Spark kills the other tasks of a barrier stage
 * whose task failed, without interrupting them), so a task whose peer failed before it connected does not hold its
 * slot, and Spark's retry of the stage, until the timeout. A frame larger than the sockets' buffers blocks its write
 * until the relay reads it, which it does not while it waits for a missing peer to connect: while a frame is written,
 * a watch thread runs the same check, and ends the write by closing the socket when the check throws or the timeout
 * passes; the task then fails with what the check threw or a {@link SocketTimeoutException}.
 */
public final class RoundClient implements AutoCloseable {
    /** How often a task waiting for a round's frames, or writing its own, runs its check. */
    static final int CHECK_MILLIS = 200;
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    private final int timeoutMillis;
    private final Runnable whileWaiting;
    /** Why the watch closed the socket during a write; set before it closes it, null while it has not. */
    private volatile Throwable stopped;

    /**
     * Connects to the relay at {@code host:port}, with its {@code token}, as {@code partition} of stage attempt
     * {@code stageAttempt}; runs
     * {@code whileWaiting} while it waits for a round's frames, and on the watch thread while it writes its own,
     * which stops the wait or the write by throwing (so it must be safe to run from another thread).
     */
    public RoundClient(String host, int port, long token, int partition, int stageAttempt, int timeoutMillis,
            Runnable whileWaiting) throws IOException {
        this.timeoutMillis = timeoutMillis;
        this.whileWaiting = whileWaiting;
        socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), timeoutMillis);
            socket.setSoTimeout(timeoutMillis);
            in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 1 << 16));
            out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 1 << 16));
            out.writeLong(token);
            out.writeInt(partition);
            out.writeInt(stageAttempt);
            out.flush();
        } catch (IOException | RuntimeException | Error e) { // a socket that fails to connect is not left open
            RoundRelay.closeOnFailure(socket, e);
            throw e;
        }
    }

    /** Sends this task's frame of {@code round}; returns the other partitions' frames in partition order. */
    public byte[][] exchange(int round, byte[] frame) throws IOException {
        whileWaiting.run(); // a task killed while it computed stops here, not after its remaining rounds
        try {
            send(round, frame);
            awaitReply();
            int count = in.readInt();
            if (count < 0) {
                throw new IOException("the relay sent a count of " + count + " frames");
            }
            // as many as come, not as many as a corrupt count says
            List<byte[]> others = new ArrayList<>(Math.min(count, 1 << 10));
            for (int f = 0; f < count; f++) {
                others.add(RoundRelay.readFrame(in, "the relay"));
            }
            return others.toArray(new byte[0][]);
        } catch (IOException e) {
            Throwable why = stopped; // the watch's reason, when it closed the socket, rethrown as it was thrown
            if (why == null) {
                throw e;
            }
            why.addSuppressed(e);
            if (why instanceof RuntimeException r) {
                throw r;
            }
            if (why instanceof Error r) {
                throw r;
            }
            throw (IOException) why;
        }
    }

    /** Writes the round's frame while a {@link WriteWatch} runs the check every {@link #CHECK_MILLIS}. */
    private void send(int round, byte[] frame) throws IOException {
        WriteWatch watch = new WriteWatch(timeoutMillis, whileWaiting, () -> "the relay did not take round " + round
                + "'s frame (" + frame.length + " bytes) within " + timeoutMillis + " ms", this::stop);
        try {
            out.writeInt(round);
            out.writeInt(frame.length);
            out.write(frame);
            out.flush();
        } finally {
            watch.end();
        }
    }

    /** Records why the write must end, then ends it by closing the socket. */
    private void stop(Throwable why) {
        stopped = why;
        try {
            socket.close();
        } catch (IOException e) {
            why.addSuppressed(e);
        }
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
