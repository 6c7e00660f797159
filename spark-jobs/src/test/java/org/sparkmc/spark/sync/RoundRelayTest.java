package org.sparkmc.spark.sync;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A relay to the driver: the tasks' frames of a round reach the driver alone, every task gets back the driver's
 * answer to that round once all have sent theirs, and a retried attempt replays the same answers.
 */
@Timeout(60)
class RoundRelayTest {
    private static final SparkConf LOOPBACK = new SparkConf(false).set("spark.driver.host", "127.0.0.1");

    @Test
    void tasksSendToTheDriverAndGetItsAnswers() throws Exception {
        try (RoundRelay relay = RoundRelay.toDriver(LOOPBACK, 2)) {
            relay.answer(0, new byte[] {10});
            List<CompletableFuture<List<byte[]>>> tasks = List.of(task(relay, 0, 0, 3), task(relay, 1, 0, 3));
            for (int r = 0; r < 3; r++) {
                RoundRelay.Round round = relay.next(30_000);
                assertEquals(r, round.round());
                assertArrayEquals(new byte[] {0, (byte) r}, round.frames()[0]);
                assertArrayEquals(new byte[] {1, (byte) r}, round.frames()[1]);
                relay.answer(r + 1, new byte[] {(byte) (11 + r)}); // the answer to the next round, lagging one
            }
            for (CompletableFuture<List<byte[]>> task : tasks) {
                List<byte[]> answers = task.get();
                for (int r = 0; r < 3; r++) {
                    assertArrayEquals(new byte[] {(byte) (10 + r)}, answers.get(r), "round " + r);
                }
            }

            // a retried attempt replays its rounds, and gets the answers already given
            List<CompletableFuture<List<byte[]>>> retried = List.of(task(relay, 0, 1, 2), task(relay, 1, 1, 2));
            for (CompletableFuture<List<byte[]>> task : retried) {
                assertArrayEquals(new byte[] {11}, task.get().get(1));
            }
        }
    }

    @Test
    void answersComeInOrderAndOnlyToARelayToTheDriver() throws Exception {
        try (RoundRelay relay = RoundRelay.toDriver(LOOPBACK, 1)) {
            assertThrows(IllegalStateException.class, () -> relay.answer(1, new byte[] {1}));
            relay.answer(0, new byte[] {1});
            assertThrows(IllegalStateException.class, () -> relay.answer(0, new byte[] {1}));
        }
        try (RoundRelay relay = RoundRelay.onDriver(LOOPBACK, 1)) {
            assertThrows(IllegalStateException.class, () -> relay.answer(0, new byte[] {1}));
        }
    }

    @Test
    void aTaskWaitingForAnAnswerFailsWhenTheRelayCloses() throws Exception {
        CompletableFuture<List<byte[]>> task;
        try (RoundRelay relay = RoundRelay.toDriver(LOOPBACK, 1)) {
            task = task(relay, 0, 0, 1);
            assertEquals(0, relay.next(30_000).round());
            assertNull(relay.next(100), "no answer, no next round");
        }
        assertThrows(java.util.concurrent.ExecutionException.class, task::get);
    }

    @Test
    void theTimeoutIsASparkSettingAndBadValuesAreRefused() throws Exception {
        assertEquals(30 * 60_000, RoundRelay.timeoutMillis(LOOPBACK));
        SparkConf twoHours = LOOPBACK.clone().set(RoundRelay.TIMEOUT_SETTING, "2h");
        assertEquals(2 * 3_600_000, RoundRelay.timeoutMillis(twoHours));
        try (RoundRelay relay = RoundRelay.toDriver(twoHours, 1)) {
            RelayAddress address = relay.address();
            assertEquals(new RelayAddress("127.0.0.1", address.port(), 2 * 3_600_000, address.token()), address);
            assertTrue(address.port() > 0, "a bound port: " + address);
        }
        for (String bad : new String[] {"0s", "-5min", "soon", "30d"}) {
            org.sparkmc.core.InvalidInputException e = assertThrows(org.sparkmc.core.InvalidInputException.class,
                    () -> RoundRelay.timeoutMillis(LOOPBACK.clone().set(RoundRelay.TIMEOUT_SETTING, bad)));
            assertEquals(RoundRelay.TIMEOUT_SETTING + " must be a positive time such as 30min or 2h, at most 24 days, "
                    + "is '" + bad + "'", e.getMessage());
        }
    }

    /**
     * A task whose peer never connects stops waiting as soon as its check says so (Spark has killed it), not after
     * the relay's timeout of 20 s here.
     */
    @Test
    void aTaskWaitingForItsPeersStopsWhenItsCheckSaysSo() throws Exception {
        SparkConf twentySeconds = LOOPBACK.clone().set(RoundRelay.TIMEOUT_SETTING, "20s");
        java.util.concurrent.atomic.AtomicBoolean killed = new java.util.concurrent.atomic.AtomicBoolean();
        try (RoundRelay relay = RoundRelay.onDriver(twentySeconds, 2);
                RoundClient client = relay.address().connect(0, 0, () -> {
                    if (killed.get()) {
                        throw new IllegalStateException("killed");
                    }
                })) {
            CompletableFuture.runAsync(() -> killed.set(true), CompletableFuture.delayedExecutor(
                    500, java.util.concurrent.TimeUnit.MILLISECONDS));
            long t0 = System.nanoTime();
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> client.exchange(0, new byte[] {1}));
            assertEquals("killed", e.getMessage());
            double seconds = (System.nanoTime() - t0) / 1e9;
            assertTrue(seconds < 5, "stopped after " + seconds + " s");
        }
    }

    /** Frames that come after several of the checks' short waits arrive whole: no wait ends inside a frame. */
    @Test
    void aRoundSlowerThanTheChecksArrivesWhole() throws Exception {
        java.util.concurrent.atomic.AtomicInteger checks = new java.util.concurrent.atomic.AtomicInteger();
        byte[] big = new byte[200_000];
        java.util.Arrays.fill(big, (byte) 7);
        try (RoundRelay relay = RoundRelay.onDriver(LOOPBACK, 2);
                RoundClient fast = relay.address().connect(0, 0, checks::incrementAndGet);
                RoundClient slow = relay.address().connect(1, 0, () -> { })) {
            CompletableFuture<byte[][]> late = CompletableFuture.supplyAsync(() -> {
                try {
                    while (checks.get() < 4) { // the fast task has begun and waited through three short reads
                        Thread.sleep(10);
                    }
                    return slow.exchange(0, big);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            byte[][] others = fast.exchange(0, new byte[] {1});
            assertArrayEquals(new byte[][] {big}, others);
            assertArrayEquals(new byte[][] {{1}}, late.get());
            assertTrue(checks.get() >= 4, checks.get() + " checks");
        }
    }

    /**
     * A task whose frame is larger than the sockets' buffers blocks writing it while the relay waits for a peer that
     * never connects (it reads no frame before every partition has): the check, run by the watch while the write is
     * blocked, ends it. Without the watch the write blocks until the relay closes, which it does not while the stage
     * runs: the test's bound of 5 s fails it (the relay, closed when the test ends, then frees the write).
     */
    @Test
    void aTaskWritingAFrameTheRelayDoesNotReadStopsWhenItsCheckSaysSo() throws Exception {
        IllegalStateException killed = new IllegalStateException("killed");
        assertSame(killed, writeStoppedByCheckThrowing(killed));
    }

    /** An {@code Error} from the check ends the write too, rather than only the watch's runs. */
    @Test
    void aCheckThrowingAnErrorEndsTheWriteToo() throws Exception {
        CheckError broken = new CheckError();
        assertSame(broken, writeStoppedByCheckThrowing(broken));
    }

    /** An {@code Error} no assertion of JUnit throws, so that a failed bound is not taken for it. */
    private static final class CheckError extends Error {
        private static final long serialVersionUID = 1L;
    }

    /**
     * Writes a 64 MiB frame to a relay of 2 partitions where only this client connects, with a check that throws
     * {@code thrown} on its third run; returns what the write threw, within a bound of 5 s, after asserting that the
     * watch stopped after that run.
     */
    private static Throwable writeStoppedByCheckThrowing(Throwable thrown) throws Exception {
        java.util.concurrent.atomic.AtomicInteger checks = new java.util.concurrent.atomic.AtomicInteger();
        try (RoundRelay relay = RoundRelay.onDriver(LOOPBACK, 2);
                RoundClient client = relay.address().connect(0, 0, () -> {
                    // the first check is the one as the round starts; the next two can only be the watch's
                    if (checks.incrementAndGet() >= 3) {
                        sneakyThrow(thrown);
                    }
                })) {
            byte[] big = new byte[64 << 20]; // far beyond the send buffer and the relay's unread receive buffer
            Throwable e = assertThrows(thrown.getClass(),
                    () -> assertTimeoutPreemptively(Duration.ofSeconds(5), () -> client.exchange(0, big)));
            assertEquals(3, checks.get(), "the watch stops after the check that threw");
            return e;
        }
    }

    /** Throws an unchecked {@code t} (a {@code RuntimeException} or an {@code Error}) from a {@code Runnable}. */
    private static void sneakyThrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        throw (Error) t;
    }

    /**
     * A write that nothing reads ends after the timeout, as a read does, when no check stops it first; without the
     * watch it blocks until the test's bound of 10 s fails it. The frame is far larger than a send buffer can grow to
     * on Linux by default (4 MiB) beside the 64 KiB the deaf end takes.
     */
    @Test
    void aFrameNobodyReadsTimesOut() throws Exception {
        try (java.net.ServerSocket deaf = new java.net.ServerSocket()) {
            deaf.setReceiveBufferSize(1 << 16);
            deaf.bind(new java.net.InetSocketAddress("127.0.0.1", 0));
            CompletableFuture<java.net.Socket> accepted = CompletableFuture.supplyAsync(() -> {
                try {
                    return deaf.accept(); // and never read
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            try (RoundClient client = new RoundClient("127.0.0.1", deaf.getLocalPort(), 0L, 0, 0, 1_000, () -> { });
                    java.net.Socket unread = accepted.get()) {
                long t0 = System.nanoTime();
                java.net.SocketTimeoutException e = assertThrows(java.net.SocketTimeoutException.class,
                        () -> assertTimeoutPreemptively(Duration.ofSeconds(10),
                                () -> client.exchange(3, new byte[64 << 20])));
                double seconds = (System.nanoTime() - t0) / 1e9;
                assertTrue(e.getMessage().contains("round 3"), e.getMessage());
                assertTrue(seconds >= 1, "stopped after " + seconds + " s, before the timeout of 1 s");
            }
        }
    }

    /**
     * A round is the driver's before any task has it back: a stage whose tasks end right after their last exchange
     * may be seen ending by the driver at any moment after, and it must then find every round queued.
     */
    @Test
    void aRoundIsQueuedForTheDriverBeforeTheTasksHaveIt() throws Exception {
        try (RoundRelay relay = RoundRelay.onDriver(LOOPBACK, 1);
                RoundClient client = relay.address().connect(0, 0, () -> { })) {
            for (int r = 0; r < 2_000; r++) {
                client.exchange(r, new byte[] {(byte) r});
                RoundRelay.Round round = relay.next(0);
                assertNotNull(round, "round " + r + " was not queued when the task had it back");
                assertEquals(r, round.round());
            }
            client.done();
        }
    }

    /**
     * A connection that sends no hello, or a cut one, or one without the relay's token, between two tasks' is dropped
     * alone: the task connected before it is still relayed with the one after (the cut hello's EOF had ended the
     * accept loop, losing the first task; a hello without the token had been taken for a task's).
     */
    @Test
    void aConnectionWithoutAHelloIsDroppedAlone() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            try (RoundRelay relay = RoundRelay.onDriver(LOOPBACK, 2);
                    RoundClient first = relay.address().connect(0, 0, () -> { })) {
                RelayAddress at = relay.address();
                try (java.net.Socket cut = new java.net.Socket(at.host(), at.port())) {
                    cut.getOutputStream().write(new byte[] {0, 0}); // a quarter of the token
                }
                try (java.net.Socket stranger = new java.net.Socket(at.host(), at.port());
                        java.io.DataOutputStream out = new java.io.DataOutputStream(stranger.getOutputStream())) {
                    out.writeLong(at.token() + 1); // a whole hello, as partition 1, but not the relay's token
                    out.writeInt(1);
                    out.writeInt(0);
                    out.writeInt(0);
                    out.writeInt(1);
                    out.write(66);
                    out.flush();
                }
                CompletableFuture<byte[][]> second = CompletableFuture.supplyAsync(() -> {
                    try (RoundClient client = at.connect(1, 0, () -> { })) {
                        byte[][] got = client.exchange(0, new byte[] {1});
                        client.done();
                        return got;
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
                assertArrayEquals(new byte[] {1}, first.exchange(0, new byte[] {0})[0]);
                first.done();
                assertArrayEquals(new byte[] {0}, second.get()[0]);
            }
        });
    }

    /**
     * An {@link Error} in the relay's thread (here the out-of-memory error of a relay for more partitions than an
     * array can hold) ends the relay at once: the driver's next wait fails with it, and a retry's connection is
     * refused, instead of every attempt waiting out the relay's timeout on a port nobody serves.
     */
    @Test
    void anErrorInTheRelayEndsItForTheDriverAndTheTasks() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            try (RoundRelay relay = RoundRelay.onDriver(LOOPBACK, Integer.MAX_VALUE)) {
                IllegalStateException failed = assertThrows(IllegalStateException.class, () -> {
                    while (relay.next(50) == null) {
                        Thread.onSpinWait();
                    }
                });
                assertTrue(failed.getCause() instanceof OutOfMemoryError, String.valueOf(failed.getCause()));
                assertThrows(java.io.IOException.class, () -> relay.address().connect(0, 1, () -> { }).close());
            }
        });
    }

    /**
     * A frame whose length no array can hold (a corrupt or hostile one, even from a task with the token) ends its
     * attempt as a frame cut short does, and a retry is relayed: the relay allocates as the frame's bytes come, not
     * as its length says. Allocated at once, the length had been an {@link OutOfMemoryError} that ended the relay.
     */
    @Test
    void aFrameLongerThanAnArrayEndsItsAttemptNotTheRelay() throws Exception {
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            try (RoundRelay relay = RoundRelay.onDriver(LOOPBACK, 1)) {
                RelayAddress at = relay.address();
                try (java.net.Socket task = new java.net.Socket(at.host(), at.port());
                        java.io.DataOutputStream out = new java.io.DataOutputStream(task.getOutputStream())) {
                    out.writeLong(at.token());
                    out.writeInt(0); // partition
                    out.writeInt(0); // stage attempt
                    out.writeInt(0); // round
                    out.writeInt(Integer.MAX_VALUE); // a frame's length no array can hold
                    out.write(new byte[100]); // and far fewer bytes
                    out.flush();
                }
                try (RoundClient retry = at.connect(0, 1, () -> { })) {
                    assertArrayEquals(new byte[0][], retry.exchange(0, new byte[] {5}));
                    retry.done();
                }
                assertArrayEquals(new byte[] {5}, relay.next(10_000).frames()[0]);
            }
        });
    }

    /**
     * A task reads the relay's counts as the relay reads the tasks': a count of frames or a frame's length that no
     * array can hold ends the exchange as a cut reply does, not as an {@link OutOfMemoryError}.
     */
    @Test
    void aReplyWithAnAbsurdCountFailsAsACutOne() throws Exception {
        for (int[] reply : new int[][] {{Integer.MAX_VALUE}, {1, Integer.MAX_VALUE}}) {
            try (java.net.ServerSocket relay = new java.net.ServerSocket(0, 1,
                    java.net.InetAddress.getLoopbackAddress())) {
                CompletableFuture<Void> replied = CompletableFuture.runAsync(() -> {
                    try (java.net.Socket task = relay.accept();
                            java.io.DataInputStream in = new java.io.DataInputStream(task.getInputStream());
                            java.io.DataOutputStream out = new java.io.DataOutputStream(task.getOutputStream())) {
                        in.readFully(new byte[16 + 8 + 1]); // the hello, and round 0's frame of one byte
                        for (int v : reply) {
                            out.writeInt(v);
                        }
                        out.write(new byte[100]);
                        out.flush();
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
                try (RoundClient client = new RoundClient("127.0.0.1", relay.getLocalPort(), 0L, 0, 0, 10_000,
                        () -> { })) {
                    client.exchange(0, new byte[] {1});
                    fail("a reply cut short was read");
                } catch (java.io.EOFException expected) {
                    // the reply ended before its count of frames, or its frame, did
                } catch (OutOfMemoryError e) { // not for JUnit's assertThrows, which rethrows it and ends the run
                    fail("allocated as the count said: " + e);
                }
                replied.get();
            }
        }
    }

    /**
     * A task that stops reading (alive, but no longer taking its replies) cannot hold the relay: a socket's timeout
     * bounds only reads, and the relay's write of a reply larger than the sockets' buffers would block until TCP gave
     * up, the task's host acknowledging all the while. The relay's writes end after its timeout (1 s here), closing
     * the attempt's sockets, so its other task fails then (here with a wait of 10 s of its own), and a retry is
     * relayed. Without the bound the other task waits out its 10 s, and the retry its timeout, the relay's thread
     * blocked.
     */
    @Test
    void aTaskThatStopsReadingFailsTheRelaysWritesWithinTheTimeout() throws Exception {
        SparkConf oneSecond = LOOPBACK.clone().set(RoundRelay.TIMEOUT_SETTING, "1s");
        try (RoundRelay relay = RoundRelay.onDriver(oneSecond, 2); java.net.Socket deaf = new java.net.Socket()) {
            RelayAddress at = relay.address();
            deaf.setReceiveBufferSize(1 << 16);
            deaf.connect(new java.net.InetSocketAddress(at.host(), at.port()));
            java.io.DataOutputStream out = new java.io.DataOutputStream(deaf.getOutputStream());
            out.writeLong(at.token());
            out.writeInt(0); // partition
            out.writeInt(0); // stage attempt
            out.writeInt(0); // round
            out.writeInt(1);
            out.write(1);
            out.flush(); // and never reads
            try (RoundClient other = new RoundClient(at.host(), at.port(), at.token(), 1, 0, 10_000, () -> { })) {
                long t0 = System.nanoTime();
                assertThrows(java.io.EOFException.class, () -> assertTimeoutPreemptively(Duration.ofSeconds(5),
                        () -> other.exchange(0, new byte[32 << 20]))); // far beyond the deaf task's buffers
                double seconds = (System.nanoTime() - t0) / 1e9;
                assertTrue(seconds >= 1, "the relay stopped after " + seconds + " s, before its timeout of 1 s");
            }
            List<CompletableFuture<List<byte[]>>> retried = List.of(task(relay, 0, 1, 1), task(relay, 1, 1, 1));
            for (CompletableFuture<List<byte[]>> task : retried) {
                assertEquals(1, task.get().size());
            }
        }
    }

    /**
     * A relay or a task's client whose constructor fails after opening its socket closes it: here a relay bound to an
     * address of no local interface, and a client given a negative timeout, which the socket refuses after it opened.
     */
    @Test
    void aFailedRelayOrClientLeavesNoSocketOpen() throws Exception {
        SparkConf elsewhere = LOOPBACK.clone().set("spark.driver.bindAddress", "192.0.2.1"); // TEST-NET-1
        com.sun.management.UnixOperatingSystemMXBean os = (com.sun.management.UnixOperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        long before = os.getOpenFileDescriptorCount();
        for (int i = 0; i < 50; i++) {
            assertThrows(java.net.BindException.class, () -> RoundRelay.onDriver(elsewhere, 1));
            assertThrows(IllegalArgumentException.class,
                    () -> new RoundClient("127.0.0.1", 9, 0L, 0, 0, -1, () -> { }));
        }
        long opened = os.getOpenFileDescriptorCount() - before;
        assertTrue(opened < 20, opened + " more file descriptors open after 100 failed constructors");
    }

    /** A task of {@code attempt} that sends rounds 0..rounds−1 as {partition, round}; its answers, by round. */
    private static CompletableFuture<List<byte[]>> task(RoundRelay relay, int partition, int attempt, int rounds) {
        return CompletableFuture.supplyAsync(() -> {
            try (RoundClient client = relay.address().connect(partition, attempt, () -> { })) {
                List<byte[]> answers = new ArrayList<>();
                for (int r = 0; r < rounds; r++) {
                    byte[][] back = client.exchange(r, new byte[] {(byte) partition, (byte) r});
                    assertEquals(1, back.length, "the driver's answer only");
                    answers.add(back[0]);
                }
                client.done();
                return answers;
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }
}
