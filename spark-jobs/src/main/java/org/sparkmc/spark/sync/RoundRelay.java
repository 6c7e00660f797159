package org.sparkmc.spark.sync;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.spark.SparkConf;
import org.sparkmc.core.InvalidInputException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The driver's side of a barrier stage whose tasks synchronise once per round without a Spark job per round: a TCP
 * relay. Every task of the stage connects once ({@link RoundClient}: the relay's token, its partition and stage
 * attempt; a connection without the token is dropped, so no other host can send the driver frames); then, per
 * round, each sends one frame, the relay waits for every partition's frame of that round, sends each task the other
 * partitions' frames (in partition order) and hands all of them to the driver ({@link #next}). It is a barrier that
 * carries data, and it costs a few milliseconds where a Spark job per round costs tens and Spark's
 * {@code BarrierTaskContext.allGather} about a second.
 *
 * <p>A relay {@linkplain #toDriver to the driver} carries only what the tasks send it, when the tasks are
 * independent (the {@code chains} job's chains): their frames of a round go to the driver alone, and each task gets
 * back the driver's {@linkplain #answer answer} for that round instead of its peers' frames. The driver's answer may
 * lag one round behind: it can answer round r from what it read of round r − 1 while the tasks work on round r.
 *
 * <p>A retried stage attempt (Spark reruns every task of a failed barrier stage) replaces the older attempt's
 * connections and starts again at round 0; its rounds reach the driver again, and the driver skips those it has.
 * Reads time out after {@code timeoutMillis}, and so do the writes of a round's replies (a task that stopped reading
 * would block them), and a failed attempt's sockets are closed, so a lost task fails its peers instead of hanging
 * them. One thread serves the partitions in turn: the tasks write before they read.
 */
public final class RoundRelay implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(RoundRelay.class);
    /** The round tag that ends an attempt. */
    static final int DONE = -1;
    /**
     * The Spark setting of how long a task or the relay waits for a round's frames (the slowest partition's step, or
     * the driver's answer, must fit), as a Spark time ({@code 30min}, {@code 2h}); it bounds the writes of a task's
     * frame and of the relay's replies too.
     */
    public static final String TIMEOUT_SETTING = "spark.sparkmc.relay.timeout";
    /** Its default: 30 minutes. */
    public static final String TIMEOUT_DEFAULT = "30min";

    /**
     * One relayed round.
     *
     * @param round its number in the attempt, from 0
     * @param frames every partition's frame, by partition
     * @param relayedNanos {@link System#nanoTime()} when every task's frame had come
     */
    public record Round(int round, byte[][] frames, long relayedNanos) {
        /** The bytes the partitions sent in this round. */
        public long bytes() {
            long sum = 0;
            for (byte[] f : frames) {
                sum += f.length;
            }
            return sum;
        }
    }

    private final ServerSocket server;
    private final String host;
    /** The number a task's hello must carry ({@link RelayAddress#token}). */
    private final long token = new SecureRandom().nextLong();
    private final int partitions;
    private final int timeoutMillis;
    private final BlockingQueue<Round> rounds = new LinkedBlockingQueue<>();
    /** The connections of the attempt being relayed, closed with the relay. */
    private volatile Connection[] live;
    /** The driver's answers by round, kept for a retried attempt's replay; null for a relay among the tasks. */
    private final List<byte[]> answers;
    /** What ended the relay's thread other than a failed attempt (an {@link Error}); null while it serves. */
    private volatile Throwable failure;
    /** How long the relay waits for a connection's hello: tasks send it at once, and the accept loop waits on it. */
    static final int HELLO_MILLIS = 60_000;
    /** The longest frame read into an array of its length at once (see {@link #readFrame}). */
    static final int FRAME_BYTES_AT_ONCE = 1 << 24;

    /**
     * Listens on an ephemeral port of {@code bindHost} for the {@code partitions} tasks of a stage, which reach it at
     * {@code host}.
     *
     * @param timeoutMillis how long a read may wait for a task's frame (a round's slowest step must fit), and the
     *     writes of a round's replies may take
     */
    private RoundRelay(String host, String bindHost, int partitions, int timeoutMillis, boolean answered)
            throws IOException {
        this.host = host;
        this.answers = answered ? new ArrayList<>() : null;
        this.partitions = partitions;
        this.timeoutMillis = timeoutMillis;
        this.server = new ServerSocket();
        try {
            server.setReuseAddress(true);
            server.bind(new InetSocketAddress(bindHost, 0));
            Thread thread = new Thread(this::serve, "sparkmc-round-relay");
            thread.setDaemon(true);
            thread.start();
        } catch (IOException | RuntimeException | Error e) { // a socket that fails to bind is not left open
            closeOnFailure(server, e);
            throw e;
        }
    }

    /**
     * A relay for a stage of {@code partitions} tasks on the driver of {@code conf}: bound where Spark's driver binds
     * ({@code spark.driver.bindAddress}), reached where executors reach the driver ({@code spark.driver.host}).
     */
    public static RoundRelay onDriver(SparkConf conf, int partitions) throws IOException {
        return onDriver(conf, partitions, false);
    }

    /**
     * As {@link #onDriver(SparkConf, int)}, for tasks that send their frames to the driver alone and get back its
     * {@linkplain #answer answer} to each round.
     */
    public static RoundRelay toDriver(SparkConf conf, int partitions) throws IOException {
        return onDriver(conf, partitions, true);
    }

    private static RoundRelay onDriver(SparkConf conf, int partitions, boolean answered) throws IOException {
        String host = conf.get("spark.driver.host");
        return new RoundRelay(host, conf.get("spark.driver.bindAddress", host), partitions, timeoutMillis(conf),
                answered);
    }

    /**
     * {@link #TIMEOUT_SETTING} of {@code conf}, in milliseconds.
     *
     * @throws InvalidInputException when it is not a positive Spark time of at most about 24 days
     */
    static int timeoutMillis(SparkConf conf) {
        String value = conf.get(TIMEOUT_SETTING, TIMEOUT_DEFAULT);
        long millis;
        try {
            millis = conf.getTimeAsMs(TIMEOUT_SETTING, TIMEOUT_DEFAULT);
        } catch (RuntimeException e) {
            millis = -1;
        }
        if (millis <= 0 || millis > Integer.MAX_VALUE) {
            throw new InvalidInputException(TIMEOUT_SETTING + " must be a positive time such as 30min or 2h, at most "
                    + "24 days, is '" + value + "'");
        }
        return (int) millis;
    }

    /** Where the tasks reach this relay, with its read timeout. */
    public RelayAddress address() {
        return new RelayAddress(host, server.getLocalPort(), timeoutMillis, token);
    }

    /**
     * The driver's answer to {@code round} of a relay {@linkplain #toDriver to the driver}, which every task gets back
     * once all have sent their frames of that round. Answers come in round order, from round 0.
     *
     * @throws IllegalStateException for a relay among the tasks, or an answer out of order
     */
    public void answer(int round, byte[] frame) {
        if (answers == null) {
            throw new IllegalStateException("a relay among the tasks takes no answer from the driver");
        }
        synchronized (answers) {
            if (round != answers.size()) {
                throw new IllegalStateException("the answer to round " + round + " after " + answers.size()
                        + " answers");
            }
            answers.add(frame);
            answers.notifyAll();
        }
    }

    /** The driver's answer to {@code round}, once given; fails when the relay closes or time runs out first. */
    private byte[] answerTo(int round) throws IOException {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        synchronized (answers) {
            while (answers.size() <= round) {
                long left = (deadline - System.nanoTime()) / 1_000_000L;
                if (server.isClosed() || left <= 0) {
                    throw new IOException("no answer from the driver to round " + round);
                }
                try {
                    answers.wait(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while waiting for the driver's answer to round " + round, e);
                }
            }
            return answers.get(round);
        }
    }

    /**
     * The next relayed round, or null when none came within {@code millis}.
     *
     * @throws IllegalStateException once the relay's thread has failed ({@link Error}: out of memory, say)
     */
    public Round next(long millis) throws InterruptedException {
        Round round = rounds.poll(millis, TimeUnit.MILLISECONDS);
        if (round == null && failure != null) {
            throw new IllegalStateException("the round relay failed: " + failure, failure);
        }
        return round;
    }

    private void serve() {
        while (!server.isClosed()) {
            Connection[] attempt = null;
            try {
                attempt = accept();
                live = attempt;
                if (server.isClosed()) { // closed while the attempt connected: close() may have missed it
                    return;
                }
                relay(attempt);
            } catch (IOException | RuntimeException e) {
                if (!server.isClosed()) {
                    LOG.info("round relay: a stage attempt ended early ({}); waiting for its retry", e.toString());
                }
            } catch (Error e) { // closed at once: the tasks, and a retry's, fail now, not after the timeout
                failure = e;
                LOG.error("round relay: failed; the stage cannot go on", e);
                try {
                    close();
                } catch (IOException closing) {
                    e.addSuppressed(closing);
                }
                return;
            } finally {
                if (attempt != null) {
                    closeAll(attempt);
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
            Socket socket;
            try {
                socket = server.accept();
            } catch (SocketException e) {
                for (Connection old : byPartition) {
                    if (old != null) {
                        old.close();
                    }
                }
                throw e;
            }
            Connection c;
            try {
                c = new Connection(socket, timeoutMillis, token);
            } catch (IOException e) { // no hello, a cut one or a wrong token: this connection alone is dropped
                LOG.info("round relay: a connection from {} sent no hello ({}); dropped",
                        socket.getRemoteSocketAddress(), e.toString());
                Connection.close(socket);
                continue;
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
        for (int expected = 0; ; expected++) {
            byte[][] frames = new byte[partitions][];
            for (int p = 0; p < partitions; p++) {
                int round = conns[p].in.readInt();
                if (round == DONE && p == 0) {
                    for (int q = 1; q < partitions; q++) {
                        if (conns[q].in.readInt() != DONE) {
                            throw new IOException("partition " + q + " did not finish with partition 0");
                        }
                    }
                    return;
                }
                if (round != expected) {
                    throw new IOException("partition " + p + " sent round " + round + ", expected " + expected);
                }
                frames[p] = readFrame(conns[p].in, conns[p]);
            }
            if (answers != null) {
                rounds.add(new Round(expected, frames, System.nanoTime()));
                reply(conns, expected, frames, answerTo(expected));
                continue;
            }
            // Queued for the driver before the tasks get the frames: once they have them, the stage may end at
            // any moment, and the driver, seeing it ended, must find every round it ran.
            rounds.add(new Round(expected, frames, System.nanoTime()));
            reply(conns, expected, frames, null);
        }
    }

    /**
     * Sends every task its reply to {@code round}: the driver's {@code answer} or, when null, the other partitions'
     * {@code frames}. A task that stops reading would block the write once the sockets' buffers are full, and a
     * socket's timeout bounds only reads: the replies must all be written within the timeout, or a
     * {@link WriteWatch} closes the attempt's sockets and the attempt ends, naming the task.
     */
    private void reply(Connection[] conns, int round, byte[][] frames, byte[] answer) throws IOException {
        WriteWatch watch = new WriteWatch(timeoutMillis, () -> { }, () -> "round " + round + "'s replies",
                why -> closeAll(conns));
        int p = 0;
        IOException failed = null;
        try {
            for (; p < partitions; p++) {
                DataOutputStream out = conns[p].out;
                if (answer != null) {
                    out.writeInt(1);
                    out.writeInt(answer.length);
                    out.write(answer);
                } else {
                    out.writeInt(partitions - 1);
                    for (int q = 0; q < partitions; q++) {
                        if (q != p) {
                            out.writeInt(frames[q].length);
                            out.write(frames[q]);
                        }
                    }
                }
                out.flush();
            }
        } catch (IOException e) {
            failed = e;
        }
        if (watch.end() != null) { // the task being written to when the time ran out (the last one, had it ended)
            IOException timedOut = new SocketTimeoutException(conns[Math.min(p, partitions - 1)] + " did not take "
                    + "its reply to round " + round + " within " + timeoutMillis + " ms");
            if (failed != null) {
                timedOut.initCause(failed);
            }
            throw timedOut;
        }
        if (failed != null) {
            throw failed;
        }
    }

    /**
     * Reads a frame's length and bytes from {@code in}, which {@code from} sends. A frame up to
     * {@link #FRAME_BYTES_AT_ONCE} is read into an array of its length; a longer one into one that grows as its bytes
     * come (to at most twice what has come), so that a corrupt length fails as a stream that ends too soon, not as an
     * array of gigabytes.
     */
    static byte[] readFrame(DataInputStream in, Object from) throws IOException {
        int length = in.readInt();
        if (length < 0) {
            throw new IOException(from + " sent a frame of " + length + " bytes");
        }
        byte[] frame = new byte[Math.min(length, FRAME_BYTES_AT_ONCE)];
        try {
            in.readFully(frame);
            while (frame.length < length) {
                int read = frame.length;
                frame = Arrays.copyOf(frame, (int) Math.min(length, 2L * read));
                in.readFully(frame, read, frame.length - read);
            }
        } catch (EOFException e) {
            throw (EOFException) new EOFException(from + " sent a frame of " + length + " bytes, but its stream "
                    + "ended first").initCause(e);
        }
        return frame;
    }

    @Override
    public void close() throws IOException {
        server.close();
        Connection[] attempt = live;
        if (attempt != null) { // tasks waiting for a round's frames fail now, not after the read timeout
            closeAll(attempt);
        }
        if (answers != null) {
            synchronized (answers) {
                answers.notifyAll(); // a relay thread waiting for an answer gives up
            }
        }
    }

    private static void closeAll(Connection[] attempt) {
        for (Connection c : attempt) {
            c.close();
        }
    }

    /** Closes what a constructor opened before it failed with {@code failure}, to which a failure to close is added. */
    static void closeOnFailure(Closeable opened, Throwable failure) {
        try {
            opened.close();
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }

    /** One task's socket, after its hello. */
    private static final class Connection {
        final Socket socket;
        final DataInputStream in;
        final DataOutputStream out;
        final int partition;
        final int stageAttempt;

        Connection(Socket socket, int timeoutMillis, long token) throws IOException {
            this.socket = socket;
            socket.setSoTimeout(Math.min(timeoutMillis, HELLO_MILLIS));
            socket.setTcpNoDelay(true);
            in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 1 << 16));
            out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream(), 1 << 16));
            if (in.readLong() != token) {
                throw new IOException("a hello without the relay's token");
            }
            partition = in.readInt();
            stageAttempt = in.readInt();
            socket.setSoTimeout(timeoutMillis);
        }

        void close() {
            close(socket);
        }

        /** The task, for messages: its partition and where it connects from. */
        @Override
        public String toString() {
            return "partition " + partition + " (" + socket.getRemoteSocketAddress() + ")";
        }

        static void close(Socket socket) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
