package org.sparkmc.spark.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;

/**
 * The driver side of a barrier stage's per-sweep synchronisation: a blocking TCP relay on the driver. Every task
 * connects once ({@code hello}: partition, stage attempt); then, per round, each sends one frame tagged with the
 * round number, and the server waits for all partitions' frames of that round and sends every task the other
 * partitions' frames (in partition order) — a barrier that carries data. Round {@link #DONE} ends an attempt.
 * Reads time out after {@code timeoutMillis}, and a failed attempt's sockets are closed, so a lost task cannot hang
 * the run; connections of a newer stage attempt replace an older one's (the barrier stage's retry reruns every
 * task).
 *
 * <p>Frames are opaque bytes here (see {@link DeltaFrames}). One thread serves the partitions in turn: the tasks
 * write before they read, so nothing deadlocks.
 */
final class SweepSyncServer implements AutoCloseable {
    /** The round tag that ends an attempt. */
    static final int DONE = -1;

    private final ServerSocket server;
    private final int partitions;
    private final int timeoutMillis;
    private final Thread thread;
    /** System.nanoTime() when each round of the last attempt had been relayed (index = round). */
    private final List<Long> roundRelayed = new ArrayList<>();
    /** Bytes of all partitions' frames of each round of the last attempt. */
    private final List<Long> roundBytes = new ArrayList<>();
    private volatile long relayNanos;

    SweepSyncServer(String bindHost, int partitions, int timeoutMillis) throws IOException {
        this.partitions = partitions;
        this.timeoutMillis = timeoutMillis;
        this.server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(bindHost, 0));
        thread = new Thread(this::serve, "sweep-sync-server");
        thread.setDaemon(true);
        thread.start();
    }

    int port() {
        return server.getLocalPort();
    }

    /** Relay end times of the last attempt's rounds (round 0 = the initial counts, round s + 1 = sweep s). */
    synchronized long[] roundTimes() {
        return roundRelayed.stream().mapToLong(Long::longValue).toArray();
    }

    /** Bytes of all partitions' frames in each round of the last attempt. */
    synchronized long[] roundBytes() {
        return roundBytes.stream().mapToLong(Long::longValue).toArray();
    }

    /** Total time spent writing the relayed frames back to the tasks. */
    long relayNanos() {
        return relayNanos;
    }

    private void serve() {
        while (!server.isClosed()) {
            Connection[] attempt = null;
            try {
                attempt = accept();
                synchronized (this) {
                    roundRelayed.clear();
                    roundBytes.clear();
                }
                relay(attempt);
            } catch (IOException | RuntimeException e) {
                if (!server.isClosed()) {
                    System.err.println("sweep-sync: attempt abandoned: " + e);
                }
            } finally {
                if (attempt != null) {
                    for (Connection c : attempt) {
                        if (c != null) {
                            c.close();
                        }
                    }
                }
            }
        }
    }

    /** Waits until every partition of one stage attempt (the newest seen) has connected. */
    private Connection[] accept() throws IOException {
        Connection[] byPartition = new Connection[partitions];
        int attempt = -1;
        int connected = 0;
        while (connected < partitions) {
            Connection c;
            try {
                c = new Connection(server.accept(), timeoutMillis);
            } catch (SocketException e) {
                for (Connection old : byPartition) {
                    if (old != null) {
                        old.close();
                    }
                }
                throw e;
            }
            if (c.stageAttempt < attempt || c.partition < 0 || c.partition >= partitions) {
                c.close();
                continue;
            }
            if (c.stageAttempt > attempt) {
                for (int p = 0; p < partitions; p++) {
                    if (byPartition[p] != null) {
                        byPartition[p].close();
                        byPartition[p] = null;
                    }
                }
                connected = 0;
                attempt = c.stageAttempt;
            }
            if (byPartition[c.partition] != null) {
                byPartition[c.partition].close();
                connected--;
            }
            byPartition[c.partition] = c;
            connected++;
        }
        return byPartition;
    }

    private void relay(Connection[] conns) throws IOException {
        byte[][] frames = new byte[partitions][];
        for (int expected = 0; ; expected++) {
            for (int p = 0; p < partitions; p++) {
                int round = conns[p].in.readInt();
                if (round != expected && round != DONE) {
                    throw new IOException("partition " + p + " sent round " + round + ", expected " + expected);
                }
                if (round == DONE) {
                    if (p != 0) {
                        throw new IOException("partition " + p + " finished at round " + expected + ", others did not");
                    }
                    for (int q = 1; q < partitions; q++) {
                        if (conns[q].in.readInt() != DONE) {
                            throw new IOException("partition " + q + " did not finish with partition 0");
                        }
                    }
                    return;
                }
                frames[p] = new byte[conns[p].in.readInt()];
                conns[p].in.readFully(frames[p]);
            }
            long t0 = System.nanoTime();
            for (int p = 0; p < partitions; p++) {
                DataOutputStream out = conns[p].out;
                out.writeInt(partitions - 1);
                for (int q = 0; q < partitions; q++) {
                    if (q != p) {
                        out.writeInt(frames[q].length);
                        out.write(frames[q]);
                    }
                }
                out.flush();
            }
            long t1 = System.nanoTime();
            relayNanos += t1 - t0;
            synchronized (this) {
                roundRelayed.add(t1);
                roundBytes.add(java.util.Arrays.stream(frames).mapToLong(f -> f.length).sum());
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }

    /** One task's socket, after its hello. */
    private static final class Connection {
        final Socket socket;
        final DataInputStream in;
        final DataOutputStream out;
        final int partition;
        final int stageAttempt;

        Connection(Socket socket, int timeoutMillis) throws IOException {
            this.socket = socket;
            socket.setSoTimeout(timeoutMillis);
            socket.setTcpNoDelay(true);
            in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 1 << 16));
            out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 1 << 16));
            partition = in.readInt();
            stageAttempt = in.readInt();
        }

        void close() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
