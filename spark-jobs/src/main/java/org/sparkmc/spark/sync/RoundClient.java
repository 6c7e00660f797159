package org.sparkmc.spark.sync;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * A barrier task's side of a {@link RoundRelay}: per round it sends its frame and gets the other partitions' frames
 * back. Reads time out, so a task whose peers died fails instead of hanging.
 */
public final class RoundClient implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;

    /** Connects to the relay at {@code host:port} as {@code partition} of stage attempt {@code stageAttempt}. */
    public RoundClient(String host, int port, int partition, int stageAttempt, int timeoutMillis) throws IOException {
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
        out.writeInt(round);
        out.writeInt(frame.length);
        out.write(frame);
        out.flush();
        byte[][] others = new byte[in.readInt()][];
        for (int f = 0; f < others.length; f++) {
            others[f] = new byte[in.readInt()];
            in.readFully(others[f]);
        }
        return others;
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
