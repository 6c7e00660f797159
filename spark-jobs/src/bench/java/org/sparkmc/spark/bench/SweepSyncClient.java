package org.sparkmc.spark.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import org.sparkmc.core.lda.TopicWordDelta;

/**
 * A barrier task's side of {@link SweepSyncServer}: sends its blocks' deltas for a round, receives the other
 * tasks' and returns every block's deltas of that round in block order (0..B−1). Reads time out, so a task whose
 * peers died fails instead of hanging.
 */
final class SweepSyncClient implements AutoCloseable {
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;
    private final String encoding;

    SweepSyncClient(String host, int port, int partition, int stageAttempt, int timeoutMillis, String encoding)
            throws IOException {
        this.encoding = encoding;
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

    /** Sends this task's deltas for {@code round}; returns all {@code numBlocks} blocks' deltas in block order. */
    List<TopicWordDelta> exchange(int round, int[] blockIds, List<TopicWordDelta> deltas, int numBlocks)
            throws IOException {
        byte[] frame = DeltaFrames.encode(encoding, blockIds, deltas);
        out.writeInt(round);
        out.writeInt(frame.length);
        out.write(frame);
        out.flush();
        int frames = in.readInt();
        SortedMap<Integer, TopicWordDelta> byBlock = new TreeMap<>();
        for (int i = 0; i < blockIds.length; i++) {
            byBlock.put(blockIds[i], deltas.get(i));
        }
        for (int f = 0; f < frames; f++) {
            byte[] bytes = new byte[in.readInt()];
            in.readFully(bytes);
            DeltaFrames.decode(bytes, byBlock);
        }
        if (byBlock.size() != numBlocks || byBlock.firstKey() != 0 || byBlock.lastKey() != numBlocks - 1) {
            throw new IOException("round " + round + ": got blocks " + byBlock.keySet() + ", expected 0.."
                    + (numBlocks - 1));
        }
        return new ArrayList<>(byBlock.values());
    }

    /** Tells the server this task has done all its rounds. */
    void done() throws IOException {
        out.writeInt(SweepSyncServer.DONE);
        out.flush();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
